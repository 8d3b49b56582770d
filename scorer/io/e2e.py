"""E2E NLG Challenge files, read the way the challenge's metric script (``measure_scores.py``)
reads them, since that script made the published figures.

* Tables (reference CSVs, output TSVs): every line stripped, empty lines dropped, the script's
  character fixes applied (``Ł``/``Â£`` -> ``£``, ``Ã©``/``ã©`` -> ``é``), then Python's csv
  module with ``"`` quoting, tab-delimited when the first line has a tab and comma-delimited
  otherwise. The header names the columns, as in the script: exactly one column matching the MR
  pattern (``mr``, ``src``, ``source``, ``meaning representation``, ``da``, ``dialogue act``...)
  and one matching the text pattern (references: ``ref``, ``reference``, ``target``, ``trg``,
  ``human reference``...; outputs: ``output``, ``out``, ``ref``, ``system output``...), matched
  case-insensitively at the start of the field. Quoted headers (``"mr","ref"``) are headers.
* Grouped plain text (references): one reference per line, a blank line between items; a file
  with no blank line has one reference per line and item, as in the script.
* Plain-text outputs: one output per line, an empty line an empty output.

Departures, each refusing or repairing what the script would choke on: a reference CSV must not
have empty MRs or references; in plain-text outputs ``\\r\\r\\n`` is one line end (the script
would count two lines and then refuse the file).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

from scorer.errors import InputError
from scorer.io.table import csv_problem
from scorer.io.text import decode_text, split_lines
from scorer.normalise import strip_wrapping_quotes

HEADER_MR = re.compile(
    r"(mr|src|source|meaning(?:[_ .-]rep(?:resentation)?)?|da|dial(?:ogue)?[_ .-]act)s?",
    re.IGNORECASE,
)
HEADER_OUTPUT = re.compile(
    r"(out(?:put)?|ref(?:erence)?|sys(?:tem)?(?:[_ .-](?:out(?:put)?|ref(?:erence)?))?)s?",
    re.IGNORECASE,
)
HEADER_REFERENCE = re.compile(
    r"(trg|tgt|target|ref(?:erence)?|human(?:[_ .-](?:ref(?:erence)?))?)s?", re.IGNORECASE
)
"""The column-name patterns of ``measure_scores.py`` (HEADER_SRC, HEADER_SYS, HEADER_REF)."""

CHARACTER_FIXES = (("Ł", "£"), ("Â£", "£"), ("Ã©", "é"), ("ã©", "é"))
"""The script's repairs of table lines: a code-page ``£`` and UTF-8 read as Latin-1."""

_TABLE_SUFFIXES = (".csv", ".tsv")
_LOOKS_LIKE_MR = re.compile(r"^[\"']?\s*[A-Za-z][A-Za-z ]*\[[^\]]*\]")


@dataclass(frozen=True)
class ReferenceItem:
    """One test item: its input (an MR for E2E) and all its references."""

    input: str
    references: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A table file's MR column and text column, each row with the file line it starts on."""

    mrs: list[str]
    texts: list[str]
    lines: list[int]
    last_lines: list[int] = field(default_factory=list)
    """The line each row ends on: later than its first when a quoted field runs on (the
    script's csv reader joins the lines without a line break)."""


Lines = list[tuple[int, str]]
"""(file line, stripped and repaired line) of every non-empty line of a table file."""


def fix_characters(text: str) -> str:
    for wrong, right in CHARACTER_FIXES:
        text = text.replace(wrong, right)
    return text


def _table_lines(text: str) -> Lines:
    """The lines as the script reads a table: stripped, repaired, empty ones dropped."""
    numbered = enumerate(text.splitlines(), start=1)
    return [(number, fix_characters(line.strip())) for number, line in numbered if line.strip()]


def _delimiter(lines: Lines) -> str:
    """Tab when the first line has one, comma otherwise (the script's rule)."""
    return "\t" if lines and "\t" in lines[0][1] else ","


