"""The warnings every gate gives about an accepted output file (``scorer.io.checks``)."""

from __future__ import annotations

from scorer.io.checks import EMPTY_NAMED, empty_outputs, output_lines


def test_an_empty_output_line_is_named_with_its_line_and_rule():
    data = b"one\n\n  \nfour\n"
    found = empty_outputs(["one", "", "  ", "four"], data, "out.txt")
    assert [str(warning) for warning in found] == [
        "out.txt, line 2: output 2 is empty: it scores as no text (a doubled line break, or an "
        "item the system gave nothing for?) [empty-output]",
        "out.txt, line 3: output 3 is empty: it scores as no text (a doubled line break, or an "
        "item the system gave nothing for?) [empty-output]",
    ]


def test_a_file_without_empty_outputs_gets_no_warning():
    assert empty_outputs(["a", "b"], b"a\nb\n", "out.txt") == []


def test_many_empty_outputs_are_named_then_counted():
    texts = [""] * (EMPTY_NAMED + 3)
    found = empty_outputs(texts, b"\n" * len(texts), "out.txt")
    assert [warning.line for warning in found[:-1]] == list(range(1, EMPTY_NAMED + 1))
    assert str(found[-1]).startswith(f"out.txt: 3 more outputs are empty ({len(texts)} of")


def test_the_line_of_an_output_follows_a_header_and_not_blocks():
    assert output_lines(b"mr\toutput\na\tb\nc\td\n", 2) == [2, 3]
    assert output_lines(b"a\nb\n\n\n", 2) == [1, 2]
    assert output_lines(b"# text = a\n\n# text = b\n\n", 2) is None
