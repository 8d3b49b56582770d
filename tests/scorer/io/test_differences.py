"""Excerpts around the first difference of two texts (scorer/io/differences.py)."""

from __future__ import annotations

import pytest

from scorer.io.differences import first_difference


@pytest.mark.parametrize(
    ("found", "expected", "position", "found_excerpt", "expected_excerpt"),
    [
        ("name[A]", "name[B]", 5, "name[A]", "name[B]"),
        ("abc", "abcdef", 3, "abc", "abcdef"),
        ("same", "same", 4, "same", "same"),
        (
            "name[X], area[riverside], food[French], near[Y]",
            "name[X], area[riverside], food[Italian], near[Y]",
            31,
            "…food[French], near[Y]",
            "…food[Italian], near[Y]",
        ),
    ],
)
def test_excerpts_start_at_a_slot_and_show_both_sides(
    found, expected, position, found_excerpt, expected_excerpt
):
    difference = first_difference(found, expected, context=20)
    assert difference.position == position
    assert (difference.found, difference.expected) == (found_excerpt, expected_excerpt)


def test_long_texts_are_cut_on_both_sides_of_the_difference():
    prefix, suffix = "x" * 100, "y" * 100
    difference = first_difference(prefix + "A" + suffix, prefix + "B" + suffix, context=5)
    assert (difference.found, difference.expected) == ("…xxxxxAyyyy…", "…xxxxxByyyy…")