def _records(lines: Lines, filename: str) -> list[tuple[int, int, list[str]]]:
    """(file lines a record starts and ends on, its fields), parsed as the script's csv reader
    does; a
    quoted field left open at the end of the file is refused, since the csv module would
    silently swallow every line after the opening quote into it."""
    delimiter = _delimiter(lines)
    reader = csv.reader((line for _, line in lines), delimiter=delimiter)
    records: list[tuple[int, int, list[str]]] = []
    consumed = last_start = 0
    try:
        for row in reader:
            last_start = consumed
            records.append((lines[consumed][0], lines[reader.line_num - 1][0], row))
            consumed = reader.line_num
    except csv.Error as error:
        raise InputError(csv_problem(error), filename=filename, line=lines[consumed][0]) from None
    try:  # only the last record can end inside quotes
        for _ in csv.reader(
            (line for _, line in lines[last_start:]), delimiter=delimiter, strict=True
        ):
            pass
    except csv.Error as error:
        if "unexpected end of data" in str(error):
            raise InputError(
                "a quoted field is never closed: it runs to the end of the file (a missing '\"'?)",
                filename=filename,
                line=records[-1][0],
            ) from None
    return records


def _header_columns(fields: list[str], text_pattern: re.Pattern) -> tuple[list[int], list[int]]:
    """Columns whose names match; a name wrapped in single quotes ('MR') counts, as the rows of
    the files that wrap every field in them are read."""
    names = [strip_wrapping_quotes(field.strip()) for field in fields]
    mr = [i for i, name in enumerate(names) if HEADER_MR.match(name)]
    text = [i for i, name in enumerate(names) if text_pattern.match(name)]
    return mr, text


def _first_fields(lines: Lines) -> list[str]:
    """The fields of the first line; none when the csv module cannot read it (a line too long
    for a field is no header, and a plain-text file may have one: the script reads those
    without the csv module)."""
    try:
        return next(csv.reader([lines[0][1]], delimiter=_delimiter(lines)), []) if lines else []
    except csv.Error:
        return []


def _names_columns(lines: Lines, text_pattern: re.Pattern) -> bool:
    """Whether the first non-empty line names one MR column and one text column."""
    mr, text = _header_columns(_first_fields(lines), text_pattern)
    return len(mr) == 1 and len(text) == 1 and mr != text


def has_table_header(data: bytes, text_pattern: re.Pattern) -> bool:
    """Whether the first non-empty line names an MR column and a text column."""
    try:
        text = decode_text(data, "file")
    except InputError:
        return False
    return _names_columns(_table_lines(text), text_pattern)


def _table(lines: Lines, filename: str, text_pattern: re.Pattern, text_name: str) -> Table:
    """The MR and text columns of a CSV/TSV with a header, as ``read_tsv`` of the script."""
    if not lines:
        raise InputError("is empty", filename=filename)
    rows = _records(lines, filename)
    header = rows[0][2]
    mr_cols, text_cols = _header_columns(header, text_pattern)
    if not (len(mr_cols) == len(text_cols) == 1) or mr_cols == text_cols:
        raise InputError(
            f"the header {header!r} must name exactly one MR column (mr, src, source, meaning "
            f"representation, da, dialogue act) and one {text_name} column "
            f"({_PATTERN_EXAMPLES[text_name]}); found {len(mr_cols)} MR and "
            f"{len(text_cols)} {text_name} columns",
            filename=filename,
            line=rows[0][0],
        )
    width = len(header)
    mrs, texts, numbers, ends = [], [], [], []
    for number, end, row in rows[1:]:
        if len(row) != width:
            hint = " (is a tab or a quote missing?)" if len(row) < width else ""
            raise InputError(
                f"{len(row)} fields where the header has {width}{hint}",
                filename=filename,
                line=number,
            )
        mrs.append(row[mr_cols[0]])
        texts.append(row[text_cols[0]])
        numbers.append(number)
        ends.append(end)
    return Table(mrs, texts, numbers, ends)


_PATTERN_EXAMPLES = {
    "reference": "ref, reference, target, trg, tgt, human reference",
    "output": "output, out, system output, ref",
}


def read_dataset_csv(data: bytes, filename: str = "references.csv") -> list[ReferenceItem]:
    """Group a reference table (``mr,ref``) into items, one per distinct MR, in first-appearance
    order.

    Grouping is by MR string, never by row: treating each row as an item is the GEM-metrics #27
    bug that turns 547 multi-reference items into 4,672 single-reference ones. The training set
    is shuffled, so grouping must not rely on rows of one MR being adjacent (the script regroups
    by MR the same way whenever the outputs carry their MRs).
    """
    return _group(_table_lines(decode_text(data, filename)), filename)


