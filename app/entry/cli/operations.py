"""Running the board: ``nlgboard status``, ``worker``, ``run``, ``demo``."""

from __future__ import annotations

import json
import os
import socket
import threading

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from app.data.db import session_scope
from app.data.logs import FORMAT_ENV, configure_logging
from app.data.mail.transport import describe as describe_mail
from app.data.mail.transport import where_mail_goes
from app.data.queue import QUEUE_NAMES
from app.data.storage import storage_for
from app.entry.cli.common import board_settings, fail, this_app
from app.entry.root import run_worker, score_now, start_embedded_worker, stop_on_signals
from app.web.security import SECURE_COOKIES_ENV
from app.web.services.admin_setup import has_admin, setup_path
from app.web.services.status import QueueStatus, queue_status, readiness


@click.command("status")
@with_appcontext
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def status_command(as_json: bool) -> None:
    """Readiness, queue depth, workers alive and the oldest queued submission; exit 1 when the
    database, Redis or the upload store is not usable (a worker container's healthcheck)."""
    settings = board_settings()
    queue = current_app.extensions["nlgboard.queue"]
    checks = readiness(settings, queue, storage_for(settings))
    ready = all(check.ok for check in checks)
    state = queue_status(settings, queue) if checks[0].ok else None
    if as_json:
        click.echo(json.dumps({
            "ready": ready,
            "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks},
            **(state.as_dict() if state else {}),
        }))  # fmt: skip
    else:
        for check in checks:
            click.echo(f"{check.name:<9} {'ok' if check.ok else 'FAILING'}  {check.detail}")
        if state:
            _print_queue(state)
    if not ready:
        raise SystemExit(1)


def _print_queue(state: QueueStatus) -> None:
    depth = "n/a (embedded)" if state.queue_depth is None else state.queue_depth
    click.echo(f"queue     {state.queue}: {depth} waiting, {state.running_jobs or 0} running")
    if state.describing_depth is not None:
        click.echo(
            f"describing {state.describing_depth} waiting (textual statistics, after scoring)"
        )
    if state.queue == "redis":
        click.echo(f"workers   {len(state.workers)} alive")
        for worker in state.workers:
            job = f", job {worker.job}" if worker.job else ""
            click.echo(f"  {worker.name} on {worker.host}: {worker.state}{job}, "
                       f"heartbeat {worker.last_heartbeat}")  # fmt: skip
    counts = ", ".join(f"{n} {s}" for s, n in sorted(state.submissions.items())) or "none"
    click.echo(f"submissions {counts}; {state.awaiting_description} scored awaiting statistics")
    if state.oldest_queued_id is None:
        click.echo("oldest queued: none")
    else:
        click.echo(f"oldest queued: submission {state.oldest_queued_id}, "
                   f"{state.oldest_queued_seconds:.0f} s ago")  # fmt: skip


@click.command("worker")
@with_appcontext
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@click.option(
    "--queues",
    default=",".join(QUEUE_NAMES),
    show_default=True,
    help="Queues to serve, comma-separated; the describing queue, served with others, gets a "
    "process of its own at the lowest CPU priority.",
)
def worker_command(burst: bool, queues: str) -> None:
    """Run a scoring worker on REDIS_URL (start as many as you like, on any machine)."""
    try:
        run_worker(board_settings(), burst=burst, queues=[q.strip() for q in queues.split(",")])
    except RuntimeError as error:
        fail(error)


@click.command("run")
@with_appcontext
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--demo", is_flag=True, help="Seed the demo challenges while serving (make run).")
@click.option(
    "--upgrade", is_flag=True, help="Apply the database migrations first (as `db upgrade`)."
)
def run_command(host: str, port: int, demo: bool, upgrade: bool) -> None:
    """Serve the site; without REDIS_URL an in-process worker scores submissions."""
    from werkzeug.serving import run_simple

    _check_port(host, port)
    if upgrade:  # in this process: make run saves a second start-up of the board
        from app.data.migrate import upgrade as upgrade_schema

        upgrade_schema(board_settings().database_url)
    app = this_app()
    if SECURE_COOKIES_ENV not in os.environ:  # plain HTTP: Secure cookies would not come back
        app.config.update(SESSION_COOKIE_SECURE=False, REMEMBER_COOKIE_SECURE=False)
    os.environ.setdefault(FORMAT_ENV, "text")  # one machine, a terminal: plain lines
    configure_logging()
    start_embedded_worker(app)
    stop_on_signals(app)
    click.echo(f"serving http://{host}:{port}/ (database {board_settings().database_url})")
    click.echo(describe_mail(board_settings()))
    _say_how_to_become_admin(app, f"http://{host}:{port}")
    if demo:
        threading.Thread(target=_seed_in_background, args=(app,), daemon=True).start()
    run_simple(host, port, app, threaded=True, use_reloader=False)


def _say_how_to_become_admin(app: Flask, base_url: str) -> None:
    """A fresh board has no administrator and no page can make one: print a one-time link."""
    with session_scope(board_settings().database_url) as session:
        if has_admin(session):
            return
    link = base_url + setup_path(app.config["SECRET_KEY"])
    click.echo(
        f"no administrator yet: open {link} to make your account the administrator (once, "
        "within 24 h; nlgboard user admin-link prints a new link), or run "
        "nlgboard user role EMAIL admin"
    )
    note = where_mail_goes(board_settings())
    if note:
        click.echo(f"registering through it: {note}")


def _seed_in_background(app: Flask) -> None:
    """The demo challenges appear within seconds; the in-process worker then scores their
    runs (METEOR's JVMs start first), saying so in the log as each one lands."""
    from app.entry.demo import seed_demo

    with app.app_context():
        try:
            seed_demo(app, say=lambda message: click.echo(message))
            click.echo("demo: seeded; the runs' scores appear as the worker finishes them")
        except Exception as error:  # the site keeps serving; say what went wrong
            click.echo(f"demo: seeding failed: {error}", err=True)


def _check_port(host: str, port: int) -> None:
    """Fail before saying "serving" when the port is taken: bound as the server binds it
    (``SO_REUSEADDR``), so the closed connections of a board that just crashed, still in
    TIME_WAIT, do not pass for another board (a restart failed with "Address already in use")."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            fail(OSError(f"cannot serve on {host}:{port} ({error.strerror}): "
                         "is another board running? Choose another port with --port"))  # fmt: skip


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Seed the demo challenge from the project's own small data (idempotent)."""
    from app.entry.demo import seed_demo

    click.echo(seed_demo(this_app(), score_now))
