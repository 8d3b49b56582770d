"""Where two texts part, for error messages: excerpts around the first difference instead of
each text's first 80 characters (two long E2E MRs that differ near their end looked identical
when both were cut there)."""

from __future__ import annotations

from dataclasses import dataclass

CONTEXT = 30
"""Characters shown on each side of the first difference."""
ELLIPSIS = "…"


@dataclass(frozen=True)
class Difference:
    position: int
    """0-based index of the first character that differs (the shorter text's length when one
    is the start of the other)."""
    found: str
    expected: str
    """Excerpts of both texts around ``position``, with ``…`` where they were cut."""


def first_difference(found: str, expected: str, context: int = CONTEXT) -> Difference:
    """The excerpts start at a ``", "`` (an E2E slot boundary) when one is close enough, so
    the slot that differs is shown whole."""
    position = _common_prefix(found, expected)
    start = max(0, position - context)
    boundary = found.find(", ", start, position)
    if boundary >= 0:
        start = boundary + 2
    return Difference(
        position,
        _excerpt(found, start, position + context),
        _excerpt(expected, start, position + context),
    )


def _common_prefix(first: str, second: str) -> int:
    for position, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return position
    return min(len(first), len(second))


def _excerpt(text: str, start: int, end: int) -> str:
    head = ELLIPSIS if start > 0 else ""
    tail = ELLIPSIS if end < len(text) else ""
    return head + text[start:end] + tail
