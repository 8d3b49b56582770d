"""Human-evaluation campaigns travel in challenge bundles: export, import into an empty board,
export again: the same bundle, file for file; the judgements keep their systems (by team and
name, "primary" of two teams included) and the published results come back. A campaign's
automatic judges travel with it (their subjects kept, compared again by the campaign's
analysis, shown as the campaign's results are), a bad line of their scores is refused naming
it, and a bundle written before judges were carried still imports."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Campaign, Challenge, Judgement, JudgeRun, JudgeScore, Submission, System
from app.data.storage import storage_for
from app.data.visibility import Viewer
from app.web.errors import DomainError
from app.web.services.bundle_campaigns import NOT_COMPARED
from app.web.services.bundles import Bundle, export_bundle, import_bundle
from app.web.services.campaigns import get_campaign
from app.web.services.human_import import import_judgements
from app.web.services.human_judges import import_judge, judge_views
from app.web.services.human_results import analyse
from app.web.services.tracks import get_track
from tests.conftest import make_app, make_settings
from tests.support.factories import demo_track, scored_system
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


SPEC = {
    "model": "example-judge-7b",
    "prompt_sha256": "c" * 64,
    "decoding": {"temperature": 0, "max_tokens": 8},
    "date": "2024-05-01",
}
ORGANISER = Viewer(is_organiser=True)
JUDGES = {  # campaign -> the judge's scores as the board's form takes them
    "fluency": "item,system,team,annotator,criterion,score\n"
    + "".join(
        f"{n},primary,{team},judge,fluency,{score + 2 * n}\n"
        for n in range(6)
        for team, score in (("A", 70), ("B", 50))
    ),
    "quality": "mr_id,judge,sys1,sys2,sys3,quality1,quality2,quality3\n"
    "1,j,alpha,zeta,HUMAN,120,20,99\n",
}
"""The RankME judge's file is in E2E's layout, whose values outside 0-100 the board keeps."""


@pytest.fixture
def judged(board):
    """The board with a judge beside each campaign: the published DA one's and the unpublished
    RankME one's, whose judge scored a system, an external system and the references."""
    with session_scope(board.database_url) as session:
        track = get_track(session, "demo", "main")
        for name, scores in JUDGES.items():
            import_judge(session, get_campaign(session, track, name), "j7b", scores.encode(),
                         f"{name}-judge.csv", json.dumps(SPEC).encode(), "spec.json")  # fmt: skip
    return board


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


def _comparisons(settings) -> dict[str, dict | None]:
    """Each campaign's judge comparison, without its subject keys (ids differ between boards)."""
    with session_scope(settings.database_url) as session:
        found = {}
        for run in session.scalars(select(JudgeRun)):
            comparison = run.comparison and {
                **run.comparison,
                "systems": [
                    {k: v for k, v in row.items() if k != "system"}
                    for row in run.comparison["systems"]
                ],
            }
            found[run.campaign.name] = comparison
        return found


def test_judges_round_trip_identically_compared_again_by_the_campaigns_analysis(judged, tmp_path):
    exported = _export(judged, with_submissions=False)
    campaigns = yaml.safe_load(exported["challenge.yaml"])["campaigns"]
    assert [c["judges"] for c in campaigns] == [
        [{"name": "j7b", "spec": SPEC, "filename": f"{name}-judge.csv",
          "scores": f"human/main/{number}.judge-1.csv"}]
        for number, name in ((1, "fluency"), (2, "quality"))
    ]  # fmt: skip
    assert exported["human/main/1.judge-1.csv"].decode().splitlines()[:2] == [
        "item,subject,team,system,judged_as,criterion,score",
        "0,system,A,primary,A / primary,fluency,70.0",
    ]
    assert exported["human/main/2.judge-1.csv"].decode().splitlines()[1:] == [
        "1,system,A,alpha,alpha,quality,120.0",
        "1,external,,,zeta,quality,20.0",
        "1,references,,,HUMAN,quality,99.0",
    ]
    other = make_settings(tmp_path / "other")
    _import(other, exported)  # the worker analyses the published campaign, fluency
    assert _export(other, with_submissions=False) == exported
    before, after = _comparisons(judged), _comparisons(other)
    assert after["fluency"] == before["fluency"] and after["fluency"] is not None
    assert after["quality"] is None  # unpublished: compared when its results are computed
    with session_scope(other.database_url) as session:
        track = get_track(session, "demo", "main")
        fluency, quality = (get_campaign(session, track, n) for n in ("fluency", "quality"))
        stored = {
            (s.system_name, s.is_reference, s.system_id is not None)
            for s in session.scalars(select(JudgeScore).join(JudgeRun).where(
                JudgeRun.campaign_id == quality.id))
        }  # fmt: skip
        assert stored == {("alpha", False, True), ("zeta", False, False), ("HUMAN", True, False)}
        assert [v.run.comparison_error for v in judge_views(session, quality, ORGANISER)] == [
            NOT_COMPARED
        ]
        assert judge_views(session, quality, Viewer()) == []  # the campaign's own rule
        assert [v.run.name for v in judge_views(session, fluency, Viewer())] == ["j7b"]
        analyse(session, quality)
    assert _comparisons(other)["quality"] == before["quality"] is not None


