"""``nlgboard``: the web app's command line (ARCHITECTURE.md, "Interfaces")."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup, FlaskGroup, routes_command, shell_command, with_appcontext

from app.cli_baselines import baselines
from app.db import session_scope
from app.migrate import upgrade
from app.models import ChallengeAnnotator, ChallengeOrganiser, Role
from app.security import SECURE_COOKIES_ENV
from app.services import DomainError
from app.services.access import ORGANISERS
from app.services.accounts import create_user, find_or_create_team, password_problem
from app.services.annotation import create_links
from app.services.audit import record
from app.services.bundled import describe as describe_bundled
from app.services.bundled import register_bundled_runs
from app.services.campaigns import CRITERIA, CampaignSpec, create_campaign, get_campaign
from app.services.drs import import_challenge_set
from app.services.human_results import analyse, export_csv, import_judgements
from app.services.leaderboard import default_language, leaderboard_outputs
from app.services.status import queue_status, readiness
from app.services.submissions import submit_output
from app.services.tracks import (
    TRACK_KINDS,
    create_challenge,
    get_challenge,
    get_track,
    import_test_set,
    store_split_report,
)
from scorer.errors import InputError
from scorer.similarity import similarity_matrix
from worker.jobs import describe_submission, score_submission
from worker.logs import FORMAT_ENV, configure_logging
from worker.queues import EmbeddedQueue
from worker.runner import run_worker
from worker.storage import storage_for


def _settings():
    return current_app.extensions["nlgboard.settings"]


def _fail(error: Exception) -> None:
    raise click.ClickException(str(error))


@click.group(cls=AppGroup)
def db() -> None:
    """Database schema."""


@db.command("upgrade")
def db_upgrade() -> None:
    """Apply every Alembic migration up to the newest."""
    upgrade(_settings().database_url)
    click.echo("database is at the newest schema")


@click.group(cls=AppGroup)
def user() -> None:
    """Accounts."""


@user.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), default=Role.PARTICIPANT.value)
@click.option(
    "--team", "team_name", default=None, help="Put the user in this team (created if new)."
)
@click.option("--password", default=None, help="Password for the web login (optional).")
@click.option(
    "--challenge",
    "challenges",
    multiple=True,
    help="Organiser (--role organiser) or annotator (--role annotator) of this challenge.",
)
def user_create(
    email: str, role: str, team_name: str | None, password: str | None, challenges: tuple[str, ...]
) -> None:
    """Create a user and print their API token (shown once)."""
    from app.models import Membership

    problem = password_problem(password, email) if password else None
    if problem:
        _fail(DomainError(f"--password: {problem}"))
    try:
        with session_scope(_settings().database_url) as session:
            account = create_user(session, email, password, Role(role))
            if team_name:
                session.add(Membership(user=account, team=find_or_create_team(session, team_name)))
            staff = ChallengeAnnotator if account.role == Role.ANNOTATOR else ChallengeOrganiser
            for slug in challenges:
                session.add(staff(challenge_id=get_challenge(session, slug).id, user_id=account.id))
            token = account.new_api_token()
    except DomainError as error:
        _fail(error)
    click.echo(token)


@click.group(cls=AppGroup)
def challenge() -> None:
    """Challenges."""


@challenge.command("create")
@click.argument("slug")
@click.option("--title", required=True)
@click.option("--description", default="")
def challenge_create(slug: str, title: str, description: str) -> None:
    """Create a challenge."""
    try:
        with session_scope(_settings().database_url) as session:
            create_challenge(session, slug, title, description)
    except DomainError as error:
        _fail(error)
    click.echo(f"challenge {slug} created")


@click.group(cls=AppGroup)
def track() -> None:
    """Tracks and their hidden test sets."""


@track.command("import")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--kind", required=True, type=click.Choice(sorted(TRACK_KINDS)))
@click.option("--language", default=None, help="Test-set language (required for SR'18 kinds).")
@click.option("--inputs", "inputs_path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--refs",
    "refs_path",
    type=click.Path(exists=True, path_type=Path),
    help="Hidden references (DRS: the .raw sentences; not needed for SBN, which carries them).",
)
@click.option(
    "--subset",
    default=None,
    help="DRS: tag the items with this subset (default standard; also long, "
    "compositional-substitution, compositional-extension).",
)
@click.option("--title", default=None)
@click.option("--deadline", type=click.DateTime(), default=None, help="UTC, e.g. 2017-10-31T23:59")
@click.option("--daily-limit", type=int, default=None)
def track_import(
    challenge_slug: str,
    track_slug: str,
    kind: str,
    language: str | None,
    inputs_path: Path | None,
    refs_path: Path | None,
    subset: str | None,
    title: str | None,
    deadline: datetime | None,
    daily_limit: int | None,
) -> None:
    """Create a track (or add a language's test set) from test inputs and hidden references.

    DRS: one test set per language; importing again with --subset appends items tagged with
    that subset (before any submission). A bundled baseline run decoded from exactly these
    inputs (baselines/runs/manifest.json) is added as a baseline system."""
    settings = _settings()
    queue = current_app.extensions["nlgboard.queue"]
    try:
        with session_scope(settings.database_url) as session:
            found = get_challenge(session, challenge_slug)
            test_set, report = import_test_set(
                session,
                found,
                track_slug,
                kind,
                language=language,
                inputs=(inputs_path.read_bytes(), inputs_path.name) if inputs_path else None,
                references=(refs_path.read_bytes(), refs_path.name) if refs_path else None,
                subset=subset,
                title=title,
                deadline=deadline,
                daily_limit=daily_limit,
            )
            files = [p.name for p in (inputs_path, refs_path) if p]
            record(session, None, "test set import", f"{track_slug} ({test_set.language})",
                   found.id, report=report, files=files)  # fmt: skip
            session.commit()
            registered = register_bundled_runs(
                session, queue, storage_for(settings), test_set,
                current_app.config["UPLOAD_MAX_BYTES"],
            )  # fmt: skip
    except (DomainError, InputError) as error:
        _fail(error)
    click.echo(report)
    if registered:
        click.echo(describe_bundled(registered))
    _score_now(queue, settings, [i for r in registered for i in r.submissions])


@track.command("challenge-set")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", required=True, help="The test set the challenge items pair with.")
@click.option(
    "--name",
    required=True,
    help="The set's name: tense, polarity, number, names or quantity (the published files "
    "name the polarity set test-neg and the number set test-polarity: name it here).",
)
@click.option(
    "--inputs", "inputs_path", required=True, type=click.Path(exists=True, path_type=Path)
)
@click.option("--refs", "refs_path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--allow-unmatched",
    is_flag=True,
    help="Import items whose original is not in the test set (scored as Chal, unpaired).",
)
def track_challenge_set(
    challenge_slug: str,
    track_slug: str,
    language: str,
    name: str,
    inputs_path: Path,
    refs_path: Path,
    allow_unmatched: bool,
) -> None:
    """Append a DRS challenge set (Wang et al. 2021) to a test set, pairing each item with its
    original test item through the sentence on its third %%% line."""
    try:
        with session_scope(_settings().database_url) as session:
            report = import_challenge_set(
                session,
                get_track(session, challenge_slug, track_slug),
                language,
                name,
                inputs_path.read_bytes(),
                refs_path.read_bytes(),
                inputs_name=inputs_path.name,
                sentences_name=refs_path.name,
                allow_unmatched=allow_unmatched,
            )
    except (DomainError, InputError) as error:
        _fail(error)
    click.echo(report.describe())


@track.command("split-report")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", default=None, help="Test set (default: the track's language).")
@click.option(
    "--train",
    "train_path",
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="The training file (E2E mr,ref CSV; DRS SBN file or .raw sentences).",
)
def track_split_report(
    challenge_slug: str, track_slug: str, language: str | None, train_path: Path
) -> None:
    """How close each test reference is to its nearest training text (Zhang et al. 2024,
    Eq. 3, Fig. 3): the word-overlap histogram and the near-duplicate share, kept for the
    organisers' view of the track page."""
    try:
        with session_scope(_settings().database_url) as session:
            found = get_track(session, challenge_slug, track_slug)
            report = store_split_report(
                session,
                found,
                language or default_language(found) or found.language,
                train_path.read_bytes(),
                train_path.name,
            )
    except (DomainError, InputError) as error:
        _fail(error)
    click.echo(
        f"{report['test_items']} test texts vs {report['train_items']} training texts: "
        f"mean nearest overlap {report['mean']:.3f}, median {report['median']:.3f}; "
        f"{report['near_duplicates']} near-duplicates (>= {report['near_duplicate_threshold']}, "
        f"{100 * report['near_duplicate_share']:.1f}%), {report['identical']} identical"
    )
    peak = max(count for _, _, count in report["bins"]) or 1
    for low, high, count in report["bins"]:
        click.echo(f"{low:.1f}-{high:.1f} {count:6d} {'#' * round(40 * count / peak)}")


@track.command("similarity")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.option("--language", default=None, help="Test set of a multilingual track.")
@click.option("--all", "include_secondary", is_flag=True, help="Secondary systems too.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def track_similarity(
    challenge_slug: str,
    track_slug: str,
    language: str | None,
    include_secondary: bool,
    as_json: bool,
) -> None:
    """How similar the systems' outputs are to each other (E2E paper Sect. 8.3, Figure 5).

    Scores every pair of systems' latest scored outputs with the overlap metrics (minutes for
    twenty systems: run it on the worker host, not in a request). The matrix is kept on the test
    set, for the track page's heatmap."""
    settings = _settings()
    try:
        with session_scope(settings.database_url) as session:
            found = get_track(session, challenge_slug, track_slug)
            systems, references, profile = leaderboard_outputs(
                session, found, language, include_secondary, viewer=ORGANISERS
            )
    except DomainError as error:
        _fail(error)
    if len(systems) < 2:
        _fail(DomainError(f"similarity needs two scored systems, {len(systems)} found"))
    try:
        matrix = similarity_matrix(profile, systems, references)
    except ValueError as error:
        _fail(error)
    with session_scope(settings.database_url) as session:
        found = get_track(session, challenge_slug, track_slug)
        test_set = found.test_set_for(language or default_language(found))
        test_set.similarity = matrix.as_dict()
    if as_json:
        click.echo(json.dumps(matrix.as_dict(), ensure_ascii=False))
        return
    width = max(len(name) for name in matrix.rows)
    click.echo(
        "reference / tested".ljust(width) + "  " + "  ".join(f"{t:>8.8}" for t in matrix.tested)
    )
    for name, row in zip(matrix.rows, matrix.values):
        cells = "  ".join(f"{'-':>8}" if v is None else f"{v:8.4f}" for v in row)
        click.echo(f"{name:<{width}}  {cells}")
    click.echo("mean similarity to the other systems:")
    for name in sorted(matrix.tested, key=lambda n: -(matrix.mean(n) or 0.0)):
        click.echo(f"  {name:<{width}}  {matrix.mean(name):.4f}")
    click.echo(f"# {matrix.signature}")


@click.group(cls=AppGroup)
def baseline() -> None:
    """Baseline runs shown beside every leaderboard."""


@baseline.command("add")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--name", required=True)
@click.option("--language", default=None, help="Test set of a multilingual track (or use a zip).")
def baseline_add(
    challenge_slug: str, track_slug: str, file: Path, name: str, language: str | None
) -> None:
    """Register FILE (a zip for several languages) as a baseline run of a track and score it."""
    settings = _settings()
    queue = current_app.extensions["nlgboard.queue"]
    try:
        with session_scope(settings.database_url) as session:
            found = get_track(session, challenge_slug, track_slug)
            submissions = submit_output(
                session,
                queue,
                storage_for(settings),
                user=None,
                team=None,
                track=found,
                system_name=name,
                filename=file.name,
                data=file.read_bytes(),
                max_bytes=current_app.config["UPLOAD_MAX_BYTES"],
                is_baseline=True,
                language=language,
            )
            submission_ids = [(s.id, s.language) for s in submissions]
            record(session, None, "baseline add", f"{track_slug}/{name}", found.challenge_id,
                   submissions=[s for s, _ in submission_ids])  # fmt: skip
    except (DomainError, InputError) as error:
        _fail(error)
    for (submission_id, test_language), outcome in zip(
        submission_ids, _score_now(queue, settings, [i for i, _ in submission_ids])
    ):
        click.echo(f"baseline {name}: submission {submission_id} ({test_language}) {outcome}")


def _score_now(queue, settings, submission_ids: list[int]) -> list[str]:
    """On the embedded default nobody else will score them: do it here; else say queued."""
    if not isinstance(queue, EmbeddedQueue):
        return ["queued"] * len(submission_ids)
    outcomes = [score_submission(submission_id, settings) for submission_id in submission_ids]
    for submission_id in submission_ids:
        describe_submission(submission_id, settings)
    return outcomes


@click.command("status")
@with_appcontext
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def status_command(as_json: bool) -> None:
    """Readiness, queue depth, workers alive and the oldest queued submission; exit 1 when the
    database, Redis or the upload store is not usable (a worker container's healthcheck)."""
    settings = _settings()
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


def _print_queue(state) -> None:
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
def worker_command(burst: bool) -> None:
    """Run a scoring worker on REDIS_URL (start as many as you like, on any machine)."""
    try:
        run_worker(_settings(), burst=burst)
    except RuntimeError as error:
        _fail(error)


@click.command("run")
@with_appcontext
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def run_command(host: str, port: int) -> None:
    """Serve the site; without REDIS_URL an in-process worker scores submissions."""
    from werkzeug.serving import run_simple

    from app import start_embedded_worker

    app = current_app._get_current_object()
    if SECURE_COOKIES_ENV not in os.environ:  # plain HTTP: Secure cookies would not come back
        app.config.update(SESSION_COOKIE_SECURE=False, REMEMBER_COOKIE_SECURE=False)
    os.environ.setdefault(FORMAT_ENV, "text")  # one machine, a terminal: plain lines
    configure_logging()
    start_embedded_worker(app)
    click.echo(f"serving http://{host}:{port}/ (database {_settings().database_url})")
    run_simple(host, port, app, threaded=True, use_reloader=False)


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Seed the demo challenge from the project's own small data (idempotent)."""
    from app.demo import seed_demo

    click.echo(seed_demo(current_app._get_current_object()))


@click.group(cls=AppGroup)
def human() -> None:
    """Human evaluation: campaigns, one-time links, imports, results."""


@human.command("create")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--method", required=True, type=click.Choice([str(m) for m in CRITERIA]))
@click.option("--criterion", required=True)
@click.option("--language", default=None)
@click.option("--systems", default=None, help="Comma-separated names (default: primary systems).")
@click.option("--baselines", is_flag=True, help="Include the baselines.")
@click.option("--human-references", is_flag=True, help="Evaluate the references as a system.")
@click.option("--items", default=100, show_default=True, type=click.IntRange(1))
@click.option("--subset", default=None, help="ROSE: a challenge set, judged beside its originals.")
@click.option("--annotators-per-hit", default=3, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=2018, show_default=True, type=int)
def human_create(
    challenge_slug: str,
    track_slug: str,
    name: str,
    method: str,
    criterion: str,
    language: str | None,
    systems: str | None,
    baselines: bool,
    human_references: bool,
    items: int,
    subset: str | None,
    annotators_per_hit: int,
    seed: int,
) -> None:
    """Set up a campaign NAME on a track from its systems' stored outputs."""
    spec = CampaignSpec(
        name=name,
        method=method,
        criterion=criterion,
        language=language,
        systems=[s.strip() for s in systems.split(",") if s.strip()] if systems else None,
        include_baselines=baselines,
        include_human=human_references,
        items=items,
        subset=subset,
        annotators_per_hit=annotators_per_hit,
        seed=seed,
    )
    try:
        with session_scope(_settings().database_url) as session:
            campaign = create_campaign(
                session, get_track(session, challenge_slug, track_slug), spec
            )
            hits = len({unit.hit for unit in campaign.units})
            click.echo(f"campaign {name}: {len(campaign.units)} units in {hits} HITs")
    except DomainError as error:
        _fail(error)


@human.command("links")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--count", default=5, show_default=True, type=click.IntRange(1, 10000))
@click.option("--base-url", default="http://127.0.0.1:5000", show_default=True)
def human_links(challenge_slug: str, track_slug: str, name: str, count: int, base_url: str) -> None:
    """Print one-time annotation links (each good for one HIT; shown once)."""
    try:
        with session_scope(_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            for token in create_links(session, campaign, count):
                click.echo(f"{base_url.rstrip('/')}/annotate/link/{token}")
    except DomainError as error:
        _fail(error)


@human.command("import")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--method", required=True, type=click.Choice([str(m) for m in CRITERIA]))
@click.option("--criterion", required=True, help="e.g. quality, naturalness, readability.")
@click.option("--file", "path", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--language", default=None)
def human_import(
    challenge_slug: str,
    track_slug: str,
    name: str,
    method: str,
    criterion: str,
    path: Path,
    language: str | None,
) -> None:
    """Import judgements collected elsewhere (E2E RankME CSV or long CSV) as campaign NAME."""
    try:
        with session_scope(_settings().database_url) as session:
            track = get_track(session, challenge_slug, track_slug)
            campaign = import_judgements(
                session, track, name, method, criterion, path.read_bytes(), path.name, language
            )
            notes = campaign.imported
    except (DomainError, InputError) as error:
        _fail(error)
    click.echo(f"imported {notes['judgements']} judgements into {name}")
    for key, says in (("out_of_scale", "outside 0-100, kept as given"), ("skipped", "skipped")):
        if notes.get(key):
            click.echo(f"{says}: {notes[key]} values ({', '.join(notes[key + '_values'][:5])} ...)")


@human.command("analyse")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
@click.option("--publish", is_flag=True, help="Also show the results on the track page.")
@click.option("--json", "as_json", is_flag=True)
def human_analyse(
    challenge_slug: str, track_slug: str, name: str, publish: bool, as_json: bool
) -> None:
    """Compute (and store) a campaign's results."""
    try:
        with session_scope(_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            results = analyse(session, campaign)
            campaign.is_published = campaign.is_published or publish
    except DomainError as error:
        _fail(error)
    shown = {k: v for k, v in results.items() if k != "heatmap_svg"}
    click.echo(json.dumps(shown, indent=2) if as_json else f"{name}: results stored")


@human.command("export")
@click.argument("challenge_slug")
@click.argument("track_slug")
@click.argument("name")
def human_export(challenge_slug: str, track_slug: str, name: str) -> None:
    """Print every judgement of a campaign as the long CSV ``nlg-human`` reads."""
    try:
        with session_scope(_settings().database_url) as session:
            campaign = get_campaign(session, get_track(session, challenge_slug, track_slug), name)
            click.echo(export_csv(session, campaign), nl=False)
    except DomainError as error:
        _fail(error)


def register_commands(app: Flask) -> None:
    """Attach the commands to the app, so ``nlgboard`` and ``app.test_cli_runner()`` agree."""
    for command in (
        db,
        user,
        challenge,
        track,
        baseline,
        baselines,
        human,
        worker_command,
        status_command,
        run_command,
        demo_command,
    ):
        app.cli.add_command(command)


def _create_app() -> Flask:
    from app import create_app

    return create_app()


cli = FlaskGroup(create_app=_create_app, add_default_commands=False, help=__doc__)
cli.add_command(shell_command)
cli.add_command(routes_command)


def main() -> None:
    cli.main(prog_name="nlgboard")
