"""E2E NLG Challenge files: dataset CSV, test-input CSV, grouped plain-text references, outputs.

Layouts follow the e2e-dataset release and e2e-metrics' ``measure_scores.py``:

* dataset CSV: header ``mr,ref``, one row per (MR, reference), RFC 4180 quoting, CRLF or LF;
* input CSV: header ``MR`` (or ``mr``), one row per MR in test order;
* grouped plain text: one reference per line, a blank line between MRs;
* system output: TSV with header ``MR<TAB>output``, or plain text, one output per MR in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.errors import InputError
from scorer.io.table import csv_rows
from scorer.io.text import decode_text, split_lines

TSV_HEADER = ("mr", "output")


@dataclass(frozen=True)
class ReferenceItem:
    """One test item: its input (an MR for E2E) and all its references."""

    input: str
    references: tuple[str, ...]


def read_dataset_csv(data: bytes, filename: str = "references.csv") -> list[ReferenceItem]:
    """Group an ``mr,ref`` CSV into items, one per distinct MR, in first-appearance order.

    Grouping is by MR string, never by row: treating each row as an item is the GEM-metrics #27
    bug that turns 547 multi-reference items into 4,672 single-reference ones. The training set
    is shuffled, so grouping must not rely on rows of one MR being adjacent.
    """
    rows = _csv_rows(data, filename)
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    if header[:2] != ["mr", "ref"]:
        raise InputError(
            f"expected a header row 'mr,ref', found {','.join(rows[0]) if rows else 'nothing'!r}",
            filename=filename,
            line=1,
        )
    grouped: dict[str, list[str]] = {}
    for row_number, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise InputError(
                f"expected 2 fields (mr, ref), found {len(row)}", filename=filename, line=row_number
            )
        mr, ref = row[0].strip(), row[1].strip()
        if not mr:
            raise InputError("empty MR", filename=filename, line=row_number)
        if not ref:
            raise InputError("empty reference", filename=filename, line=row_number)
        grouped.setdefault(mr, []).append(ref)
    if not grouped:
        raise InputError("contains no references", filename=filename)
    return [ReferenceItem(mr, tuple(refs)) for mr, refs in grouped.items()]


def read_inputs_csv(data: bytes, filename: str = "inputs.csv") -> list[str]:
    """Read the test-input CSV (header ``MR``) into MRs in test order."""
    rows = _csv_rows(data, filename)
    if not rows or rows[0][0].strip().lower() != "mr":
        raise InputError("expected a header row 'MR'", filename=filename, line=1)
    mrs = []
    for row_number, row in enumerate(rows[1:], start=2):
        mr = row[0].strip() if row else ""
        if not mr:
            raise InputError("empty MR", filename=filename, line=row_number)
        mrs.append(mr)
    return mrs


def read_grouped_references(data: bytes, filename: str = "references.txt") -> list[list[str]]:
    """Read the plain-text layout: references one per line, a blank line between items."""
    groups: list[list[str]] = [[]]
    for line in split_lines(decode_text(data, filename)):
        if line.strip():
            groups[-1].append(line.strip())
        elif groups[-1]:
            groups.append([])
    return [group for group in groups if group]


def read_outputs(data: bytes, filename: str = "outputs") -> tuple[list[str], list[str] | None]:
    """Read system outputs; return them with the MR column when the file is a TSV.

    A file whose first line is ``MR<TAB>output`` (any case) is a TSV and every following line must
    have a tab; anything else is plain text, one output per line, empty lines being empty outputs.
    """
    lines = split_lines(decode_text(data, filename))
    if not lines or tuple(cell.strip().lower() for cell in lines[0].split("\t")) != TSV_HEADER:
        return [line.strip() for line in lines], None
    outputs, mrs = [], []
    for line_number, line in enumerate(lines[1:], start=2):
        if "\t" not in line:
            raise InputError(
                "expected 'MR<TAB>output' (no tab found); "
                "a TSV upload needs a tab on every line after the header",
                filename=filename,
                line=line_number,
            )
        mr, output = line.split("\t", 1)
        mrs.append(mr.strip())
        outputs.append(output.strip())
    return outputs, mrs


def _csv_rows(data: bytes, filename: str) -> list[list[str]]:
    return [row for _, row in csv_rows(data, filename) if row]
