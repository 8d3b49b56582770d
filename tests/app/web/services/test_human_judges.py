"""An automatic judge beside the humans (issue 48, item 6): imported through the form and the
CLI with its spec, stored apart from the humans' judgements (their results are identical with
and without it), its comparison the scorer's ``compare`` on the same data, shown only where the
campaign's results are, and every bad input refused naming file and line."""

from __future__ import annotations

import io
import json

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.human_analysis import campaign_results
from app.data.models import AuditEvent, Campaign, Judgement, JudgeRun, JudgeScore, System
from app.web.services.human_import import import_judgements
from app.web.services.human_judges import import_judge_by
from app.web.services.human_results import analyse
from app.web.services.tracks import get_track
from scorer.errors import Refused
from scorer.human.judge import JudgeSpec, compare
from scorer.human.judgements import Judgement as Read
from tests.support.factories import login
from tests.support.human import human_board

TRACK = "/challenges/demo/tracks/main"
API = "/api/v1/challenges/demo/tracks/main/human"
HUMANS = {"alpha": (5, 4, 5), "beta": (3, 4, 3), "gamma": (1, 2, 2)}
"""Per system, three annotators' Likert points, shifted by item."""
JUDGE = {"alpha": 4.5, "beta": 3.0, "gamma": 2.5}
SPEC = {
    "model": "example-judge-7b",
    "prompt_sha256": "a" * 64,
    "decoding": {"temperature": 0, "max_tokens": 8},
    "date": "2024-05-01",
}


def humans_csv() -> bytes:
    lines = ["item,system,annotator,criterion,score"]
    for item in range(4):
        for system, points in HUMANS.items():
            for number, point in enumerate(points):
                score = min(5, max(1, point + (item % 2 if number == 0 else 0)))
                lines.append(f"i{item},{system},ann{number},overall,{score}")
    return ("\n".join(lines) + "\n").encode()


def judge_csv(judge: dict[str, float] = JUDGE, items: range = range(4)) -> bytes:
    lines = ["item,system,annotator,criterion,score"]
    for item in items:
        for system, score in judge.items():
            lines.append(f"i{item},{system},judge,overall,{score + (item % 3) * 0.5}")
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def board(app, settings, tmp_path):
    """A closed, unpublished Likert campaign "fluency" imported for alpha, beta and gamma."""
    human_board(settings)
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        ids = {s.name: s.id for s in session.scalars(select(System))}
        mapping = {name: ids[name] for name in HUMANS}
        import_judgements(session, track, "fluency", "likert", "overall", humans_csv(),
                          "humans.csv", mapping)  # fmt: skip
        analyse(session, session.scalar(select(Campaign)))
        session.commit()
    scores, spec = tmp_path / "judge.csv", tmp_path / "spec.json"
    scores.write_bytes(judge_csv())
    spec.write_text(json.dumps(SPEC))
    return ids, scores, spec


def cli_judge(app, scores, spec, name="j7b", campaign="fluency"):
    return app.test_cli_runner().invoke(
        args=["human", "judge", "demo", "main", campaign, "--name", name,
              "--scores", str(scores), "--spec", str(spec)]
    )  # fmt: skip


def as_subjects(data: bytes, ids: dict[str, int], annotator: str | None = None) -> list[Read]:
    rows = [line.split(",") for line in data.decode().splitlines()[1:]]
    return [
        Read(item, f"system:{ids[system]}", annotator or who, criterion, float(score))
        for item, system, who, criterion, score in rows
    ]


def counts(settings) -> tuple[int, int, int]:
    with session_scope(settings.database_url) as session:
        return tuple(
            session.scalar(select(func.count()).select_from(table))
            for table in (JudgeRun, JudgeScore, Judgement)
        )


def test_the_cli_stores_the_comparison_compare_gives_on_the_same_data(app, settings, board):
    ids, scores, spec = board
    result = cli_judge(app, scores, spec)
    assert result.exit_code == 0, result.output
    assert "judge j7b imported into fluency: 3 systems; system-level Pearson" in result.output
    expected = compare(
        as_subjects(humans_csv(), ids), as_subjects(judge_csv(), ids, "judge"),
        JudgeSpec.parse(SPEC, "spec.json"), "overall",
    ).to_dict()  # fmt: skip
    with session_scope(settings.database_url) as session:
        run = session.scalar(select(JudgeRun))
        assert run.comparison == expected and run.spec == SPEC and run.name == "j7b"
        event = session.scalar(select(AuditEvent).where(AuditEvent.action == "human judge import"))
        assert event.target == "main/fluency/j7b" and event.details["spec"] == SPEC
    assert counts(settings) == (1, 12, 36)


