"""What each kind of track reads: outputs checked against the test inputs (one per input, in
test order) and references, for the track profiles (``scorer.kinds``) to plug in."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.errors import InputError
from scorer.io import drs, e2e, sr18, webnlg
from scorer.io.differences import first_difference
from scorer.io.text import decode_text, split_lines
from scorer.normalise import normalise_e2e


def _needed(inputs: Sequence[str] | None, filename: str) -> Sequence[str]:
    if inputs is None:
        raise InputError("cannot be checked: the test set has no inputs", filename=filename)
    return inputs


def read_e2e_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """Read E2E outputs and check them against the test MRs: one output per MR, in order."""
    inputs = _needed(inputs, filename)
    outputs, table = e2e.read_output_table(data, filename)
    if table is not None:
        _check_rows(table, inputs, filename)
    elif len(outputs) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} outputs (one per test MR, in test order), found "
            f"{len(outputs)} lines{_count_hint(outputs, len(inputs), 'line')}",
            filename=filename,
        )
    return outputs


def _check_rows(table: e2e.Table, inputs: Sequence[str], filename: str) -> None:
    """Each row's MR against the test MR of its place, naming the first row out of step (a lost
    line break or a stray quote joins two rows; the row after them is where it shows)."""
    expected = [_comparable_mr(mr) for mr in inputs]
    for index, (mr, line) in enumerate(zip(table.mrs, table.lines, strict=True)):
        if index >= len(inputs):
            raise InputError(
                f"a row past the last of the {len(inputs)} test MRs (one output per test MR, "
                "in test order)",
                filename=filename,
                line=line,
            )
        found = _comparable_mr(mr)
        if found != expected[index]:
            raise InputError(
                _mismatch(found, expected, index) + _joined_rows_hint(table, index),
                filename=filename,
                line=line,
            )
    if len(table.mrs) < len(inputs):
        missing = len(table.mrs)
        raise InputError(
            f"expected {len(inputs)} outputs (one per test MR, in test order), found "
            f"{len(table.mrs)} after the header: the rows stop at test MR {missing}, and test MR "
            f"{missing + 1} ({_start(inputs[missing])}) and those after it have none"
            + _joined_rows_hint(table, missing),
            filename=filename,
            line=table.lines[-1] if table.lines else None,
        )


def _mismatch(found: str, expected: Sequence[str], index: int) -> str:
    """What differs, shown where it differs, and which test MR the row's MR is, if any."""
    difference = first_difference(found, expected[index])
    said = (
        f"the MR {difference.found!r} differs from test MR {index + 1} "
        f"{difference.expected!r} at character {difference.position + 1}"
    )
    if found in expected:
        other = expected.index(found) + 1
        place = "missing" if other > index + 1 else "repeated"
        said += f"; it is test MR {other} (a row {place} before it, or rows out of order?)"
    return said + "; outputs must follow the test-set order"


def _joined_rows_hint(table: e2e.Table, index: int) -> str:
    """A row running over several lines swallowed the rows after its opening quote."""
    for row in range(min(index, len(table.lines)) - 1, -1, -1):
        first, last = table.lines[row], table.last_lines[row]
        if last > first:
            return (
                f" (the row on line {first} runs on to line {last}: a '\"' there opens a quoted "
                "field that only a later quote closes; double the quote or quote the whole field)"
            )
    return ""


ANOTHER_FILE_LINES = 3
"""A count off by more than this many (and by more than ``ANOTHER_FILE_SHARE`` of the test
set) is not a line break lost or doubled: it is the file of another test set or track."""
ANOTHER_FILE_SHARE = 0.01


def another_file(found: int, expected: int) -> bool:
    """Whether ``found`` texts for ``expected`` items are too far off for a slip of a line
    break (a Russian file of 1,102 lines on the English track's 1,779 entries)."""
    off = abs(found - expected)
    return off > ANOTHER_FILE_LINES and off > ANOTHER_FILE_SHARE * expected


