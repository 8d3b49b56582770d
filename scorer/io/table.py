"""CSV files with a header row, read with the line each record starts on (for error messages)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from scorer.errors import InputError
from scorer.io.text import decode_text


@dataclass(frozen=True)
class Record:
    line: int
    values: dict[str, str]


def csv_problem(error: csv.Error) -> str:
    """What the csv module's complaint means for the person who made the file.

    A field longer than the module's limit (131,072 characters unless changed) is refused, as
    it is by the official scripts that read their tables with this module; it is nearly always
    a quote opened and never closed, which swallows the lines after it."""
    if "field larger than field limit" in str(error):
        return (
            f"a field of more than {csv.field_size_limit():,} characters, the most the CSV "
            "readers of the official scripts take (if no field is meant to be that long, a "
            "quote opened here is never closed)"
        )
    return f"malformed CSV: {error}"


def csv_rows(data: bytes, filename: str) -> Iterator[tuple[int, list[str]]]:
    """(line a row starts on, its fields) of a UTF-8 CSV; malformed quoting names the line."""
    reader = csv.reader(io.StringIO(decode_text(data, filename), newline=""), strict=True)
    line = 1
    try:
        for row in reader:
            yield line, row
            line = reader.line_num + 1
    except csv.Error as error:
        raise InputError(csv_problem(error), filename=filename, line=line) from None


def read_table(data: bytes, filename: str) -> tuple[list[str], list[Record]]:
    """Header and records of a UTF-8 CSV; blank lines skipped, ragged rows refused."""
    records: list[Record] = []
    header: list[str] | None = None
    for line, row in csv_rows(data, filename):
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header = [name.strip() for name in row]
        elif len(row) != len(header):
            raise InputError(
                f"{len(row)} fields where the header has {len(header)}",
                filename=filename,
                line=line,
            )
        else:
            records.append(Record(line, dict(zip(header, row, strict=True))))
    if header is None:
        raise InputError("is empty: expected a header row and records", filename=filename)
    return header, records


def require_columns(header: list[str], wanted: tuple[str, ...], filename: str) -> None:
    missing = [name for name in wanted if name not in header]
    if missing:
        raise InputError(
            f"lacks the column(s) {', '.join(missing)} (header: {', '.join(header)})",
            filename=filename,
            line=1,
        )
