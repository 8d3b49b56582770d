"""JSON that a person gave, read within limits: how deep arrays and objects nest, and how many
characters one value holds.

Python's ``json`` recurses once per nesting level, so 100,000 ``[`` (100 KB, far under any
upload cap) end in a ``RecursionError`` instead of a refusal, and a value that does parse deep
is a hazard for everything that walks it later (``json.dumps`` when it is stored, the
templates). Every reader of given JSON (JSON Lines records, the ``json-lists`` references
layout, WebNLG+ 2020's instance types, a bundle's items) goes through here, so a bad file is
an ``InputError`` naming the file, the line and the limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scorer.errors import InputError

MAX_DEPTH = 100
"""Arrays and objects nested in one another: a test item's input is a few levels deep (a
table, a graph of triples), and 100 stays far below the interpreter's recursion limit for the
code that walks a value after it is read."""

MAX_RECORD_CHARS = 4 * 2**20
"""One JSON Lines record (one test item: its input, references and attributes): a long input
document with many references is some tens of KB."""

MAX_DOCUMENT_CHARS = 64 * 2**20
"""One JSON document read whole (the ``json-lists`` references of a test set, an instance-types
file): the upload and bundle caps bound the files; this bounds what one parse builds."""

_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')
"""A JSON string (skipped whole: brackets in it do not nest; an unclosed one runs to the end,
for the decoder to refuse) or a bracket."""


def nesting_position(text: str, max_depth: int = MAX_DEPTH) -> int | None:
    """Where in ``text`` arrays and objects first nest deeper than ``max_depth`` (the offset
    of the bracket that opens one level too many), or None. Counting brackets, not parsing:
    the check itself never recurses."""
    if text.count("[") + text.count("{") <= max_depth:
        return None  # cannot nest deeper than it has brackets
    depth = 0
    for token in _TOKENS.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > max_depth:
                return token.start()
        elif first in "]}":
            depth -= 1
    return None


def check_json_text(
    text: str,
    filename: str,
    line: int | None = None,
    *,
    max_chars: int = MAX_DOCUMENT_CHARS,
    max_depth: int = MAX_DEPTH,
) -> None:
    """Refuse JSON text longer than ``max_chars`` or nesting deeper than ``max_depth``,
    naming the file and the line (``line`` is where ``text`` starts in the file)."""
    if len(text) > max_chars:
        raise InputError(
            f"holds a JSON value of {len(text):,} characters; one may hold at most {max_chars:,}",
            filename=filename,
            line=line,
        )
    position = nesting_position(text, max_depth)
    if position is not None:
        at = (line or 1) + text.count("\n", 0, position)
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        raise InputError(
            f"nests arrays and objects more than {max_depth} deep (column {column}); "
            "a JSON value here may nest at most that deep",
            filename=filename,
            line=at,
        )


def load_json(
    text: str,
    filename: str,
    line: int | None = None,
    *,
    max_chars: int = MAX_DOCUMENT_CHARS,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """``json.loads`` of given text within the limits; broken JSON is an ``InputError`` naming
    the file, the line and the column."""
    check_json_text(text, filename, line, max_chars=max_chars, max_depth=max_depth)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"is not JSON ({error.msg}, column {error.colno})",
            filename=filename,
            line=(line or 1) + error.lineno - 1,
        ) from None