def _count_hint(texts: Sequence[str], expected: int, unit: str) -> str:
    """Where a lost or extra line break probably is: a line much longer than the others when
    one is missing, the first empty one when there are too many; for a count far off, that
    this is another file (no line break explains hundreds of lines)."""
    if another_file(len(texts), expected):
        return (
            f"; {abs(len(texts) - expected):,} {unit}s too {'few' if len(texts) < expected else 'many'}"
            f" ({expected:,} expected, {len(texts):,} found): another file? (another test set, "
            "track or language's outputs)"
        )
    if len(texts) < expected and texts:
        lengths = sorted(len(text) for text in texts)
        longest = max(range(len(texts)), key=lambda k: len(texts[k]))
        if len(texts[longest]) > 1.8 * max(lengths[len(lengths) // 2], 1):
            return (
                f"; {unit} {longest + 1} ({len(texts[longest])} characters, the longest) may hold "
                "two outputs joined by a lost line break"
            )
        return "; is a line break missing?"
    if len(texts) > expected:
        empty = next((k for k, text in enumerate(texts) if not text), None)
        if empty is not None:
            return f"; {unit} {empty + 1} is empty: is a line break doubled?"
        return "; is an output split over two lines?"
    return ""


def _start(text: str, length: int = 60) -> str:
    return repr(text if len(text) <= length else text[:length] + "…")


def _comparable_mr(mr: str) -> str:
    """An MR as both sides are compared: the table fixes, wrapping quotes and spacing undone."""
    return normalise_e2e(e2e.fix_characters(mr))


def read_e2e_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """A reference table (``mr,ref``, any header the E2E script knows) or grouped plain text."""
    return e2e.read_references(data, filename)


def read_sr18_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """One reference per sentence, from ``# text =`` blocks (the Sentences files) or lines."""
    sentences = sr18.read_sentences(data, filename)
    return [e2e.ReferenceItem("", (text,)) for text in sentences]


def _one_text_per_input(
    data: bytes, inputs: Sequence[str] | None, filename: str, expected: str
) -> list[str]:
    inputs = _needed(inputs, filename)
    texts = sr18.read_sentences(data, filename)
    if len(texts) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} {expected}, found {len(texts)}"
            + _count_hint(texts, len(inputs), "sentence"),
            filename=filename,
        )
    return texts


def read_sr18_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """Read one language's SR'18 outputs: one sentence per input tree, in input order."""
    return _one_text_per_input(
        data, inputs, filename, "sentences (one per input tree, in input order)"
    )


def read_drs_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """One generated text per DRS, in test order (plain lines or ``# text =`` blocks)."""
    return _one_text_per_input(
        data, inputs, filename, "texts (one per DRS, in test order, challenge-set items included)"
    )


def read_drs_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """``nlg-score --profile drs``: the ``.raw`` sentences, or an SBN file's text column."""
    if drs.looks_like_sbn(data):
        return [
            e2e.ReferenceItem(item.drs, (item.text or "",))
            for item in drs.read_sbn_file(data, filename)
        ]
    return [e2e.ReferenceItem("", (text,)) for text in drs.read_sentences(data, filename)]


def read_webnlg_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """One output per line, line k for entry ``Idk`` (as evaluation.py pairs them)."""
    return read_line_outputs(data, inputs, filename, "one output per test entry, in eid order")


def read_line_outputs(
    data: bytes,
    inputs: Sequence[str] | None,
    filename: str,
    expected: str = "one output per test item, in test order",
) -> list[str]:
    """One output per line, one line per test input; blank lines after the last are dropped
    (the official scripts read them as no item)."""
    inputs = _needed(inputs, filename)
    lines = split_lines(decode_text(data, filename))
    if len(lines) > len(inputs) and not "".join(lines[len(inputs) :]).strip():
        lines = lines[: len(inputs)]
    if len(lines) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} lines ({expected}), found {len(lines)}"
            + _count_hint(lines, len(inputs), "line"),
            filename=filename,
        )
    return lines


def read_webnlg_inputs(data: bytes, filename: str) -> list[str]:
    """``testdata_no_lex.xml``: each entry's triple set on one line, in eid order."""
    return [entry.input for entry in webnlg.read_inputs(data, filename)]
