"""Reference layouts beyond the per-track ones: parallel files, JSON lists, JSON Lines.

* ``parallel``: ``reference0``, ``reference1``... one line per item in every file, an empty
  line where an item has fewer references (WebNLG+ 2020's ``eval.py``, Moses'
  ``multi-bleu.perl``). A final line break ends the last line; it does not add an item (but
  see ``_lines`` for files joined by line breaks).
* ``json-lists``: one JSON array holding, per item, an array of reference strings.
* ``jsonl``: JSON Lines, one object per item; a named field holds its reference (a string) or
  references (an array of strings).

In all three an empty or blank reference is no reference (the official scripts skip them or
score them as nothing), and an item needs at least one. Errors name the file and the line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from scorer.errors import InputError
from scorer.io import records
from scorer.io.bounded_json import check_json_text
from scorer.io.e2e import ReferenceItem
from scorer.io.text import decode_text, split_lines

NamedFile = tuple[str, bytes]
"""A file as a layout reads it: its name (for messages) and its bytes."""


def read_parallel(files: Sequence[NamedFile]) -> list[ReferenceItem]:
    """Items from parallel reference files, given in order (``reference0`` first)."""
    if not files:
        raise InputError("no reference files given (reference0, reference1, ...)")
    texts = [(name, decode_text(data, name)) for name, data in files]
    count = max(len(split_lines(text)) for _, text in texts)
    columns = [(name, _lines(text, count)) for name, text in texts]
    first_name, first = columns[0]
    for name, lines in columns[1:]:
        if len(lines) != len(first):
            raise InputError(
                f"has {len(lines)} lines where {first_name} has {len(first)}: parallel "
                "reference files hold one line per item (an empty line for a missing one)",
                filename=name,
            )
    items = []
    for index in range(len(first)):
        references = tuple(lines[index] for _, lines in columns if lines[index].strip())
        if not references:
            raise InputError(
                "is empty in every reference file: the item has no reference",
                filename=first_name if len(columns) == 1 else "all reference files",
                line=index + 1,
            )
        items.append(ReferenceItem("", references))
    if not items:
        raise InputError("is empty: expected one line per item", filename=first_name)
    return items


def _lines(text: str, count: int) -> list[str]:
    """A parallel file's lines. Written with a line break after every line, or joined by line
    breaks (WebNLG+ 2020's files, read by ``split('\\n')``): then a file whose last item has no
    reference ends with a line break and one line short of the others, which is that empty
    line."""
    lines = split_lines(text)
    if len(lines) == count - 1 and text.endswith("\n"):
        lines.append("")
    return lines


def read_json_lists(data: bytes, filename: str) -> list[ReferenceItem]:
    """Items from one JSON array of arrays of strings: ``[["ref a1", "ref a2"], ["ref b1"]]``."""
    text = decode_text(data, filename)
    check_json_text(text, filename)
    decoder = json.JSONDecoder()
    position = _skip_space(text, 0)
    if not text[position : position + 1] == "[":
        raise InputError("is not a JSON array (of arrays of references)", filename=filename)
    position = _skip_space(text, position + 1)
    items: list[ReferenceItem] = []
    while text[position : position + 1] != "]":
        if items:
            if text[position : position + 1] != ",":
                raise _json_error(text, position, filename, "expected ',' or ']'")
            position = _skip_space(text, position + 1)
        start = position
        try:
            value, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise _json_error(text, error.pos, filename, error.msg) from None
        line = text.count("\n", 0, start) + 1
        items.append(_item(value, filename, line, f"item {len(items) + 1}"))
        position = _skip_space(text, position)
        if position >= len(text):
            raise _json_error(text, position, filename, "the array is not closed")
    if text[_skip_space(text, position + 1) :]:
        raise _json_error(text, _skip_space(text, position + 1), filename, "text after the array")
    if not items:
        raise InputError("is an empty array: expected one entry per item", filename=filename)
    return items


def read_jsonl(data: bytes, filename: str, field: str) -> list[ReferenceItem]:
    """Items from JSON Lines: the ``field`` of each line's object (a string or strings)."""
    return [
        _item(records.field_of(record, field, filename, line), filename, line, f"field {field!r}")
        for line, record in records.jsonl_records(data, filename)
    ]


def _item(value: Any, filename: str, line: int, what: str) -> ReferenceItem:
    return ReferenceItem("", records.references_of(value, what, filename, line))


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\n\r":
        position += 1
    return position


def _json_error(text: str, position: int, filename: str, message: str) -> InputError:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return InputError(
        f"is not valid JSON here ({message}, column {column})", filename=filename, line=line
    )


def _one_file(files: Sequence[NamedFile], layout: str) -> NamedFile:
    if len(files) != 1:
        raise InputError(f"the {layout} layout reads one file, not {len(files)}")
    return files[0]


def json_lists_layout(files: Sequence[NamedFile]) -> list[ReferenceItem]:
    name, data = _one_file(files, "json-lists")
    return read_json_lists(data, name)


def jsonl_layout(files: Sequence[NamedFile], *, field: str) -> list[ReferenceItem]:
    name, data = _one_file(files, "jsonl")
    return read_jsonl(data, name, field)


REFERENCE_LAYOUTS: dict[str, Callable[..., list[ReferenceItem]]] = {
    "parallel": read_parallel,
    "json-lists": json_lists_layout,
    "jsonl": jsonl_layout,
}
"""Layouts by name, each called with the files (``NamedFile``s, in order) and its options as
keywords (``jsonl``: ``field``). WebNLG's ``<lex>`` layout is ``scorer.io.webnlg``."""