def _group(lines: Lines, filename: str) -> list[ReferenceItem]:
    table = _table(lines, filename, HEADER_REFERENCE, "reference")
    grouped: dict[str, list[str]] = {}
    for mr, ref, line in zip(table.mrs, table.texts, table.lines, strict=True):
        if not mr.strip():
            raise InputError("empty MR", filename=filename, line=line)
        if not ref.strip():
            raise InputError("empty reference", filename=filename, line=line)
        grouped.setdefault(mr, []).append(ref.strip())
    if not grouped:
        raise InputError("contains no references (only a header)", filename=filename)
    return [ReferenceItem(mr, tuple(refs)) for mr, refs in grouped.items()]


def read_inputs_csv(data: bytes, filename: str = "inputs.csv") -> list[str]:
    """Read the test-input CSV (a header ``MR``, any quoting) into MRs in test order."""
    lines = _table_lines(decode_text(data, filename))
    header = _first_fields(lines)
    if not header or not HEADER_MR.match(header[0]):
        raise InputError(
            f"expected a header row 'MR', found {lines[0][1][:80]!r}" if lines else "is empty",
            filename=filename,
            line=1,
        )
    mrs = []
    for line, _, row in _records(lines, filename)[1:]:
        mr = row[0].strip() if row else ""
        if not mr:
            raise InputError("empty MR", filename=filename, line=line)
        mrs.append(mr)
    return mrs


def read_grouped_references(data: bytes, filename: str = "references.txt") -> list[list[str]]:
    """Read the plain-text layout: references one per line, a blank line between items; with no
    blank line at all, every line is an item with one reference (as the script reads it)."""
    return _grouped(decode_text(data, filename))


def _grouped(text: str) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for line in split_lines(text):
        if line.strip():
            groups[-1].append(line.strip())
        elif groups[-1]:
            groups.append([])
    groups = [group for group in groups if group]
    if len(groups) == 1:
        return [[ref] for ref in groups[0]]
    return groups


def read_references(data: bytes, filename: str = "references") -> list[ReferenceItem]:
    """A reference table (items carry their MRs) or the grouped plain text (no MRs).

    A file that names no MR and reference columns is read as plain text, unless it is called
    ``.csv``/``.tsv`` or its first line holds an MR: then it is refused, so a CSV can never
    silently become plain text (one item, or one item per row).
    """
    text = decode_text(data, filename)
    lines = _table_lines(text)
    if _names_columns(lines, HEADER_REFERENCE):
        return _group(lines, filename)
    first = lines[0][1] if lines else ""
    if filename.lower().endswith(_TABLE_SUFFIXES) or _LOOKS_LIKE_MR.match(first):
        raise InputError(
            f"reads as a table of MRs and references, but its first line {first[:80]!r} is not "
            "a header naming an MR column (mr, src, source, meaning representation) and a "
            f"reference column ({_PATTERN_EXAMPLES['reference']}); add such a header, or give "
            "plain text: one reference per line, a blank line between items",
            filename=filename,
            line=1,
        )
    return [ReferenceItem("", tuple(refs)) for refs in _grouped(text)]


def read_outputs(data: bytes, filename: str = "outputs") -> tuple[list[str], list[str] | None]:
    """System outputs, with the MR column when the file is a table.

    A table is recognised by its header (an MR column and an output column), whatever the file
    is called; anything else is plain text, one output per line. A ``.csv``/``.tsv`` file with
    no such header is refused rather than read as plain text.
    """
    outputs, table = read_output_table(data, filename)
    return outputs, table.mrs if table is not None else None


def read_output_table(data: bytes, filename: str = "outputs") -> tuple[list[str], Table | None]:
    """``read_outputs`` with the table itself (MRs, outputs and the line each row starts on),
    so that a message about a row can name its line; None for plain text."""
    text = decode_text(data, filename)
    table_lines = _table_lines(text)
    if _names_columns(table_lines, HEADER_OUTPUT):
        table = _table(table_lines, filename, HEADER_OUTPUT, "output")
        outputs = [output.strip() for output in table.texts]
        mrs = [mr.strip() for mr in table.mrs]
        return outputs, Table(mrs, outputs, table.lines, table.last_lines)
    lines = split_lines(text)
    if filename.lower().endswith(_TABLE_SUFFIXES) and lines and "\t" in lines[0]:
        raise InputError(
            f"the first line {lines[0][:80]!r} is not a header naming an MR column (mr, src) "
            f"and an output column ({_PATTERN_EXAMPLES['output']}); a TSV of outputs starts "
            "with a header such as 'MR<TAB>output'",
            filename=filename,
            line=1,
        )
    return [line.strip() for line in lines], None