def _without_judges(files: dict[str, bytes]) -> dict[str, bytes]:
    """The bundle a board wrote before judges were carried: no ``judges`` key, no score files."""
    definition = yaml.safe_load(files["challenge.yaml"])
    for campaign in definition["campaigns"]:
        del campaign["judges"]
    old = {name: data for name, data in files.items() if ".judge-" not in name}
    old["challenge.yaml"] = yaml.safe_dump(
        definition, sort_keys=False, allow_unicode=True, width=100
    ).encode()
    return old


def test_a_bundle_written_before_judges_were_carried_still_imports(judged, tmp_path):
    exported = _export(judged, with_submissions=False)
    assert any(".judge-" in name for name in exported)  # this board's campaigns have judges
    old = _without_judges(exported)
    other = make_settings(tmp_path / "other")
    _import(other, old)
    assert _export(other, with_submissions=False) == old
    with session_scope(other.database_url) as session:
        assert session.scalars(select(JudgeRun)).first() is None
        assert session.scalars(select(Campaign)).all()


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (("human/main/1.judge-1.csv", b"A,primary,A / primary,fluency,72.0", b"A,primary,A / primary,fluency,high"),
         "human/main/1.judge-1.csv line 4: score 'high' is not a number"),
        (("human/main/1.judge-1.csv", b"A,primary,A / primary,fluency,72.0", b"A,primary,A / primary,fluency,172"),
         "human/main/1.judge-1.csv line 4: score '172' is not from 0 to 100"),
        (("human/main/1.judge-1.csv", b"1,system,B,primary", b"1,judge,B,primary"),
         "human/main/1.judge-1.csv line 5: subject 'judge' is not system, references or external"),
        (("human/main/1.judge-1.csv", b"B / primary,fluency,54.0", b"B / primary,grammar,54.0"),
         "human/main/1.judge-1.csv line 7: criterion 'grammar' is not the campaign's 'fluency'"),
        (("human/main/1.judge-1.csv", b"1,system,A,primary,A / primary,fluency,72.0",
          b"0,system,A,primary,A / primary,fluency,72.0"),
         "human/main/1.judge-1.csv line 4: the judge scores 'A / primary' on item '0' again "
         "(first on line 2)"),
        (("human/main/1.judge-1.csv", b"fluency,72.0\n", b"fluency,72.0,1\n"),
         "human/main/1.judge-1.csv line 4: expected the header's 7 columns"),
        (("human/main/1.judge-1.csv", b"2,system,A,primary,", b"2,system,A," + b"p" * 101 + b","),
         "human/main/1.judge-1.csv line 6: system is longer than 100 characters"),
        (("human/main/1.judge-1.csv", b"2,system,A,primary,", b"2,system,A, ,"),
         "human/main/1.judge-1.csv line 6: system is empty (the subject is a system)"),
        (("human/main/1.csv", b"0,system,B,primary,", b"0,system,B,,"),
         "human/main/1.csv line 3: system is empty (the subject is a system)"),
        (("human/main/1.judge-1.csv", b"score\n0,system,A", b"score\n ,system,A"),
         "human/main/1.judge-1.csv line 2: empty item"),
        (("challenge.yaml", b"date: '2024-05-01'", b"date: May"),
         "challenge.yaml: campaigns[0].judges[0].spec: judge spec: date as YYYY-MM-DD"),
        (("challenge.yaml", b"name: j7b", b"name: ' '"),
         "challenge.yaml: campaigns[0].judges[0]: a judge's name is 1-64 characters"),
        (("challenge.yaml", b"scores: human/main/1.judge-1.csv", b"scores: human/main/9.csv"),
         "challenge.yaml: campaigns[0].judges[0].scores: no file 'human/main/9.csv'"),
    ],
)  # fmt: skip
def test_a_bad_judge_is_refused_naming_its_file_and_line_and_nothing_is_stored(
    judged, tmp_path, change, says
):
    exported = _export(judged, with_submissions=False)
    path, old, new = change
    assert old in exported[path]
    exported[path] = exported[path].replace(old, new, 1)
    other = make_settings(tmp_path / "other")
    with pytest.raises(DomainError) as refused:
        _import(other, exported)
    assert says in str(refused.value)
    with session_scope(other.database_url) as session:
        assert session.scalars(select(Challenge)).first() is None
        assert session.scalars(select(JudgeRun)).first() is None


