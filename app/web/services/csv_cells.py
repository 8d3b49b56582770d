"""Cells of every CSV file the board writes: a spreadsheet must not run what a participant typed.

OWASP's advice for CSV injection: a text cell starting like a formula (``=``, ``+``, ``-``, ``@``,
a tab or a carriage return) gets a leading quote. Numbers stay numbers (a negative z-score is a
number, not a formula).
"""

from __future__ import annotations

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text
