"""Test sets as generic records, for kinds an organiser defines: one text per line, JSON Lines
with named fields, or a CSV/TSV table with named columns. Each record gives an item's input,
its references and its attributes (the subsets and breakdowns of a kind); errors name the file,
the line and the field or column.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from scorer.errors import InputError
from scorer.io.bounded_json import MAX_RECORD_CHARS, load_json
from scorer.io.items import Item
from scorer.io.text import decode_text, split_lines

DELIMITERS = {"comma": ",", "tab": "\t", ",": ",", "\t": "\t"}


def read_lines(data: bytes, filename: str) -> list[str]:
    """One text per line; an empty line is refused (it would shift every later item)."""
    lines = split_lines(decode_text(data, filename))
    for number, line in enumerate(lines, 1):
        if not line.strip():
            raise InputError(
                "is empty: one text per line, every line an item", filename=filename, line=number
            )
    if not lines:
        raise InputError("is empty: expected one text per line", filename=filename)
    return lines


def line_items(data: bytes, filename: str) -> list[Item]:
    """A references file of one reference per line (one item each, no inputs)."""
    return [Item("", (line,)) for line in read_lines(data, filename)]


def jsonl_records(data: bytes, filename: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of each line; a blank line, broken JSON or a non-object refused."""
    lines = split_lines(decode_text(data, filename))
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError(
                "is empty: JSON Lines hold one object per item", filename=filename, line=number
            )
        record = load_json(line, filename, number, max_chars=MAX_RECORD_CHARS)
        if not isinstance(record, dict):
            raise InputError("is not a JSON object", filename=filename, line=number)
        yield number, record
    if not lines:
        raise InputError("is empty: expected one JSON object per item", filename=filename)


def field_of(record: Mapping[str, Any], name: str, filename: str, line: int) -> Any:
    if name not in record:
        known = ", ".join(map(str, record)) or "none"
        raise InputError(f"has no field {name!r} (fields: {known})", filename=filename, line=line)
    return record[name]


def as_input_text(value: Any) -> str:
    """An input as stored and shown: a string as it is, any other JSON value as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def references_of(value: Any, what: str, filename: str, line: int) -> tuple[str, ...]:
    """A reference string or an array of them, blank ones dropped; at least one."""
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InputError(
            f"{what} is not a reference string or an array of them", filename=filename, line=line
        )
    references = tuple(v for v in values if v.strip())
    if not references:
        raise InputError(f"{what} holds no non-empty reference", filename=filename, line=line)
    return references


def jsonl_items(
    data: bytes,
    filename: str,
    *,
    input: str = "input",
    references: str = "references",
    attributes: Sequence[str] = (),
) -> list[Item]:
    """Items from JSON Lines: each object's ``input`` field, ``references`` field (a string or
    strings) and the named attribute fields."""
    return [
        Item(
            as_input_text(field_of(record, input, filename=filename, line=line)),
            references_of(
                field_of(record, references, filename=filename, line=line),
                f"field {references!r}",
                filename,
                line,
            ),
            {name: _attribute(record, name, filename=filename, line=line) for name in attributes},
        )
        for line, record in jsonl_records(data, filename)
    ]


def jsonl_inputs(data: bytes, filename: str, *, input: str = "input") -> list[str]:
    """The inputs teams get, as JSON Lines with the same ``input`` field."""
    return [
        as_input_text(field_of(record, input, filename=filename, line=line))
        for line, record in jsonl_records(data, filename)
    ]


def _attribute(record: Mapping[str, Any], name: str, filename: str, line: int) -> str:
    value = field_of(record, name, filename=filename, line=line)
    if isinstance(value, (dict, list)) or value is None:
        raise InputError(
            f"field {name!r} is not a single value (a string or number)",
            filename=filename,
            line=line,
        )
    return str(value)


def _table(
    data: bytes, filename: str, delimiter: str
) -> tuple[list[str], list[tuple[int, list[str]]]]:
    if delimiter not in DELIMITERS:
        raise InputError(f"delimiter {delimiter!r}: use comma or tab", filename=filename)
    text = decode_text(data, filename)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITERS[delimiter])
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as error:
        raise InputError(
            f"is not a valid table ({error})", filename=filename, line=reader.line_num
        ) from None
    rows = [(line, row) for line, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise InputError(
            "is empty: expected a header row and one row per reference", filename=filename
        )
    return [cell.strip() for cell in rows[0][1]], rows[1:]


def _column(header: list[str], name: str, filename: str) -> int:
    if name not in header:
        raise InputError(
            f"has no column {name!r} (columns: {', '.join(header)})", filename=filename, line=1
        )
    return header.index(name)


def _cell(row: list[str], column: int, name: str, filename: str, line: int) -> str:
    if column >= len(row):
        raise InputError(f"has no value in column {name!r}", filename=filename, line=line)
    return row[column]


def csv_items(
    data: bytes,
    filename: str,
    *,
    input: str = "input",
    references: str = "reference",
    attributes: Sequence[str] = (),
    delimiter: str = "comma",
) -> list[Item]:
    """Items from a CSV/TSV table with a header: one row per reference, rows of one input
    grouped by the input's text in first-appearance order (as E2E's ``mr,ref`` files are);
    attributes are read from an input's first row."""
    header, rows = _table(data, filename, delimiter)
    at_input = _column(header, input, filename)
    at_reference = _column(header, references, filename)
    at_attributes = {name: _column(header, name, filename) for name in attributes}
    grouped: dict[str, tuple[list[str], dict[str, str]]] = {}
    for line, row in rows:
        text = _cell(row, at_input, input, filename=filename, line=line).strip()
        reference = _cell(row, at_reference, references, filename=filename, line=line).strip()
        if not text:
            raise InputError(f"has an empty {input!r}", filename=filename, line=line)
        if not reference:
            raise InputError(f"has an empty {references!r}", filename=filename, line=line)
        found = grouped.setdefault(
            text,
            (
                [],
                {
                    n: _cell(row, k, n, filename=filename, line=line).strip()
                    for n, k in at_attributes.items()
                },
            ),
        )
        found[0].append(reference)
    if not grouped:
        raise InputError("has a header but no rows", filename=filename)
    return [Item(text, tuple(refs), attrs) for text, (refs, attrs) in grouped.items()]


def csv_inputs(
    data: bytes, filename: str, *, input: str = "input", delimiter: str = "comma"
) -> list[str]:
    """The inputs teams get: the same table's ``input`` column, one row per item."""
    header, rows = _table(data, filename, delimiter)
    at_input = _column(header, input, filename)
    return [_cell(row, at_input, input, filename=filename, line=line).strip() for line, row in rows]


def write_csv_inputs(texts: Sequence[str], column: str, delimiter: str = "comma") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITERS[delimiter], lineterminator="\n")
    writer.writerow([column])
    writer.writerows([text] for text in texts)
    return buffer.getvalue()


def write_jsonl_inputs(texts: Sequence[str], field: str) -> str:
    return "".join(json.dumps({field: text}, ensure_ascii=False) + "\n" for text in texts)
