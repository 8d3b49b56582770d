"""WebNLG tracks in the app: imported from the official XML files, uploads through the API, and
the leaderboard's all / seen / unseen figures equal to ``nlg-score --profile webnlg2017``."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import ItemSubset, Track
from scorer.cli.score import main as nlg_score
from tests.support.factories import organiser, participant, run_queue
from tests.support.paths import DEMO_DATA

WEBNLG = DEMO_DATA / "webnlg"
API = "/api/v1/challenges/webnlg/tracks/test"


@pytest.fixture
def webnlg_track(runner):
    assert runner.invoke(args=["challenge", "create", "webnlg", "--title", "WebNLG"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "webnlg", "test", "--kind", "webnlg",
              "--inputs", str(WEBNLG / "test_no_lex.xml"),
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.output


def test_the_official_files_make_a_track_with_seen_and_unseen_items(webnlg_track, settings):
    assert "6 items, 16 references" in webnlg_track  # the first 3 of each entry score
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        assert (track.kind, track.profile, track.daily_limit) == ("webnlg", "webnlg2017", 5)
        names = [s.name for s in session.scalars(select(ItemSubset).order_by(ItemSubset.id))]
    assert names == ["seen", "seen", "seen", "unseen", "unseen", "unseen"]


def test_an_upload_scores_as_nlg_score_does_for_all_seen_and_unseen(
    app, client, settings, webnlg_track
):
    token = participant(settings, "a@x.org", team="A")
    upload = {"file": (io.BytesIO((WEBNLG / "team_output.txt").read_bytes()), "out.txt"),
              "system": "triples2text"}  # fmt: skip
    response = client.post(
        f"{API}/submissions", data=upload, headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 202, response.json
    run_queue(app)
    offline = CliRunner().invoke(
        nlg_score,
        ["--profile", "webnlg2017", "--refs", str(WEBNLG / "test" / "test_with_lex.xml"),
         "--hyp", str(WEBNLG / "team_output.txt"), "--json"],
    )  # fmt: skip
    expected = json.loads(offline.output)
    org = organiser(settings, "org@x.org", "webnlg")
    board = client.get(f"{API}/leaderboard", headers={"Authorization": f"Bearer {org}"}).json
    (row,) = board["rows"]
    for metric in ("BLEU", "METEOR", "TER"):
        assert row["scores"][metric] == pytest.approx(expected[metric], abs=1e-12), metric
        for subset in ("seen", "unseen"):
            got = row["subsets"][subset][metric]
            assert got == pytest.approx(expected["subsets"][subset][metric], abs=1e-12)
    assert board["subsets"] == {
        "seen": {"items": 3, "paired_with_originals": 0},
        "unseen": {"items": 3, "paired_with_originals": 0},
    }


def test_inputs_that_are_not_the_references_entries_are_refused(runner, tmp_path):
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    inputs = (WEBNLG / "test_no_lex.xml").read_text().replace("Plum_Dumpling", "Pear_Tart")
    (tmp_path / "in.xml").write_text(inputs)
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg", "--inputs", str(tmp_path / "in.xml"),
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml")]
    )  # fmt: skip
    assert result.exit_code != 0
    assert "in.xml: input 2 is not item 2 of test_with_lex.xml" in result.output


def test_a_line_short_is_refused_at_upload(client, settings, webnlg_track):
    token = participant(settings, "a@x.org", team="A")
    short = b"\n".join((WEBNLG / "team_output.txt").read_bytes().splitlines()[:5]) + b"\n"
    response = client.post(
        f"{API}/submissions", data={"file": (io.BytesIO(short), "out.txt"), "system": "s"},
        headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 400
    assert (
        "expected 6 lines (one output per test entry, in eid order), found 5"
        in (response.json["error"])
    )


def test_a_training_file_says_which_categories_are_seen(runner, settings, tmp_path):
    """Another edition's split: the categories of its training file are the seen ones, and
    everything else scores as the 2017 kind does."""
    train = (WEBNLG / "test" / "test_with_lex.xml").read_text()
    (tmp_path / "train.xml").write_text(train.replace('category="Food"', 'category="Elsewhere"'))
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg",
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml"), "--train", str(tmp_path / "train.xml")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "seen categories from train.xml" in result.output
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        assert track.kind == "webnlg2017-split" and track.profile.startswith("webnlg2017-split@")
        seen = track.kind_definition["reader"]["seen_categories"]
        items = track.test_sets[0].items
        subsets = {i.input_text.split(" | ")[0]: i.subsets[0].name for i in items}
    assert "Food" not in seen and "Elsewhere" in seen
    assert len(set(subsets.values())) == 2


def test_a_training_file_is_refused_for_a_kind_that_reads_none(runner, tmp_path):
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "e2e",
              "--refs", str(DEMO_DATA / "references.csv"),
              "--train", str(DEMO_DATA / "references.csv")]
    )  # fmt: skip
    assert result.exit_code != 0
    assert "kind e2e takes no training file" in result.output


def _release_folder(folder, xml: str, categories: dict[str, str]) -> None:
    """``xml`` split as the releases split a set: a size folder, one file per category (each
    entry's category renamed as ``categories`` says), ids from Id1 in each file."""
    import re

    entries = re.findall(r"<entry .*?</entry>", xml, flags=re.DOTALL)
    (folder / "1triples").mkdir(parents=True)
    for old, new in categories.items():
        chosen = [e.replace(f'category="{old}"', f'category="{new}"') for e in entries
                  if f'category="{old}"' in e]  # fmt: skip
        renumbered = [re.sub(r'eid="Id\d+"', f'eid="Id{n}"', e, count=1)
                      for n, e in enumerate(chosen, 1)]  # fmt: skip
        body = "".join(renumbered)
        (folder / "1triples" / f"1triple_{new}.xml").write_text(
            f'<?xml version="1.0"?><benchmark><entries>{body}</entries></benchmark>'
        )


def test_a_training_folder_as_released_says_which_categories_are_seen(runner, settings, tmp_path):
    """``--train DIR``: the release's train folder (one XML file per size and category) reads as
    one training set; its categories are the seen ones."""
    xml = (WEBNLG / "test" / "test_with_lex.xml").read_text()
    _release_folder(tmp_path / "train", xml, {"Airport": "Airport", "Food": "Elsewhere"})
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg",
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml"), "--train", str(tmp_path / "train")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 seen categories from train/" in result.output
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        assert track.kind_definition["reader"]["seen_categories"] == ["Airport", "Elsewhere"]


def test_the_2017_train_folder_gives_the_2017_split(runner, settings):
    from tests.support.paths import shared_file
    from tests.support.webnlg_cases import WEBNLG_2017

    train = shared_file(WEBNLG_2017 / "train")
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "webnlg",
              "--refs", str(WEBNLG / "test" / "test_with_lex.xml"), "--train", str(train)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "10 seen categories from train/" in result.output
    from scorer.io.webnlg import SEEN_CATEGORIES_2017

    with session_scope(settings.database_url) as session:
        seen = session.scalars(select(Track)).one().kind_definition["reader"]["seen_categories"]
    assert seen == sorted(SEEN_CATEGORIES_2017)


def test_a_folder_for_a_kind_that_reads_one_file_is_a_clear_error(runner, tmp_path):
    assert runner.invoke(args=["challenge", "create", "w", "--title", "W"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "w", "t", "--kind", "e2e", "--refs", str(tmp_path)]
    )  # fmt: skip
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert f"Invalid value for --refs: {tmp_path} is a folder; kind e2e reads one file" in (
        result.output
    )


def test_the_compare_page_calls_no_webnlg_output_wrong_and_offers_no_filter(
    app, client, settings, webnlg_track
):
    """ "Wrong" is what the scorer found per item (slot errors); WebNLG finds nothing per item,
    and "none of its references" had marked every output wrong."""
    token = participant(settings, "a@x.org", team="A")
    outputs = (WEBNLG / "team_output.txt").read_bytes()
    for system, data in (("one", outputs), ("two", outputs.replace(b"is", b"was"))):
        answer = client.post(
            f"{API}/submissions", headers={"Authorization": f"Bearer {token}"},
            data={"file": (io.BytesIO(data), "out.txt"), "system": system},
            content_type="multipart/form-data",
        )  # fmt: skip
        assert answer.status_code == 202, answer.json
    run_queue(app)
    org = {"Authorization": f"Bearer {organiser(settings, 'org@x.org', 'webnlg')}"}
    rows = client.get(f"{API}/leaderboard", headers=org).json["rows"]
    ids = {"a": rows[0]["system_id"], "b": rows[1]["system_id"]}
    found = client.get(f"{API}/compare", query_string={**ids, "filter": "both"}, headers=org).json
    assert found["filter"] == "all" and found["items_matching"] == 6
    assert all(i["wrong_a"] is None and i["wrong_b"] is None for i in found["items"])
    client.post("/login", data={"email": "org@x.org", "password": "password123"})
    page = client.get("/challenges/webnlg/tracks/test/compare", query_string=ids).text
    assert "Item by item" in page and "both wrong" not in page and ">wrong<" not in page
