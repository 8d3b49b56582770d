"""A kind an organiser defined in a bundle, in a process that never built its profile: the
track builds it from its stored definition (``app/data/track_kinds.py``); the scorer's registry
is a lookup that asks no database, and no loader is installed anywhere."""

from __future__ import annotations

import io

from sqlalchemy import select

import scorer.kinds
from app.data.db import session_scope
from app.data.models import Submission, Track
from app.entry.root import score_now
from scorer.kinds import PROFILES
from tests.support.factories import participant
from tests.support.paths import DEMO_DATA

WEBNLG = DEMO_DATA / "webnlg"
TRACK = "/challenges/webnlg-plus-example/tracks/en"
OUTPUTS = (WEBNLG / "team_output.txt").read_bytes()


def _forget(name: str) -> None:
    """As a process (a worker, a web worker) that never saw this kind."""
    PROFILES.pop(name, None)


def test_a_defined_kinds_upload_job_and_page_need_no_loader(app, client, runner, settings):
    assert not hasattr(scorer.kinds, "PROFILE_LOADERS")
    assert runner.invoke(args=["challenge", "import", str(WEBNLG)]).exit_code == 0
    with session_scope(settings.database_url) as session:
        name = session.scalars(select(Track)).one().profile
    built = PROFILES[name]
    token = participant(settings, "a@x.org", team="A")
    try:
        _forget(name)
        uploaded = client.post(
            f"/api/v1{TRACK}/submissions",
            data={"file": (io.BytesIO(OUTPUTS), "out.txt"), "system": "t"},
            headers={"Authorization": f"Bearer {token}"},
            content_type="multipart/form-data",
        )
        assert uploaded.status_code == 202, uploaded.json
        _forget(name)
        assert score_now(settings, [uploaded.json["id"]]) == ["scored"]
        _forget(name)
        page = client.get(TRACK)
    finally:
        PROFILES[name] = built
    assert page.status_code == 200 and "chrF++" in page.get_data(as_text=True)
    with session_scope(settings.database_url) as session:
        scored = session.get(Submission, uploaded.json["id"])
        assert {s.metric for s in scored.scores} >= {"BLEU", "chrF++"}
