"""Warnings about an output file that reads but is probably not what its sender meant: it is
scored all the same (an empty output is a legal, if poor, answer), but the sender is told.

Every gate reads a file with the kind's reader and then asks ``Profile.output_warnings``, which
calls these: ``nlg-score`` (stderr, ``--json`` ``notes``), ``nlgboard-submit``'s check and the
board's upload (the API's ``warnings``, the upload page's message).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.io.text import decode_text, split_lines

EMPTY_NAMED = 5
"""Empty outputs named one by one; more are counted in one further warning."""


@dataclass(frozen=True)
class FileWarning:
    """Something odd about a file that is accepted: ``str()`` names the file, the line (when
    there is one) and the rule, as an ``InputError`` does."""

    message: str
    rule: str
    filename: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = ", ".join(
            part
            for part in (self.filename, f"line {self.line}" if self.line is not None else None)
            if part
        )
        said = f"{self.message} [{self.rule}]"
        return f"{where}: {said}" if where else said


def empty_outputs(texts: Sequence[str], data: bytes, filename: str) -> list[FileWarning]:
    """One warning per empty (or blank) output, naming its line: an empty line in the middle
    of a file is more often a slip (a line break doubled, a decoding failure) than an answer."""
    empty = [position for position, text in enumerate(texts) if not text.strip()]
    if not empty:
        return []
    lines = output_lines(data, len(texts))
    found = [
        FileWarning(
            f"output {position + 1} is empty: it scores as no text (a doubled line break, or "
            "an item the system gave nothing for?)",
            "empty-output",
            filename,
            lines[position] if lines else None,
        )
        for position in empty[:EMPTY_NAMED]
    ]
    if len(empty) > EMPTY_NAMED:
        found.append(
            FileWarning(
                f"{len(empty) - EMPTY_NAMED} more outputs are empty ({len(empty)} of "
                f"{len(texts)} in all)",
                "empty-output",
                filename,
            )
        )
    return found


def output_lines(data: bytes, count: int) -> list[int] | None:
    """The line of each of ``count`` outputs, where the file's layout says it for certain: one
    output per line (blank lines after the last dropped, as the readers drop them), or a
    header line then one per line (E2E's table); None for other layouts (blocks)."""
    lines = split_lines(decode_text(data))
    while len(lines) > count and not lines[-1].strip():
        lines.pop()
    if len(lines) == count:
        return list(range(1, count + 1))
    if len(lines) == count + 1 and all(line.strip() for line in lines):  # blocks have blanks
        return list(range(2, count + 2))
    return None
