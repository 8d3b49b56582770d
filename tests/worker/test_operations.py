"""Operating a deployment: health and readiness, ``nlgboard status``, structured logs, the
workers' in-memory test sets."""

from __future__ import annotations

import json
import logging

from alembic.script import ScriptDirectory
from sqlalchemy import select

from app.data.db import session_scope
from app.data.logs import JsonFormatter, submission_context
from app.data.migrate import alembic_config, upgrade
from app.data.models import Submission
from app.data.models import TestSet as StoredTestSet
from app.data.testsets import stamp_content
from app.web import create_app
from tests.conftest import make_app, make_settings
from tests.support.board import upload
from tests.support.factories import demo_track, participant, run_queue

HEAD = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
"""The newest migration, whichever it is."""


def test_health_and_readiness(client) -> None:
    assert client.get("/healthz").json == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json["status"] == "ready"
    assert ready.json["checks"]["database"] == {"ok": True, "detail": f"schema {HEAD}"}
    assert ready.json["checks"]["queue"]["detail"] == "embedded (no Redis)"


def test_not_ready_when_the_schema_is_behind(tmp_path) -> None:
    settings = make_settings(tmp_path / "instance")
    settings.instance_path.mkdir(parents=True)
    upgrade(settings.database_url, "0008")
    from app.entry.root import submission_queue

    queue = submission_queue(settings)
    answer = create_app(settings, {"TESTING": True}, queue).test_client().get("/readyz")
    assert answer.status_code == 503
    assert answer.json["checks"]["database"] == {
        "ok": False,
        "detail": f"schema at 0008, code needs {HEAD}: run db upgrade",
    }
    assert str(tmp_path) not in answer.get_data(as_text=True)


def test_not_ready_when_uploads_cannot_be_stored(tmp_path) -> None:
    settings = make_settings(tmp_path / "instance", storage_url=str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("not a directory")
    answer = make_app(settings).test_client().get("/readyz")
    assert answer.status_code == 503
    assert answer.json["checks"]["storage"]["ok"] is False
    assert str(tmp_path) not in answer.get_data(as_text=True)


def test_status_shows_the_oldest_queued_submission(app, client, runner, settings) -> None:
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    first = upload(client, token, "marlin").json["id"]
    upload(client, token, "quokka", b"a restaurant\n" * 10)
    result = runner.invoke(args=["status"])
    assert result.exit_code == 0, result.output
    assert "queue     embedded: n/a (embedded) waiting" in result.output
    assert f"oldest queued: submission {first}," in result.output
    assert "submissions 2 queued" in result.output
    run_queue(app)
    state = json.loads(runner.invoke(args=["status", "--json"]).output)
    assert state["ready"] is True and state["submissions"] == {"scored": 2}
    assert state["oldest_queued_id"] is None


def test_status_fails_when_the_database_is_unusable(tmp_path) -> None:
    settings = make_settings(tmp_path / "instance")
    settings.instance_path.mkdir(parents=True)
    upgrade(settings.database_url, "0006")
    from app.entry.cli import cli
    from app.entry.root import submission_queue

    app = create_app(settings, {"TESTING": True}, submission_queue(settings))
    result = app.test_cli_runner().invoke(cli, args=["status"])
    assert result.exit_code == 1
    assert "database  FAILING  schema at 0006" in result.output


def test_log_lines_are_json_with_the_submission_id() -> None:
    formatter = JsonFormatter()
    logger = logging.getLogger("nlgboard.test")
    with submission_context(41):
        inside = logger.makeRecord(logger.name, logging.INFO, __file__, 1, "scored %s", (7,),
                                   None, extra={"seconds": 1.5})  # fmt: skip
    outside = logger.makeRecord(logger.name, logging.INFO, __file__, 1, "idle", (), None)
    line = json.loads(formatter.format(inside))
    assert line["message"] == "scored 7" and line["level"] == "info"
    assert line["submission_id"] == 41 and line["seconds"] == 1.5
    assert "submission_id" not in json.loads(formatter.format(outside))


def test_scoring_logs_carry_the_submission_id(app, client, settings, caplog) -> None:
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    with caplog.at_level(logging.INFO):
        submission_id = upload(client, token, "marlin").json["id"]
        run_queue(app)
    lines = [json.loads(JsonFormatter().format(record)) for record in caplog.records]
    mine = [line for line in lines if line.get("submission_id") == submission_id]
    assert mine[0]["message"].startswith(f"submission {submission_id}: queued (marlin, main/en")
    scored, described = [line for line in mine if "outcome" in line]
    assert scored["message"].startswith(f"submission {submission_id}: job done (scored)")
    assert scored["seconds"] > 0
    assert described["message"].startswith(f"submission {submission_id}: describing done")
    assert described["outcome"] == "described"


def test_workers_reuse_an_unchanged_test_set(app, client, settings) -> None:
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    cache = app.extensions["nlgboard.queue"].state.test_sets  # the embedded worker's
    upload(client, token, "marlin")
    run_queue(app)
    misses, hits = cache.misses, cache.hits
    upload(client, token, "quokka", b"a restaurant\n" * 10)
    run_queue(app)
    assert (cache.misses, cache.hits) == (misses, hits + 2)  # its scoring and describing jobs
    with session_scope(settings.database_url) as session:
        test_set = session.scalar(select(StoredTestSet))
        test_set.items[0].references[0].text = "A changed reference."
        stamp_content(session, test_set)
    upload(client, token, "pelican", b"a cafe\n" * 10)
    run_queue(app)
    assert cache.misses == misses + 1
    with session_scope(settings.database_url) as session:
        assert {s.status for s in session.scalars(select(Submission))} == {"scored"}
