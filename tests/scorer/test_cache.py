"""Prepared references kept between processes (scorer.cache.kept): read back equal, private,
never read by other code, rebuilt when unreadable; and the E2E metrics that use them give the
same statistics from a kept file as from a fresh preparation."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from scorer import cache
from scorer.meteor import resources, scoring
from scorer.meteor.jar import score_line
from scorer.metrics import cider, mteval
from scorer.references import ReferenceSet

REFERENCES = ReferenceSet(
    [
        ["Aromi is a coffee shop in the city centre.", "There is a coffee shop called Aromi."],
        ["The Wrestlers serves cheap Italian food.", "Cheap Italian food: The Wrestlers."],
    ]
)
OUTPUTS = ["Aromi is a coffee shop in the centre.", "The Wrestlers has cheap food."]


def never(*_args: object) -> object:
    raise AssertionError("prepared again")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    resources.lexicon()  # METEOR's tables stay in the real cache folder (built once, ~5 s)
    monkeypatch.setattr(cache, "cache_folder", lambda: tmp_path)
    return tmp_path


def test_a_kept_value_is_read_back_by_the_next_process_and_only_its_owner_can_read_it(folder):
    value = {("a", "b"): 1.5, "list": [frozenset({1, 2}), None, (3, "x")]}
    assert cache.kept("demo", "key", lambda: value, dict, dict) == value
    (kept_file,) = folder.glob("prepared-demo-*.marshal")
    assert stat.S_IMODE(kept_file.stat().st_mode) == 0o600
    assert cache.kept("demo", "key", never, dict, dict) == value
    assert cache.kept("demo", "other key", lambda: {"other": 1}, dict, dict) == {"other": 1}


def test_other_code_or_an_unreadable_file_prepares_again(folder, monkeypatch):
    cache.kept("demo", "key", lambda: [1, 2], list, list)
    (kept_file,) = folder.glob("prepared-demo-*.marshal")
    kept_file.write_bytes(b"\x00 not marshal data")
    assert cache.kept("demo", "key", lambda: [3], list, list) == [3]
    monkeypatch.setattr(cache, "code_fingerprint", lambda: "changed code")
    assert cache.kept("demo", "key", lambda: [4], list, list) == [4]


def test_a_cache_folder_that_cannot_be_made_means_preparing(monkeypatch):
    def no_folder() -> Path:
        raise OSError("read-only file system")

    monkeypatch.setattr(cache, "cache_folder", no_folder)
    assert cache.kept("demo", "key", lambda: [5], list, list) == [5]


def test_only_the_most_recently_used_test_sets_are_kept(folder):
    for k in range(cache.KEPT_SETS + 3):
        cache.kept("demo", f"set {k}", lambda k=k: [k], list, list)
    assert len(list(folder.glob("prepared-demo-*.marshal"))) == cache.KEPT_SETS


def test_bleu_nist_and_cider_statistics_are_the_same_from_a_kept_preparation(folder, monkeypatch):
    expected_mteval = mteval.prepare(REFERENCES)
    expected_cider = cider.prepare(REFERENCES)
    assert mteval._kept(REFERENCES) == expected_mteval  # prepared and kept
    assert cider._kept(REFERENCES) == expected_cider
    assert {path.name.split("-")[1] for path in folder.glob("prepared-*.marshal")} >= {
        "mteval",
        "cider",
    }
    monkeypatch.setattr(mteval, "prepare", never)  # a new process reads them
    monkeypatch.setattr(cider, "prepare", never)
    read_mteval = mteval._kept(REFERENCES)
    assert read_mteval == expected_mteval
    assert cider._kept(REFERENCES) == expected_cider
    rows = [mteval.segment_row(o, i, read_mteval) for i, o in enumerate(OUTPUTS)]
    assert rows == [mteval.segment_row(o, i, expected_mteval) for i, o in enumerate(OUTPUTS)]


def test_meteor_statistics_are_the_same_from_references_kept_by_another_process(
    folder, monkeypatch
):
    monkeypatch.setattr(scoring, "_PREPARED", {})  # none of them prepared in this process yet
    monkeypatch.setattr(scoring.aligner(), "_references", {})
    lines = [score_line(o, refs) for o, refs in zip(OUTPUTS, REFERENCES, strict=True)]
    fresh = scoring._score_chunk(lines)
    assert len(list(folder.glob("prepared-meteor-*.marshal"))) == 1
    # A new process: nothing prepared in memory; the references are read, not prepared.
    monkeypatch.setattr(scoring, "_PREPARED", {})
    monkeypatch.setattr(scoring.aligner(), "_references", {})
    monkeypatch.setattr(scoring, "_prepare_references", never)
    assert scoring._score_chunk(lines) == fresh
    texts = {ref for refs in REFERENCES for ref in refs}
    assert set(scoring._PREPARED) == texts
    assert set(scoring.aligner()._references) == {tuple(scoring._PREPARED[t]) for t in texts}


def test_meteor_segments_read_references_kept_by_another_process(folder, monkeypatch):
    """The files' mode (WebNLG's METEOR, ``-r N``) keeps its references as ``SCORE`` lines do."""
    monkeypatch.setattr(scoring, "_PREPARED", {})
    monkeypatch.setattr(scoring.aligner(), "_references", {})
    segments = list(zip(OUTPUTS, REFERENCES, strict=True))
    fresh = scoring._score_segments(segments)
    assert len(list(folder.glob("prepared-meteor-*.marshal"))) == 1
    monkeypatch.setattr(scoring, "_PREPARED", {})
    monkeypatch.setattr(scoring.aligner(), "_references", {})
    monkeypatch.setattr(scoring, "_prepare_references", never)
    assert scoring._score_segments(segments) == fresh
    assert set(scoring._PREPARED) == {ref for refs in REFERENCES for ref in refs}


def test_ptb_tokens_of_the_references_are_read_back_by_the_next_process(folder, monkeypatch):
    from scorer.tokenizers import ptb

    expected = ptb._tokenize_grouped(REFERENCES)
    assert ptb._kept_grouped(REFERENCES) == expected  # tokenised and kept
    assert len(list(folder.glob("prepared-ptb-*.marshal"))) == 1
    monkeypatch.setattr(ptb, "_tokenize_grouped", never)  # a new process reads them
    assert ptb._kept_grouped(REFERENCES) == expected
    assert expected[0][0] == "aromi is a coffee shop in the city centre"
