"""Lexical statistics (E2E paper Sect. 4.2) on tiny texts worked out by hand."""

import math

import pytest

from scorer.describe.textstats import frequent_words, msttr, text_statistics, tokenize
from scorer.semantics.e2e_slots import delexicalise


def test_entropies_ttr_and_distinct_counts_by_hand():
    stats = text_statistics(["a b a", "b c"])  # n-grams never cross the two texts
    # unigrams a:2 b:2 c:1 of 5
    assert stats["entropy-1"] == pytest.approx(-2 * 0.4 * math.log2(0.4) - 0.2 * math.log2(0.2))
    # bigrams (a b) (b a) (b c), once each
    assert stats["entropy-2"] == pytest.approx(math.log2(3))
    # contexts a:1, b:2 -> -(1/3 log2 1 + 2 * 1/3 log2 1/2)
    assert stats["cond-entropy-2"] == pytest.approx(2 / 3)
    assert stats["entropy-3"] == 0 and stats["cond-entropy-3"] == 0  # one trigram (a b a)
    assert stats["TTR"] == pytest.approx(3 / 5)
    assert (stats["distinct tokens"], stats["distinct bigrams"], stats["distinct trigrams"]) == (
        3,
        3,
        1,
    )
    assert stats["tokens once %"] == pytest.approx(100 / 3)  # only c
    assert stats["unique trigrams %"] == 100
    assert stats["avg length"] == 2.5


def test_msttr_leaves_the_incomplete_segment_out():
    assert msttr(["a", "a", "b", "c", "c"], segment=2) == pytest.approx((0.5 + 1.0) / 2)
    assert msttr(["a"] * 49) == 0.0


def test_ls2_counts_lexical_types_outside_the_frequent_list():
    assert "food" in frequent_words() and "zorblax" not in frequent_words()
    # lexical types: food, zorblax (the, is, and are function words); one is rare
    assert text_statistics(["The food is zorblax and the food"])["LS2"] == pytest.approx(1 / 2)


def test_tokens_sentences_and_delexicalised_names():
    assert tokenize("Aromi's family-friendly, isn't it?") == [
        "Aromi's",
        "family-friendly",
        ",",
        "isn't",
        "it",
        "?",
    ]
    text = delexicalise("name[The Eagle], near[Burger King]", "The Eagle is near Burger King. Go!")
    assert text == "X-name is near X-near. Go!"
    assert text_statistics([text])["sentences/text"] == 2
