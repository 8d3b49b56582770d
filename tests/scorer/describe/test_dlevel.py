"""D-level rules: one sentence per level through the real parser, and the pure statistics."""

from __future__ import annotations

import pytest

from scorer.describe import dlevel
from tests.support.paths import require_link_parser


@pytest.fixture(autouse=False)
def parser() -> None:
    require_link_parser()


# Level, sentence: the paper's own examples where it gives one (E2E paper Sect. 4.3).
LEVEL_SENTENCES = [
    (0, "The Vaults is an Indian restaurant."),
    (0, "The Loch Fyne is a moderate priced family restaurant."),
    (0, "The Eagle has a low customer rating."),
    (1, "The Eagle enjoys serving French food."),
    (1, "I want to go."),
    (2, "Cocum is a very expensive restaurant but the quality is great."),
    (2, "Mary and John went home."),
    (2, "The Eagle is family-friendly and has a low customer rating."),
    (3, "There is a pub called Strada which serves Italian food."),
    (3, "I think that he left."),
    (3, "The Eagle is a pub where you can eat cheap food."),
    (4, "The Vaults is a family-friendly restaurant offering fast food at moderate prices."),
    (4, "I want him to go."),
    (5, "If you like Japanese food, try the Vaults."),
    (5, "The Eagle serves food because it is a restaurant."),
    (6, "The restaurant that serves Chinese food is near the Bakers."),
    (6, "Located in the city centre, The Eagle serves French food."),
    (6, "The Eagle, which is near Burger King, serves cheap food."),
    (
        7,
        (
            "Serving cheap English food, as well as having a coffee shop, the Golden Palace has "
            "an average customer rating and is located along the riverside."
        ),
    ),
    (7, "The Eagle is a coffee shop that serves Japanese food that customers love."),
]


@pytest.mark.usefixtures("parser")
@pytest.mark.parametrize(("level", "sentence"), LEVEL_SENTENCES)
def test_every_level_has_a_sentence(level: int, sentence: str) -> None:
    found = dlevel.structures(dlevel.parse(sentence))
    assert dlevel.sentence_level(sentence) == level, found


def test_the_examples_cover_every_level() -> None:
    assert {level for level, _ in LEVEL_SENTENCES} == set(dlevel.LEVELS)


@pytest.mark.usefixtures("parser")
def test_texts_are_split_into_sentences_and_repeats_parsed_once() -> None:
    texts = ["The Vaults is an Indian restaurant. If you like Japanese food, try the Vaults."] * 3
    assert dlevel.text_levels(texts) == [0, 5] * 3


@pytest.mark.usefixtures("parser")
def test_overlong_sentences_are_counted_apart() -> None:
    long = " ".join(["food"] * (dlevel.MAX_WORDS + 1)) + "."
    assert dlevel.sentence_level(long) is None
    stats = dlevel.distribution(dlevel.text_levels([long, "I want to go."]))
    assert stats["D-level unparsed"] == 1 and stats["D-level sentences"] == 1
    assert stats["D-level 1 %"] == 100.0


def test_parser_input_keeps_the_syntax_of_e2e_compounds() -> None:
    assert dlevel.for_parser("X-name is a kid-friendly, non family-friendly pub near X-near.") == (
        "Xname is a friendly, unfriendly pub near Xnear."
    )


def test_level_seven_needs_two_embeddings() -> None:
    assert dlevel.level_of([(2, "a"), (3, "b")]) == 3
    assert dlevel.level_of([(3, "a"), (6, "b")]) == 7
    assert dlevel.level_of([(1, "a"), (2, "b")]) == 2
    assert dlevel.level_of([]) == 0


def test_link_labels_merge_position_by_position() -> None:
    assert dlevel._merge("M", "Mg") == ("M", "g")
    assert dlevel._merge("MXs", "MX*r") == ("MX", "sr")
    assert dlevel._merge("hWV", "dWV") == ("WV", "")
    assert dlevel._matches("sr", "*r") and not dlevel._matches("s", "*r")


def test_distribution_by_hand() -> None:
    stats = dlevel.distribution([0, 0, 1, 2, 3, 6, 7, 7, None])
    assert stats["D-level sentences"] == 8 and stats["D-level unparsed"] == 1
    assert stats["D-level mean"] == pytest.approx((0 + 0 + 1 + 2 + 3 + 6 + 7 + 7) / 8)
    assert stats["D-level 0-1 %"] == pytest.approx(37.5)
    assert stats["D-level 0-2 %"] == pytest.approx(50.0)
    assert stats["D-level 6-7 %"] == pytest.approx(37.5)
    assert dlevel.counts_from(stats) == [2, 1, 1, 1, 0, 0, 1, 2]


def test_ks_test_between_level_distributions() -> None:
    same = [5, 5, 5, 5, 0, 0, 0, 0]
    assert dlevel.ks_test(same, same) == (0.0, 1.0)
    statistic, p = dlevel.ks_test([50, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 50])
    assert statistic == 1.0 and p < 1e-10
    # By hand: CDFs 0.5/1.0 vs 0.0/1.0 at levels 0/1 -> D = 0.5.
    assert dlevel.ks_test([2, 2, 0, 0, 0, 0, 0, 0], [0, 4, 0, 0, 0, 0, 0, 0])[0] == 0.5
    assert dlevel.ks_test([], same) == (0.0, 1.0)


def test_bhattacharyya_distance() -> None:
    assert dlevel.bhattacharyya([1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0]) == 0.0
    # By hand: coefficient sqrt(0.5 * 1) = 0.7071 -> distance ln 2 / 2.
    assert dlevel.bhattacharyya([1, 1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]) == (
        pytest.approx(0.34657, abs=1e-5)
    )


def _shut_down_pool(workers: int, pool_for=dlevel._pool):
    """The process's D-level pool, shut down as the interpreter's exit, or a stop, does while
    a describing thread still runs."""
    pool = pool_for(workers)
    pool.shutdown(wait=True, cancel_futures=True)
    return pool


def _through_the_pool(monkeypatch) -> list[str]:
    """Few sentences, parsed in the pool all the same (as an E2E test set's hundreds are)."""
    monkeypatch.setattr(dlevel, "POOL_MIN_SENTENCES", 1)
    monkeypatch.setattr(dlevel.os, "cpu_count", lambda: 2)
    return [sentence for _, sentence in LEVEL_SENTENCES[:6]]


@pytest.mark.usefixtures("parser")
def test_a_pool_shut_down_under_a_job_is_replaced_once(monkeypatch, caplog) -> None:
    """Issue 41: "describing the references failed: cannot schedule new futures after
    shutdown". A describing job that finds its pool shut down starts a fresh one."""
    sentences = _through_the_pool(monkeypatch)
    expected = [dlevel.sentence_level(s) for s in sentences]
    old = _shut_down_pool(2)
    assert dlevel.text_levels(sentences) == expected
    assert dlevel._pool(2) is not old  # the next job uses the fresh pool too
    assert "shut down" in caplog.text


@pytest.mark.usefixtures("parser")
def test_no_pool_to_be_had_parses_in_this_process(monkeypatch) -> None:
    """At the interpreter's exit every new pool refuses work too: the job parses here."""
    sentences = _through_the_pool(monkeypatch)
    expected = [dlevel.sentence_level(s) for s in sentences]
    monkeypatch.setattr(dlevel, "_pool", _shut_down_pool)
    assert dlevel.text_levels(sentences) == expected