def test_the_humans_results_are_identical_with_and_without_a_judge(app, settings, board):
    _, scores, spec = board
    with session_scope(settings.database_url) as session:
        before = campaign_results(session, session.scalar(select(Campaign)))
    assert cli_judge(app, scores, spec).exit_code == 0
    with session_scope(settings.database_url) as session:
        campaign = session.scalar(select(Campaign))
        assert campaign_results(session, campaign) == before
        stored = json.dumps(campaign.results, sort_keys=True)
        analyse(session, campaign)  # re-analysis compares the judge again, humans unchanged
        session.commit()
        assert json.dumps(campaign.results, sort_keys=True) == stored
        assert session.scalar(select(JudgeRun)).comparison is not None


def test_the_form_imports_and_the_judge_shows_only_once_the_campaign_is_published(
    app, settings, board
):
    _, scores, spec = board
    staff = app.test_client()
    login(staff, "org@x.org")
    page = staff.get(f"{TRACK}/human/fluency").get_data(as_text=True)
    assert "The board calls no model" in page
    response = staff.post(
        f"{TRACK}/human/fluency/judges",
        data={
            "judge-name": "j7b",
            "judge-scores": (io.BytesIO(scores.read_bytes()), "judge.csv"),
            "judge-spec": (io.BytesIO(spec.read_bytes()), "spec.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    page = staff.get(f"{TRACK}/human/fluency").get_data(as_text=True)
    assert "example-judge-7b" in page and "<td>A / alpha</td>" in page
    public = app.test_client()
    assert public.get(API).get_json()["campaigns"] == []
    assert "example-judge-7b" not in public.get(TRACK).get_data(as_text=True)
    assert staff.post(f"{TRACK}/human/fluency/publish").status_code == 302
    found = public.get(API).get_json()["campaigns"][0]["judges"]
    assert [judge["name"] for judge in found] == ["j7b"]
    assert found[0]["judge"] == SPEC
    assert [row["label"] for row in found[0]["systems"]] == ["A / alpha", "B / beta", "C / gamma"]
    assert set(found[0]["system_level"]) == {"pearson", "spearman"}
    assert set(found[0]["agreement"]) == {"humans", "humans_and_judge"}
    assert "example-judge-7b" in public.get(TRACK).get_data(as_text=True)
    assert staff.post(f"{TRACK}/human/fluency/publish").status_code == 302  # unpublished again
    assert public.get(API).get_json()["campaigns"] == []


@pytest.mark.parametrize(
    ("scores", "spec", "says"),
    [
        (judge_csv(), b'{"model": "m",\n "date": }', "spec.json, line 2: not JSON"),
        (judge_csv(), json.dumps({**SPEC, "date": "May"}).encode(), "date as YYYY-MM-DD"),
        (judge_csv(), json.dumps({"model": "m"}).encode(), "missing: prompt_sha256"),
        (judge_csv({"alpha": 4, "zeta": 3}), None,
         "judge.csv: system 'zeta' (unmatched, lines 3, 5, 7, 9) is no system of campaign"),
        (b"item,system,annotator,criterion,score\ni0,alpha,judge,overall,high\n", None,
         "judge.csv, line 2"),
        (judge_csv(items=range(7, 9)), None,
         "judge.csv: the judge scored none of the outputs the humans scored"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_naming_file_and_line_and_stores_nothing(
    app, settings, board, scores, spec, says
):
    with session_scope(settings.database_url) as session:
        campaign = session.scalar(select(Campaign))
        with pytest.raises(Refused) as refused:
            import_judge_by(session, None, campaign, "j", scores, "judge.csv",
                            spec or json.dumps(SPEC).encode(), "spec.json")  # fmt: skip
    assert says in str(refused.value)
    assert counts(settings) == (0, 0, 36)
    staff = app.test_client()
    login(staff, "org@x.org")
    response = staff.post(
        f"{TRACK}/human/fluency/judges",
        data={
            "judge-name": "j",
            "judge-scores": (io.BytesIO(scores), "judge.csv"),
            "judge-spec": (io.BytesIO(spec or json.dumps(SPEC).encode()), "spec.json"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 400 and "Nothing was stored" in response.get_data(as_text=True)


def test_a_pairwise_campaign_refuses_a_judge_saying_why(app, settings, board):
    _, scores, spec = board
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        ids = {s.name: s.id for s in session.scalars(select(System))}
        pairs = b"item,system_a,system_b,winner,annotator\ni0,alpha,beta,a,ann0\n"
        import_judgements(session, track, "prefs", "pairwise", "preference", pairs, "p.csv",
                          {"alpha": ids["alpha"], "beta": ids["beta"]})  # fmt: skip
        session.commit()
    result = cli_judge(app, scores, spec, campaign="prefs")
    assert result.exit_code == 1
    assert "judgements are not scores of one output" in result.output
    assert counts(settings)[:2] == (0, 0)
