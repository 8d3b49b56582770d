"""Human-evaluation campaigns travel in challenge bundles: export, import into an empty board,
export again: the same bundle, file for file; the judgements keep their systems (by team and
name, "primary" of two teams included) and the published results come back."""

from __future__ import annotations

import io
import zipfile

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Campaign, Challenge, Judgement, Submission, System
from app.data.storage import storage_for
from app.web.errors import DomainError
from app.web.services.bundles import Bundle, export_bundle, import_bundle
from app.web.services.campaigns import get_campaign
from app.web.services.human_import import import_judgements
from app.web.services.human_results import analyse
from app.web.services.tracks import get_track
from tests.conftest import make_app, make_settings
from tests.support.factories import scored_system
from tests.support.human import human_board
from worker.human import analyse_campaign

DA_ROWS = (
    "item,system,team,annotator,criterion,score,kind\n"
    + "".join(
        f"{n},primary,{team},r{n % 3},fluency,{score + n},genuine\n"
        for n in range(6)
        for team, score in (("A", 80), ("B", 40))
    )
    + "1,primary,A,r1,fluency,20,damaged\n"
)


@pytest.fixture
def board(app, settings):
    human_board(settings)
    with session_scope(settings.database_url) as session:
        for team in ("A", "B"):
            scored_system(session, "demo", "main", "primary", {"BLEU": 0.2}, team=team)
        track = get_track(session, "demo", "main")
        ids = {(s.team.name, s.name): s.id for s in session.scalars(select(System)) if s.team}
        mapping = {"A / primary": ids[("A", "primary")], "B / primary": ids[("B", "primary")]}
        da = import_judgements(session, track, "fluency", "da", "fluency", DA_ROWS.encode(),
                               "da.csv", mapping, quality_control="none")  # fmt: skip
        rankme = "item,system,annotator,criterion,score,unit\n1,alpha,w,quality,90,u1\n" \
            "1,zeta,w,quality,10,u1\n1,HUMAN,w,quality,95,u1\n"  # fmt: skip
        import_judgements(session, track, "quality", "rankme", "quality", rankme.encode(),
                          "q.csv", {"alpha": ids[("A", "alpha")], "zeta": "external",
                                    "HUMAN": "references"})  # fmt: skip
        analyse(session, da)
        da.is_published = True
        stored = storage_for(settings).put(b"an output\n")  # the factory's are not on disk
        for submission in session.scalars(select(Submission)):
            submission.file_sha256 = stored
    return settings


def _export(settings, with_submissions: bool) -> dict[str, bytes]:
    with session_scope(settings.database_url) as session:
        challenge = session.scalars(select(Challenge).where(Challenge.slug == "demo")).one()
        data = export_bundle(session, storage_for(settings), challenge, with_submissions)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _import(settings, files: dict[str, bytes]) -> None:
    """Import, then run the published campaigns' analyses (the worker's job; the submissions
    stay queued)."""
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    with session_scope(settings.database_url) as session:
        report = import_bundle(session, app.extensions["nlgboard.queue"], storage_for(settings),
                               Bundle(dict(files)))  # fmt: skip
    assert [analyse_campaign(i, settings) for i in report.analyses] == ["done"]


@pytest.mark.parametrize("with_submissions", [False, True])
def test_campaigns_round_trip_identically(board, tmp_path, with_submissions):
    exported = _export(board, with_submissions)
    definition = yaml.safe_load(exported["challenge.yaml"])
    assert [(c["name"], c["quality_control"], c["published"]) for c in definition["campaigns"]] \
        == [("fluency", "none", True), ("quality", "none", False)]  # fmt: skip
    lines = exported["human/main/1.csv"].decode().splitlines()
    assert (
        lines[0]
        == "item,subject,team,system,judged_as,annotator,criterion,score,kind,subset,unit,note"
    )
    assert "0,system,B,primary,B / primary,r0,fluency,40.0,genuine,,0/r0/genuine," in lines
    other = make_settings(tmp_path / "other")
    _import(other, exported)
    again = _export(other, with_submissions)
    if with_submissions:  # submission files are named by their ids on each board
        exported = {n: d for n, d in exported.items() if not n.startswith("submissions/")}
        again = {n: d for n, d in again.items() if not n.startswith("submissions/")}
        for files in (exported, again):
            files["challenge.yaml"] = yaml.safe_dump(
                yaml.safe_load(files["challenge.yaml"])["campaigns"]
            ).encode()
    assert again == exported
    with session_scope(other.database_url) as session:
        track = get_track(session, "demo", "main")
        teams = {s.id: s.team.name if s.team else None for s in session.scalars(select(System))}
        judged = {
            (teams.get(j.system_id), j.system_name, j.is_reference)
            for j in session.scalars(select(Judgement))
        }
        fluency = get_campaign(session, track, "fluency")
        assert fluency.is_published and not fluency.is_open
        assert fluency.results["annotators"]["kept"] == 3
        names = [row["name"] for row in fluency.results["systems"]]
    assert names == ["A / primary", "B / primary"]
    assert judged == {
        ("A", "A / primary", False), ("B", "B / primary", False), ("A", "alpha", False),
        (None, "zeta", False), (None, "HUMAN", True),
    }  # fmt: skip


def test_a_bad_campaign_is_refused_naming_its_line_and_nothing_is_stored(board, tmp_path):
    exported = _export(board, with_submissions=False)
    exported["human/main/1.csv"] = exported["human/main/1.csv"].replace(b",genuine,", b",real,", 1)
    other = make_settings(tmp_path / "other")
    with pytest.raises(DomainError, match=r"human/main/1.csv line 2: kind 'real'"):
        _import(other, exported)
    with session_scope(other.database_url) as session:
        assert session.scalars(select(Challenge)).first() is None
        assert session.scalars(select(Campaign)).first() is None
