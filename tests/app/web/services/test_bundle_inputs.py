"""Every bad input in an organiser's bundle is a refusal naming the file and the line, never a
500 (issue 47): a judgement's score that is not a finite number on its method's scale, a
criterion its method does not have, JSON nested 100,000 deep; and a published campaign is
analysed by the worker, its pages saying so meanwhile, not inside the upload's request."""

from __future__ import annotations

import io
import zipfile

import pytest
import yaml
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.human_analysis import AnalysisStatus
from app.data.models import Campaign, Challenge, Role
from app.web.services.accounts import create_user
from tests.support.factories import login, run_queue, scored_system
from tests.support.paths import DEMO_DATA

HEADER = "item,subject,team,system,judged_as,annotator,criterion,score,kind,subset,unit\n"
JUDGEMENTS = "human/t/1.csv"
DEEP = "[" * 100_000 + "]" * 100_000


def _da_rows(criterion: str = "readability") -> list[str]:
    """Two systems on no board, judged by three annotators on four items: DA's tables."""
    return [
        f"{item},external,,,{system},r{annotator},{criterion},{score + item + annotator},"
        f"genuine,,{item}/r{annotator}"
        for item in range(4)
        for annotator in range(3)
        for system, score in (("alpha", 70), ("beta", 30))
    ]


def _campaign(**settings: object) -> dict:
    return {
        "track": "t", "name": "fluency", "method": "da", "criterion": "readability",
        "language": "en", "quality_control": "none", "show_input": False,
        "show_reference": False, "hit_size": 1, "annotators_per_hit": 1, "published": True,
        "imported": {"file": "da.csv"}, "judgements": JUDGEMENTS, **settings,
    }  # fmt: skip


def _zip(definition: dict | None = None, rows: list[str] | None = None, **files: bytes) -> bytes:
    """A bundle with one E2E track (the demo references), one DA campaign and ``files``."""
    base = {
        "format": 1,
        "challenge": {"slug": "b", "title": "B"},
        "tracks": [
            {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "references": "r.csv"}]}
        ],
        "campaigns": [_campaign()],
    }
    base.update(definition or {})
    contents = {
        "challenge.yaml": yaml.safe_dump(base).encode(),
        "r.csv": (DEMO_DATA / "references.csv").read_bytes(),
        JUDGEMENTS: (HEADER + "\n".join(_da_rows() if rows is None else rows) + "\n").encode(),
        **files,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in contents.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def organiser_client(app, client, settings):
    with session_scope(settings.database_url) as session:
        create_user(session, "org@x.org", "password123", Role.ORGANISER)
    login(client, "org@x.org")
    return client


def _post(client, data: bytes) -> str:
    page = client.post(
        "/organise/bundle",
        data={"bundle-bundle": (io.BytesIO(data), "b.zip")},
        follow_redirects=True,
    )
    assert page.status_code == 200, page.text[:2000]
    return page.text.replace("&#39;", "'").replace("&#34;", '"')


def _refused(client, settings, data: bytes) -> str:
    text = _post(client, data)
    assert "Bundle refused, nothing stored" in text, text[:3000]
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count(Challenge.id))) == 0
    return text


# --- 1. a judgement's score: a finite number on its method's scale -----------------------------


@pytest.mark.parametrize("score", ["nan", "NaN", "inf", "-inf", "1e308", "101", "-1"])
def test_a_da_score_that_is_not_a_finite_number_from_0_to_100_is_refused_naming_its_line(
    organiser_client, settings, score
):
    rows = _da_rows()
    cells = rows[2].split(",")
    cells[7] = score
    rows[2] = ",".join(cells)
    text = _refused(organiser_client, settings, _zip(rows=rows))
    assert f"{JUDGEMENTS} line 4: score '{score}'" in text


def test_a_rose_answer_that_is_not_yes_or_no_is_refused_naming_its_line(organiser_client, settings):
    rows = [
        f"1,external,,,alpha,r1,{dimension},{answer},genuine,,1/r1"
        for dimension, answer in (("semantics", "1"), ("grammaticality", "0.5"))
    ]
    campaign = _campaign(method="rose", criterion="rose")
    text = _refused(organiser_client, settings, _zip({"campaigns": [campaign]}, rows=rows))
    assert f"{JUDGEMENTS} line 3: score '0.5': a ROSE answer is 0 or 1" in text


def test_rankme_scores_imported_outside_0_to_100_are_kept_as_the_e2e_file_gave_them(
    organiser_client, settings
):
    """The E2E quality file's 111111 is a score (only the order counts); NaN never is."""
    rows = [
        f"1,external,,,{system},w1,quality,{score},genuine,,u1"
        for system, score in (("alpha", "111111"), ("beta", "40"), ("gamma", "1e308"))
    ]
    campaign = _campaign(method="rankme", criterion="quality", published=False)
    text = _post(organiser_client, _zip({"campaigns": [campaign]}, rows=rows))
    assert "Imported challenge b" in text
    nan = [*rows[:2], "1,external,,,gamma,w1,quality,nan,genuine,,u1"]
    again = _zip({"campaigns": [campaign], "challenge": {"slug": "c", "title": "C"}}, rows=nan)
    text = _post(organiser_client, again)
    assert f"{JUDGEMENTS} line 4: score 'nan' is not a finite number" in text


