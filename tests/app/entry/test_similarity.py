"""System-output similarity (E2E Sect. 8.3): the matrix through the real metrics and the CLI."""

from __future__ import annotations

import json

import pytest

from app.data.models import TEST
from scorer.compare.similarity import (
    REFERENCE_ROWS,
    SimilarityMatrix,
    overlap_profile,
    similarity_matrix,
)
from scorer.kinds import get_profile
from scorer.references import ReferenceSet
from tests.support.board import set_track
from tests.support.factories import GOOD_OUTPUT, demo_track
from tests.support.paths import require_binary

MRS = [
    "name[The Eagle], eatType[pub], area[riverside]",
    "name[Aromi], eatType[coffee shop], food[Chinese]",
    "name[Cotto], eatType[restaurant], priceRange[cheap]",
]
REFS = [
    ["The Eagle is a pub by the riverside.", "The Eagle pub is on the riverside."],
    ["Aromi is a coffee shop serving Chinese food.", "Aromi serves Chinese food."],
    ["Cotto is a cheap restaurant.", "Cotto is a restaurant with low prices."],
]


def test_mean_is_the_column_mean_over_other_systems() -> None:
    matrix = SimilarityMatrix(
        rows=[*REFERENCE_ROWS, "A", "B", "C"],
        tested=["A", "B", "C"],
        values=[
            [0.9, 0.9, 0.9],
            [0.8, 0.8, 0.8],
            [None, 0.5, 0.2],
            [0.4, None, 0.3],
            [0.1, 0.6, None],
        ],
        signature="s",
    )
    assert matrix.mean("A") == pytest.approx((0.4 + 0.1) / 2)
    assert matrix.mean("B") == pytest.approx((0.5 + 0.6) / 2)
    assert matrix.as_dict()["means"]["C"] == pytest.approx(0.25)


def test_only_the_normalised_average_metrics_are_run() -> None:
    profile = overlap_profile(get_profile("e2e"))
    assert profile.columns == ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "norm_avg")
    with pytest.raises(ValueError, match="lacks the metrics"):
        overlap_profile(get_profile("sr18"))


def test_identical_systems_are_closer_than_different_ones() -> None:
    require_binary("java")
    same = ["X is a pub near the river.", "X is a coffee shop.", "X is cheap."]
    systems = {
        "A": same,
        "B": list(same),
        "C": ["Welcome to a venue of note.", "Drinks are served here.", "Prices vary."],
    }
    references = ReferenceSet(REFS, inputs=MRS)
    matrix = similarity_matrix(get_profile("e2e"), systems, references)
    assert matrix.rows == ["test set all", "test set rand", "A", "B", "C"]
    a_row = matrix.values[matrix.rows.index("A")]
    assert a_row[0] is None  # no system is its own reference
    assert a_row[1] > 2 * a_row[2] > 0
    assert matrix.mean("B") > matrix.mean("C")
    assert "delex:name,near" in matrix.signature and "meteor-1.5" in matrix.signature


def test_names_are_delexicalised_on_both_sides() -> None:
    require_binary("java")
    references = ReferenceSet(REFS, inputs=MRS)
    named = ["The Eagle is a pub.", "Aromi is a coffee shop.", "Cotto is cheap."]
    without_article = ["Eagle is a pub.", "Aromi is a coffee shop.", "Cotto is cheap."]
    systems = {"a": named, "copy": list(named), "b": without_article}
    matrix = similarity_matrix(get_profile("e2e"), systems, references)
    a_row = matrix.values[matrix.rows.index("a")]
    assert a_row[matrix.tested.index("b")] == a_row[matrix.tested.index("copy")]


def test_track_similarity_command(runner, settings, tmp_path) -> None:
    require_binary("java")
    demo_track(settings)
    worse = tmp_path / "worse.txt"
    worse.write_bytes(b"\n".join(b"A place." for _ in range(10)) + b"\n")
    good = tmp_path / "good.txt"
    good.write_bytes(GOOD_OUTPUT)
    for name, path in (("good", good), ("worse", worse)):
        added = runner.invoke(args=["baseline", "add", "demo", "main", str(path), "--name", name])
        assert added.exit_code == 0, added.output
    result = runner.invoke(args=["track", "similarity", "demo", "main", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    labels = payload["labels"]
    assert [labels[str(system_id)] for system_id in payload["tested"]] == ["good", "worse"]
    assert set(payload["means"]) == set(labels)
    plain = runner.invoke(args=["track", "similarity", "demo", "main"])
    assert "mean similarity to the other systems" in plain.output
    assert "development phase: everyone whose leaderboard lists its systems" in plain.output
    set_track(settings, phase=TEST)
    sealed = runner.invoke(args=["track", "similarity", "demo", "main"])
    assert "organisers alone see it" in sealed.output
    lonely = runner.invoke(args=["track", "similarity", "demo", "nope"])
    assert lonely.exit_code == 1


def test_similarity_needs_two_systems(runner, settings) -> None:
    demo_track(settings)
    result = runner.invoke(args=["track", "similarity", "demo", "main"])
    assert result.exit_code == 1 and "needs two scored systems, 0 found" in result.output