def test_a_campaigns_mapping_names_its_systems_so_another_board_maps_them_to_its_own(
    judged, tmp_path
):
    """The import's mapping (name -> system) was stored by this board's ids: carried as they
    were, another board would map a name to whatever system had that id there, and a judge
    imported there later by that name would score the wrong system."""
    exported = _export(judged, with_submissions=False)
    definition = yaml.safe_load(exported["challenge.yaml"])
    mapping = {c["name"]: c["imported"]["mapping"] for c in definition["campaigns"]}
    assert mapping["fluency"]["A / primary"] == {"team": "A", "system": "primary"}
    assert mapping["quality"]["zeta"] == "external"
    other = make_settings(tmp_path / "other")
    make_app(other)  # migrates its database
    demo_track(other, challenge="earlier")  # systems there first: other ids than here
    with session_scope(other.database_url) as session:
        for name in ("x", "y", "z", "w", "v"):
            scored_system(session, "earlier", "main", name, {"BLEU": 0.1}, team="E")
    _import(other, exported)
    assert _export(other, with_submissions=False) == exported
    with session_scope(other.database_url) as session:
        track = get_track(session, "demo", "main")
        ids = {(s.team.name, s.name): s.id for s in session.scalars(select(System)) if s.team}
        fluency = get_campaign(session, track, "fluency")
        assert fluency.imported["mapping"]["A / primary"] == str(ids[("A", "primary")])
        assert ids[("A", "primary")] != _ids(judged)[("A", "primary")]
        scores = "item,system,annotator,criterion,score\n0,A / primary,judge,fluency,70\n"
        run = import_judge(session, fluency, "later", scores.encode(), "later.csv",
                           json.dumps(SPEC).encode(), "spec.json")  # fmt: skip
        (score,) = session.scalars(select(JudgeScore).where(JudgeScore.run_id == run.id))
        assert score.system_id == ids[("A", "primary")]


def _ids(settings) -> dict[tuple[str, str], int]:
    with session_scope(settings.database_url) as session:
        return {(s.team.name, s.name): s.id for s in session.scalars(select(System)) if s.team}


def test_a_bundle_written_with_the_other_boards_ids_leaves_them_out(judged, tmp_path):
    """Bundles written before systems were named in the mapping carry the exporting board's
    ids: they are left out, and the judgements, which name their systems, map those names."""
    exported = _export(judged, with_submissions=False)
    definition = yaml.safe_load(exported["challenge.yaml"])
    for campaign in definition["campaigns"]:
        for name, target in campaign["imported"]["mapping"].items():
            if isinstance(target, dict):
                campaign["imported"]["mapping"][name] = "99"
    other = make_settings(tmp_path / "other")
    _import(other, {**exported, "challenge.yaml": yaml.safe_dump(definition).encode()})
    with session_scope(other.database_url) as session:
        fluency = get_campaign(session, get_track(session, "demo", "main"), "fluency")
        assert fluency.imported["mapping"] == {}
        scores = "item,system,annotator,criterion,score\n0,A / primary,judge,fluency,70\n"
        run = import_judge(session, fluency, "later", scores.encode(), "later.csv",
                           json.dumps(SPEC).encode(), "spec.json")  # fmt: skip
        (score,) = session.scalars(select(JudgeScore).where(JudgeScore.run_id == run.id))
        assert score.system_id == _ids(other)[("A", "primary")]