def test_a_judgement_scored_twice_or_with_a_missing_cell_is_refused_not_left_to_the_database(
    organiser_client, settings
):
    rows = _da_rows()
    text = _refused(organiser_client, settings, _zip(rows=[*rows, rows[0]]))
    assert f"{JUDGEMENTS} line {len(rows) + 2}: annotator 'r0' scores 'alpha'" in text
    assert "again (first on line 2)" in text
    text = _refused(organiser_client, settings, _zip(rows=[rows[0], "1,external,,,beta,r1"]))
    assert f"{JUDGEMENTS} line 3: expected the header's 11 columns" in text
    long = rows[0].replace(",r0,", f",{'r' * 101},")
    text = _refused(organiser_client, settings, _zip(rows=[long]))
    assert f"{JUDGEMENTS} line 2: annotator is longer than 100 characters" in text


# --- 2. a campaign's criterion is one of its method's --------------------------------------------


def test_a_campaign_collected_on_a_board_with_another_methods_criterion_is_refused(
    organiser_client, settings
):
    campaign = _campaign(criterion="quality", imported=None)
    text = _refused(
        organiser_client, settings, _zip({"campaigns": [campaign]}, rows=_da_rows("quality"))
    )
    assert "campaigns[0].criterion: 'quality' is not a criterion of da" in text
    assert "meaning-similarity, readability" in text


def test_judgements_of_another_criterion_than_their_da_campaigns_are_refused_naming_the_line(
    organiser_client, settings
):
    rows = _da_rows()
    rows[3] = rows[3].replace(",readability,", ",fluency,")
    text = _refused(organiser_client, settings, _zip(rows=rows))
    assert f"{JUDGEMENTS} line 5: criterion 'fluency' is not the campaign's 'readability'" in text


# --- 3. JSON nested 100,000 deep ------------------------------------------------------------------


def test_an_items_file_nested_100000_deep_is_refused_naming_the_file_and_line(
    organiser_client, settings
):
    items = b'{"input": "a", "references": ["b"]}\n{"input": ' + DEEP.encode() + b"}\n"
    track = {"slug": "t", "kind": "e2e", "test_sets": [{"language": "en", "items": "i.jsonl"}]}
    bundle = _zip({"tracks": [track], "campaigns": []}, **{"i.jsonl": items})
    text = _refused(organiser_client, settings, bundle)
    assert "i.jsonl, line 2: nests arrays and objects more than 100 deep" in text


@pytest.mark.parametrize(
    ("reader", "references", "line"),
    [
        ({"name": "jsonl"}, b'{"input": "a", "references": ["b"]}\n{"input": "c", "x": ' + DEEP.encode() + b"}\n", 2),
        ({"name": "json-lists"}, b'[["b"],\n ' + DEEP.encode() + b"]\n", 2),
    ],
    ids=["jsonl", "json-lists"],
)  # fmt: skip
def test_a_references_file_nested_100000_deep_is_refused_naming_the_file_and_line(
    organiser_client, settings, reader, references, line
):
    kind = {"name": "mine", "reader": reader, "metrics": ["BLEU"]}
    test_set = {"language": "en", "references": "r.refs"}
    if reader["name"] == "json-lists":
        test_set["inputs"] = "in.txt"
    track = {"slug": "t", "kind": "mine", "test_sets": [test_set]}
    bundle = _zip(
        {"kinds": [kind], "tracks": [track], "campaigns": []},
        **{"r.refs": references, "in.txt": b"a\nc\n"},
    )
    text = _refused(organiser_client, settings, bundle)
    assert f"r.refs, line {line}: nests arrays and objects more than 100 deep" in text


# --- 4. a published campaign is analysed by the worker -------------------------------------------


def test_a_published_campaign_is_analysed_by_the_worker_its_pages_saying_pending_meanwhile(
    app, organiser_client, settings
):
    text = _post(organiser_client, _zip())
    assert "1 published human evaluation(s) queued for analysis" in text
    with session_scope(settings.database_url) as session:
        campaign = session.scalars(select(Campaign)).one()
        assert campaign.analysis == AnalysisStatus.PENDING and campaign.results is None
    with session_scope(settings.database_url) as session:  # a public track with a table
        session.scalars(select(Challenge)).one().tracks[0].is_published = True
        scored_system(session, "b", "t", "primary", {"BLEU": 0.2}, team="A")
    page = organiser_client.get("/challenges/b/tracks/t/human/fluency").text
    assert "being computed" in page
    assert "being computed" in app.test_client().get("/challenges/b/tracks/t").text
    run_queue(app)
    with session_scope(settings.database_url) as session:
        campaign = session.scalars(select(Campaign)).one()
        assert campaign.analysis == AnalysisStatus.DONE
        assert [row["name"] for row in campaign.results["systems"]] == ["alpha", "beta"]
    page = organiser_client.get("/challenges/b/tracks/t/human/fluency").text
    assert "being computed" not in page and "<td>alpha</td>" in page
    public = app.test_client().get("/challenges/b/tracks/t").text
    assert "being computed" not in public and "<td>alpha</td>" in public


def test_the_cli_on_the_embedded_default_analyses_a_published_campaign_at_once(
    runner, settings, tmp_path
):
    """Nobody else would run the job there, as nobody else would score the submissions."""
    path = tmp_path / "b.zip"
    path.write_bytes(_zip())
    result = runner.invoke(args=["challenge", "import", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 published human evaluation(s) queued for analysis" in result.output
    assert "human evaluations: done" in result.output
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Campaign)).one().analysis == AnalysisStatus.DONE
