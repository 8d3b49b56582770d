"""A line count far from the test set's is another file, not a lost line break (issue 49: a
Russian file on the English track was told a line break was lost, 677 lines short)."""

from __future__ import annotations

import pytest

from scorer.errors import InputError
from scorer.io.by_track import another_file, read_line_outputs


def _refusal(lines: list[str], count: int) -> str:
    with pytest.raises(InputError) as caught:
        read_line_outputs(("\n".join(lines) + "\n").encode(), ["x"] * count, "out.txt")
    return str(caught.value)


def test_hundreds_of_lines_short_says_another_file_not_a_lost_line_break():
    said = _refusal([f"line {k} of the other file" for k in range(1102)], 1779)
    assert "677 lines too few (1,779 expected, 1,102 found): another file?" in said
    assert "line break" not in said


def test_far_too_many_lines_says_another_file():
    said = _refusal([f"text {k}" for k in range(120)], 100)
    assert "20 lines too many (100 expected, 120 found): another file?" in said


def test_a_few_lines_off_still_points_at_the_line_break():
    said = _refusal(["short", "short", "a much much longer line joined", "short"], 5)
    assert "lost line break" in said and "another file" not in said
    assert "is a line break missing?" in _refusal([f"text {k}" for k in range(97)], 100)


def test_a_few_lines_is_more_than_one_percent_only_on_a_large_test_set():
    assert not another_file(3, 6) and another_file(2, 6)
    assert not another_file(1770, 1779) and another_file(1760, 1779)
