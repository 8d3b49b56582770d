"""Damaged copies for DA quality control always differ from the original."""

import random

import pytest

from scorer.human.damage import damage, span_length


@pytest.mark.parametrize(("words", "span"), [(1, 1), (3, 1), (4, 2), (8, 3), (15, 4), (30, 5)])
def test_span_grows_with_the_text(words, span):
    assert span_length(words) == span


def test_a_damaged_copy_differs_and_keeps_the_rest():
    rng = random.Random(0)
    text = "Blue Spice is a coffee shop in the city centre near the river ."
    donors = ["The Eagle serves cheap French food near Burger King .", text]
    for _ in range(50):
        copy = damage(text, donors, rng)
        assert copy != text
        assert len(copy.split()) == len(text.split())


def test_without_a_useful_donor_the_run_is_dropped():
    rng = random.Random(1)
    assert damage("zhang says 5", ["zhang says 5"], rng) in {"says 5", "zhang 5", "zhang says"}
    assert damage("", [], rng) == "…"
