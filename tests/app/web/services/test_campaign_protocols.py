"""A campaign names its protocol and its cluster procedure: set at import, stated in results,
the API's table and the exports, carried by bundles; Likert and pairwise campaigns imported,
analysed and tabled through their protocol, with agreement; a bundle with one campaign of
each protocol, and an automatic judge beside the Likert one, round-trips identically, the
judge's comparison computed again by the imported campaign's analysis."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Challenge, JudgeRun, Submission, System
from app.data.storage import storage_for
from app.web.errors import DomainError
from app.web.services.access import ORGANISERS
from app.web.services.bundle_campaigns import SETTINGS
from app.web.services.bundle_format import SECTIONS
from app.web.services.bundles import Bundle, export_bundle, import_bundle
from app.web.services.campaigns import get_campaign
from app.web.services.human_exports import human_csv, human_latex
from app.web.services.human_import import import_judgements
from app.web.services.human_judges import import_judge
from app.web.services.human_results import analyse, campaign_table, table_json
from app.web.services.tracks import get_track
from tests.conftest import make_app, make_settings
from tests.support.factories import scored_system
from tests.support.human import human_board
from worker.human import analyse_campaign

DA = "item,system,team,annotator,criterion,score\n" + "".join(
    f"{n},primary,{team},r{k},fluency,{score + n + k}\n"
    for n in range(8)
    for k in range(2)
    for team, score in (("A", 80), ("B", 40))
)
LIKERT = "item,system,team,annotator,criterion,score,subset\n" + "".join(
    f"{n},primary,{team},r{k},{criterion},{point},{'seen' if n < 4 else 'unseen'}\n"
    for n in range(8)
    for k in range(2)
    for criterion in ("semantics", "fluency")
    for team, point in (("A", 3 if n % 4 else 2), ("B", 1))
)
PAIRWISE = "item,system_a,team_a,system_b,team_b,winner,annotator\n" + "".join(
    f"{n},primary,A,primary,B,{'a' if (n + k) % 5 else 'tie'},r{k}\n"
    for n in range(8)
    for k in range(2)
)
ROSE = "item,system,team,annotator,criterion,score\n" + "".join(
    f"{n},primary,{team},r0,{dimension},{int(team == 'A' or n % 2)}\n"
    for n in range(4)
    for team in ("A", "B")
    for dimension in ("semantics", "grammaticality", "phenomenon")
)
RANKME = "item,system,team,annotator,criterion,score,unit\n" + "".join(
    f"{n},primary,{team},r0,quality,{score},u{n}\n"
    for n in range(6)
    for team, score in (("A", 90 - n), ("B", 30 + n))
)
JUDGE = "item,system,team,annotator,criterion,score\n" + "".join(
    f"{n},primary,{team},judge,fluency,{point + (n % 3) / 2}\n"
    for n in range(8)
    for team, point in (("A", 3), ("B", 1))
)
"""A judge of the Likert campaign's fluency, its means between the scale's points."""
SPEC = {
    "model": "example-judge-7b",
    "prompt_sha256": "b" * 64,
    "decoding": {"temperature": 0, "top_p": 0.9},
    "date": "2024-05-01",
}
LIKERT_OPTIONS = {"criteria": "semantics 1-3; fluency 1-5", "aggregate": "median"}
CAMPAIGNS = (  # name, protocol, criterion, file, cluster procedure asked, options
    ("fluency-da", "da", "fluency", DA, "webnlg2020", None),
    ("likert", "likert", "fluency", LIKERT, None, LIKERT_OPTIONS),
    ("preference", "pairwise", "preference", PAIRWISE, None, {"ties": "drop"}),
    ("rose", "rose", "rose", ROSE, None, None),
    ("quality", "rankme", "quality", RANKME, None, None),
)


def _import(session, track, name, method, criterion, text, clusters, ids, options=None):
    mapping = {"A / primary": ids["A"], "B / primary": ids["B"]}
    campaign = import_judgements(session, track, name, method, criterion, text.encode(),
                                 f"{name}.csv", mapping, clusters=clusters,
                                 options=options)  # fmt: skip
    return campaign


@pytest.fixture
def board(app, settings):
    human_board(settings)
    with session_scope(settings.database_url) as session:
        for team in ("A", "B"):
            scored_system(session, "demo", "main", "primary", {"BLEU": 0.2}, team=team)
        track = get_track(session, "demo", "main")
        ids = {s.team.name: s.id for s in session.scalars(select(System)) if s.team}
        for name, method, criterion, text, clusters, options in CAMPAIGNS:
            campaign = _import(
                session, track, name, method, criterion, text, clusters, ids, options
            )
            if method == "likert":
                import_judge(session, campaign, "j7b", JUDGE.encode(), "judge.csv",
                             json.dumps(SPEC).encode(), "spec.json")  # fmt: skip
            analyse(session, campaign)
            campaign.is_published = True
        stored = storage_for(settings).put(b"an output\n")
        for submission in session.scalars(select(Submission)):
            submission.file_sha256 = stored
    return settings


def test_the_campaigns_cluster_procedure_is_its_own_and_stated_in_results_api_and_exports(board):
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        da = get_campaign(session, track, "fluency-da")
        assert da.clusters == "webnlg2020" and da.results["clusters"] == "webnlg2020"
        assert get_campaign(session, track, "likert").clusters == "wmt"
        assert get_campaign(session, track, "preference").clusters == "rank-ranges"
        assert get_campaign(session, track, "quality").clusters == "trueskill"
        table = campaign_table(session, da, ORGANISERS)
        assert table is not None
        found = table_json(table)
        assert found["clusters"] == "webnlg2020"
        assert found["agreement"]["level"] == "interval"
        assert "krippendorff_alpha" in found["agreement"]
        csv_text = human_csv(table)
        header, first = csv_text.splitlines()[:2]
        assert "clusters,options,krippendorff_alpha,agreement_level" in header
        assert ",webnlg2020,," in first and ",interval," in first
        assert "significance clusters: webnlg2020" in human_latex(table)


def test_a_campaigns_protocol_options_are_kept_analysed_by_and_stated_everywhere(board):
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        likert = get_campaign(session, track, "likert")
        assert likert.options == {
            "criteria": [
                {"name": "semantics", "scale": "1-3", "direction": "higher"},
                {"name": "fluency", "scale": "1-5", "direction": "higher"},
            ],
            "aggregate": "median",
        }
        assert likert.results["options"] == likert.options
        assert likert.results["criteria"]["fluency"]["scale"] == "1-5"
        assert likert.results["criteria"]["fluency"]["aggregate"] == "median"
        said = "semantics 1-3, fluency 1-5; an output's score: the median of its judges"
        table = campaign_table(session, likert, ORGANISERS)
        assert table is not None
        assert table_json(table)["options_text"] == said
        assert table_json(table)["options"] == likert.options
        assert said in human_csv(table).splitlines()[1] and f"% {said}" in human_latex(table)
        pairwise = get_campaign(session, track, "preference")
        assert pairwise.options == {"ties": "drop"} and pairwise.results["ties"] == "drop"
        assert pairwise.results["systems"][0]["comparisons"] < 16, "ties left out"


@pytest.mark.parametrize(
    ("method", "criterion", "text", "options", "says"),
    [
        ("likert", "fluency", LIKERT, {"criteria": "fluency 1-5 best"}, "give LOW-HIGH"),
        ("likert", "fluency", LIKERT, {"ties": "drop"}, "takes criteria and aggregate"),
        ("da", "fluency", DA, {"aggregate": "median"}, "takes no options"),
    ],
)
def test_bad_options_are_refused_and_nothing_stored(board, method, criterion, text, options, says):
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        ids = {s.team.name: s.id for s in session.scalars(select(System)) if s.team}
        with pytest.raises(DomainError, match=says):
            _import(session, track, "other", method, criterion, text, None, ids, options)
        session.rollback()
        with pytest.raises(DomainError, match="no human evaluation 'other'"):
            get_campaign(session, track, "other")


def test_a_procedure_the_protocol_does_not_allow_is_refused_and_nothing_stored(board):
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        ids = {s.team.name: s.id for s in session.scalars(select(System)) if s.team}
        with pytest.raises(DomainError, match="wmt, webnlg2020"):
            _import(session, track, "other", "da", "fluency", DA, "trueskill", ids)


def test_likert_and_pairwise_are_tabled_as_their_protocol_prints_them_with_agreement(board):
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        likert = campaign_table(session, get_campaign(session, track, "likert"), ORGANISERS)
        pairwise = campaign_table(session, get_campaign(session, track, "preference"), ORGANISERS)
        assert likert is not None and pairwise is not None
        assert likert.columns[:3] == ["#", "fluency", "n"]
        assert "fluency (seen)" in likert.columns and "semantics" in likert.columns
        assert [row.subject.label for row in likert.rows] == ["A / primary", "B / primary"]
        assert likert.rows[0].values[1] == "2.75" and likert.rows[0].values[2] == 8
        assert pairwise.columns[:2] == ["#", "Score"]
        assert [row.subject.label for row in pairwise.rows] == ["A / primary", "B / primary"]
        assert table_json(pairwise)["agreement"]["level"] == "nominal"
        assert table_json(likert)["agreement"]["level"] == "interval"


def _export(settings) -> dict[str, bytes]:
    with session_scope(settings.database_url) as session:
        challenge = session.scalars(select(Challenge).where(Challenge.slug == "demo")).one()
        data = export_bundle(session, storage_for(settings), challenge, False)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_bundle_with_one_campaign_of_each_protocol_round_trips_identically(board, tmp_path):
    exported = _export(board)
    campaigns = yaml.safe_load(exported["challenge.yaml"])["campaigns"]
    assert [(c["method"], c["clusters"]) for c in campaigns] == [
        ("da", "webnlg2020"), ("likert", "wmt"), ("pairwise", "rank-ranges"), ("rose", "none"),
        ("rankme", "trueskill"),
    ]  # fmt: skip
    assert campaigns[1]["judges"] == [
        {"name": "j7b", "spec": SPEC, "filename": "judge.csv", "scores": "human/main/2.judge-1.csv"}
    ]
    assert [c.get("judges") for n, c in enumerate(campaigns) if n != 1] == [None] * 4
    lines = exported["human/main/2.judge-1.csv"].decode().splitlines()
    assert lines[:3] == [
        "item,subject,team,system,judged_as,criterion,score",
        "0,system,A,primary,A / primary,fluency,3.0",
        "0,system,B,primary,B / primary,fluency,1.0",
    ]
    other = make_settings(tmp_path / "other")
    app = make_app(other, WTF_CSRF_ENABLED=False)
    with session_scope(other.database_url) as session:
        report = import_bundle(session, app.extensions["nlgboard.queue"], storage_for(other),
                               Bundle(dict(exported)))  # fmt: skip
    assert [analyse_campaign(i, other) for i in report.analyses] == ["done"] * 5
    assert _export(other) == exported
    with session_scope(board.database_url) as session, session_scope(other.database_url) as again:
        for name, *_ in CAMPAIGNS:
            first = get_campaign(session, get_track(session, "demo", "main"), name)
            second = get_campaign(again, get_track(again, "demo", "main"), name)
            assert second.clusters == first.clusters
            assert second.results["agreement"] == first.results["agreement"]
            if first.method != "rankme":  # TrueSkill's runs are random; its table is not
                assert _rows(second.results) == _rows(first.results)
        judged = [session.scalars(select(JudgeRun)).one(), again.scalars(select(JudgeRun)).one()]
        assert judged[1].comparison_error is None and judged[1].comparison is not None
        assert _compared(judged[1].comparison) == _compared(judged[0].comparison)


def _compared(comparison: dict) -> dict:
    """A judge's comparison without its subject keys (system ids differ between boards)."""
    return {**comparison, "systems": _rows(comparison)}


def _rows(results: dict) -> list[dict]:
    """Result rows without the subject keys (system ids differ between boards)."""
    rows = results.get("systems") or results.get("rows") or []
    return [{k: v for k, v in row.items() if k != "system"} for row in rows]


def test_bundle_format_page_documents_every_campaign_key():
    documented = {
        name.strip()
        for section in SECTIONS
        if section.key == "campaigns"
        for field, _ in section.fields
        for name in field.split("/")
    }
    assert set(SETTINGS) <= documented
