"""What an output file of a kind looks like: the kind's own words (``submit:``), else its
reader's, never another reader's (a plain-text kind says nothing of MR columns or CoNLL-U)."""

from __future__ import annotations

import pytest

from scorer.kinds import KindError, build_profile, get_profile
from scorer.kinds.instructions import READER_INSTRUCTIONS
from scorer.kinds.parts import READERS

OTHER_KINDS_WORDS = ("MR", "CoNLL-U", "# text =", "XML", "DRS", "eid")


def test_every_reader_says_what_its_output_files_look_like():
    assert set(READER_INSTRUCTIONS) == set(READERS)
    for name, instructions in READER_INSTRUCTIONS.items():
        assert instructions.layout.endswith("."), name
        assert instructions.example.endswith("\n"), name


@pytest.mark.parametrize("reader", ["lines", "parallel", "json-lists", "jsonl", "csv"])
def test_a_plain_text_kind_says_one_output_per_line_and_nothing_of_other_kinds(reader):
    profile = build_profile({"name": f"plain-{reader}", "reader": reader, "metrics": ["chrF++"]})
    said = profile.submit.layout + profile.submit.example
    assert "one output per line, in the order of the inputs" in said
    assert not [word for word in OTHER_KINDS_WORDS if word in said]


def test_the_built_in_kinds_say_their_own_layouts():
    assert "`MR<TAB>output`" in get_profile("e2e").submit.layout
    assert "`# text = ...`" in get_profile("sr-shallow").submit.layout
    assert "entry k of the test XML" in get_profile("webnlg").submit.layout
    assert "MR" not in get_profile("drs").submit.layout


def test_a_kinds_own_words_replace_its_readers():
    submit = {"layout": "One JSON string per line.", "example": '"A text."\n'}
    profile = build_profile(
        {"name": "own-words", "reader": "lines", "metrics": ["chrF++"], "submit": submit}
    )
    assert (profile.submit.layout, profile.submit.example) == (
        "One JSON string per line.",
        '"A text."\n',
    )


@pytest.mark.parametrize(
    ("submit", "message"),
    [
        ("one per line", r"kind\.submit: \{layout: text, example: text\}"),
        ({"example": "x\n"}, r"kind\.submit\.layout: what an output file holds"),
        ({"layout": "x", "example": 3}, r"kind\.submit\.example: the start of an output file"),
        ({"layout": "x", "colour": "red"}, r"kind\.submit\.colour: unknown key"),
    ],
)
def test_malformed_submit_words_are_refused_naming_the_key(submit, message):
    with pytest.raises(KindError, match=message):
        build_profile(
            {"name": "bad-words", "reader": "lines", "metrics": ["chrF"], "submit": submit}
        )
