"""Given JSON is read within limits (``scorer/io/bounded_json.py``): nesting deeper than the
limit or a value past its size is an ``InputError`` naming the file and the line, in every
reader of given JSON, never a ``RecursionError`` (issue 47)."""

from __future__ import annotations

import pytest

from scorer.errors import InputError
from scorer.io import layouts, records, webnlg
from scorer.io.bounded_json import MAX_DEPTH, load_json, nesting_position

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, None),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), MAX_DEPTH),
        ('{"a": "' + "[" * 500 + '"}', None),  # brackets in a string do not nest
        ('["\\"' + "[" * 500 + '"]', None),  # nor after an escaped quote
        ("[{}]" * 500, None),  # many brackets, shallow
        ('{"a": [' * 60 + "1" + "]}" * 60, 50 * 7),  # the 51st "{" opens level 101
    ],
)
def test_nesting_is_counted_outside_strings(text, position):
    assert nesting_position(text) == position


def test_deep_json_is_refused_naming_the_line_and_column():
    with pytest.raises(InputError) as refused:
        load_json('{"a":\n  ' + DEEP + "}", "f.json", 7)
    message = str(refused.value)
    assert message.startswith("f.json, line 8: nests arrays and objects more than 100 deep")
    assert f"(column {2 + MAX_DEPTH})" in message  # level 1 is the "{" of line 7


def test_a_value_past_its_size_and_broken_json_are_refused_naming_the_line():
    with pytest.raises(InputError, match=r"^f.json, line 3: holds a JSON value of 11 char"):
        load_json('"123456789"', "f.json", 3, max_chars=10)
    with pytest.raises(InputError, match=r"^f.json, line 4: is not JSON \(Expecting"):
        load_json("[1,\n 2,,]", "f.json", 3)


def test_json_lines_records_nested_100000_deep_are_refused_naming_the_line():
    data = b'{"input": "a", "references": "b"}\n{"input": ' + DEEP.encode() + b"}\n"
    with pytest.raises(InputError, match=r"^r.jsonl, line 2: nests arrays and objects"):
        records.jsonl_items(data, "r.jsonl")
    with pytest.raises(InputError, match=r"^r.jsonl, line 2: nests arrays and objects"):
        layouts.jsonl_layout([("r.jsonl", data)], field="references")


def test_json_lists_nested_100000_deep_are_refused_naming_the_line():
    data = b'[["a"],\n["b"],\n' + DEEP.encode() + b"]"
    with pytest.raises(InputError, match=r"^refs.json, line 3: nests arrays and objects"):
        layouts.read_json_lists(data, "refs.json")


def test_instance_types_nested_100000_deep_are_refused_naming_the_file():
    entries = webnlg.read_entries(
        b'<benchmark><entries><entry category="Airport" eid="Id1" size="1">'
        b"<modifiedtripleset><mtriple>A | b | C</mtriple></modifiedtripleset>"
        b"<lex>A b C.</lex></entry></entries></benchmark>",
        "test.xml",
    )
    with pytest.raises(InputError, match=r"^types.json, line 1: nests arrays and objects"):
        webnlg.read_instance_types(
            ('{"Id1": ' + DEEP + "}").encode(), "types.json", entries, "test.xml"
        )
    found = webnlg.read_instance_types(b'{"Id1": "new-category"}', "types.json", entries, "x")
    assert list(found) == ["Id1"]
