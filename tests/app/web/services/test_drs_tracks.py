"""DRS tracks in the app: import per language and subset, challenge sets paired with their
originals, scores per subset, and Wang et al.'s Table 4 (Orig vs Chal) on the page and API."""

import math

import pytest
from sqlalchemy import func, select

from app.data.db import session_scope
from app.data.models import Item, ItemSubset, Score
from app.web.services.tracks import get_track
from tests.support.factories import participant, run_queue
from tests.support.paths import drs_file
from tests.support.tracks import DEMO_DRS, DRS_API, demo_drs_track, invoke, post
from tests.support.tracks import upload_drs as upload

DEMO = DEMO_DRS
API = DRS_API


def test_real_dev_sets_import_through_the_cli(runner, settings, no_bundled_runs):
    clauses = drs_file("pmb3.0.0_en_clf/gold/dev.txt")
    assert invoke(runner, "challenge", "create", "drs", "--title", "DRS").exit_code == 0
    result = invoke(
        runner, "track", "import", "drs", "pmb3", "--kind", "drs", "--language", "en",
        "--inputs", clauses, "--refs", clauses.with_suffix(".txt.raw"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "drs/pmb3 (en): 885 items, 885 references" in result.output
    sbn = drs_file("pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn")
    result = invoke(
        runner, "track", "import", "drs", "pmb5", "--kind", "drs", "--language", "en",
        "--inputs", sbn,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "drs/pmb5 (en): 1132 items, 1132 references" in result.output
    # A further PMB 5 set is appended to the same test set under its own name.
    long_set = drs_file("pmb5.0.0_en_sbn/split/dev/standard.sbn")
    result = invoke(
        runner, "track", "import", "drs", "pmb5", "--kind", "drs", "--language", "en",
        "--inputs", long_set, "--subset", "long",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "drs/pmb5 (en): 2264 items" in result.output
    with session_scope(settings.database_url) as session:
        counts = dict(
            session.execute(select(ItemSubset.name, func.count()).group_by(ItemSubset.name)).all()
        )
    assert counts == {"standard": 885 + 1132, "long": 1132}


def test_hand_made_challenge_set_from_real_dev_items_pairs_with_its_originals(
    runner, settings, tmp_path
):
    """A tense change and an added negation on dev items 1 and 3, as Wang et al. built theirs."""
    clauses = drs_file("pmb3.0.0_en_clf/gold/dev.txt")
    blocks = [b for b in clauses.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    changed = [
        blocks[0].replace('b2 TPR t1 "now"', 'b2 EQU t1 "now"'),
        blocks[2].replace('b2 EQU t1 "now"', 'b2 TPR t1 "now"'),
    ]
    assert changed[0] != blocks[0] and changed[1] != blocks[2]
    (tmp_path / "test-tense.txt").write_text("\n\n".join(changed) + "\n", encoding="utf-8")
    (tmp_path / "test-tense.txt.raw").write_text(
        "Tom is carrying a bucket of water.\nMr Smith taught me English.\n", encoding="utf-8"
    )
    assert invoke(runner, "challenge", "create", "drs", "--title", "DRS").exit_code == 0
    args = ["track", "import", "drs", "gen", "--kind", "drs", "--language", "en"]
    invoke(runner, *args, "--inputs", clauses, "--refs", clauses.with_suffix(".txt.raw"))
    result = invoke(
        runner, "track", "challenge-set", "drs", "gen", "--language", "en", "--name", "tense",
        "--inputs", tmp_path / "test-tense.txt", "--refs", tmp_path / "test-tense.txt.raw",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "challenge set tense: 2 items, 2 paired" in result.output
    with session_scope(settings.database_url) as session:
        pairs = session.execute(
            select(Item.position, Item.original_id).where(Item.original_id.is_not(None))
        ).all()
        originals = {i.id: i.position for i in session.scalars(select(Item))}
    assert [(pos, originals[orig]) for pos, orig in pairs] == [(885, 0), (886, 2)]


def test_unmatched_challenge_items_are_listed_and_nothing_is_imported(runner, settings, tmp_path):
    demo_drs_track(runner)
    (tmp_path / "names.txt").write_text(
        "%%% a\n%%% b\n%%% Howard Carpendale sings .\nb1 REF x1\n", encoding="utf-8"
    )
    (tmp_path / "names.txt.raw").write_text("Howard Carpendale sings.\n", encoding="utf-8")
    args = ["track", "challenge-set", "drs", "gen", "--language", "en", "--name", "names"]
    files = ["--inputs", tmp_path / "names.txt", "--refs", tmp_path / "names.txt.raw"]
    result = invoke(runner, *args, *files)
    assert result.exit_code != 0
    assert "1 of 1 items of names.txt have no original" in result.output
    assert "block 1: 'Howard Carpendale sings .'" in result.output
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(func.count()).select_from(Item)) == 7
    result = invoke(runner, *args, *files, "--allow-unmatched")
    assert result.exit_code == 0, result.output
    assert "challenge set names: 1 items, 0 paired" in result.output


def test_challenge_set_scores_orig_vs_chal_checked_by_hand(app, client, runner, settings):
    demo_drs_track(runner)
    submission = upload(client, settings, (DEMO / "team_output.txt").read_bytes())
    run_queue(app)
    with session_scope(settings.database_url) as session:
        bleu = {
            s.subset: s.value
            for s in session.scalars(
                select(Score).where(Score.submission_id == submission, Score.metric == "BLEU")
            )
        }
    assert set(bleu) == {"", "tense", "tense:orig", "polarity", "polarity:orig"}
    # tense, Chal: "Anna reads a book ." / "The dog will sleep ." against "Anna read a book ."
    # / "The dog will sleep .": n-gram precisions 9/10, 6/8, 4/6, 2/4, lengths equal (BP 1).
    assert bleu["tense"] == pytest.approx(100 * (9 / 10 * 6 / 8 * 4 / 6 * 2 / 4) ** 0.25)
    # tense, Orig: "Anna reads a book ." (exact) and "The dog sleeps ." against "The dog
    # slept .": 8/9, 5/7, 3/5, 2/3.
    assert bleu["tense:orig"] == pytest.approx(100 * (8 / 9 * 5 / 7 * 3 / 5 * 2 / 3) ** 0.25)
    # The headline is the 4 standard items only, not the challenge items appended after them.
    # Two exact outputs, "The dog sleeps ." and "It rains ." (vs "It is raining ."): n-gram
    # precisions 15/17, 9/13, 6/9, 4/5; hypothesis 17 tokens, references 18.
    precisions = 15 / 17 * 9 / 13 * 6 / 9 * 4 / 5
    assert bleu[""] == pytest.approx(100 * math.exp(1 - 18 / 17) * precisions**0.25)


def test_track_page_and_api_show_table_4_with_the_drop(app, client, runner, settings):
    """Once the test results are published: the demo's challenge sets are one and two
    sentences, whose figures wait for publication as per-item figures do."""
    demo_drs_track(runner)
    upload(client, settings, (DEMO / "team_output.txt").read_bytes())
    run_queue(app)
    with session_scope(settings.database_url) as session:
        track = get_track(session, "drs", "gen")
        track.phase, track.is_published = "test", True
    page = client.get("/challenges/drs/tracks/gen?lang=en").get_data(as_text=True)
    assert 'id="challenge-tense"' in page and 'id="challenge-polarity"' in page
    assert "tense · 2 pairs" in page and "polarity · 1 pair" in page
    tense = page[page.index('id="challenge-tense"') : page.index('id="challenge-polarity"')]
    # BLEU Orig 71.0, Chal 68.9, drop -2.1 (the hand-checked figures above)
    assert '<td class="num">71.0</td><td class="num">68.9</td>' in tense
    assert "-2.1" in tense
    body = client.get(f"{API}/leaderboard?language=en").get_json()
    assert body["subsets"] == {
        "standard": {"items": 4, "paired_with_originals": 0},
        "tense": {"items": 2, "paired_with_originals": 2},
        "polarity": {"items": 1, "paired_with_originals": 1},
    }
    row = body["rows"][0]["subsets"]
    assert row["tense:orig"]["BLEU"] == pytest.approx(70.99, abs=0.01)
    assert row["tense"]["BLEU"] == pytest.approx(68.87, abs=0.01)


def test_upload_must_cover_the_challenge_items_too(client, runner, settings):
    demo_drs_track(runner)
    token = participant(settings, "short@example.org", team="short")
    response = post(client, token, b"a\nb\nc\nd\n", "en_out.txt", "s", "en", url=API)
    assert response.status_code == 400
    assert "expected 7 texts" in response.get_json()["error"]


def test_items_cannot_be_added_after_a_submission(app, client, runner, settings):
    demo_drs_track(runner)
    upload(client, settings, (DEMO / "team_output.txt").read_bytes())
    result = invoke(
        runner, "track", "import", "drs", "gen", "--kind", "drs", "--language", "en",
        "--inputs", DEMO / "test.txt", "--refs", DEMO / "test.txt.raw", "--subset", "long",
    )  # fmt: skip
    assert result.exit_code != 0
    assert "already has 1 submission(s); items cannot be added" in result.output


def test_subset_names_and_duplicates_are_refused(runner):
    demo_drs_track(runner)
    args = ["track", "import", "drs", "gen", "--kind", "drs", "--language", "en"]
    files = ["--inputs", DEMO / "test.txt", "--refs", DEMO / "test.txt.raw"]
    result = invoke(runner, *args, *files, "--subset", "Long Set")
    assert "subset name 'Long Set'" in result.output
    result = invoke(runner, *args, *files)
    assert "already has a 'standard' set" in result.output


def test_track_page_renders_without_the_semantic_extra(app, client, runner, settings, monkeypatch):
    """Without torch, embedding metrics are absent: pages must not ask them for a signature."""
    from scorer import embeddings

    def missing() -> str:
        raise ModuleNotFoundError("No module named 'torch'")

    monkeypatch.setattr(embeddings, "available", lambda: False)
    monkeypatch.setattr(embeddings, "signature", missing)
    demo_drs_track(runner)
    upload(client, settings, (DEMO / "team_output.txt").read_bytes())
    run_queue(app)
    page = client.get("/challenges/drs/tracks/gen?lang=en")
    assert page.status_code == 200
    assert 'id="absent-metrics"' in page.get_data(as_text=True)
