"""Passwords attackers try first: a list of common passwords, checked as Django checks it."""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

COMMON_PASSWORDS = Path(__file__).resolve().parent.parent / "passwords" / "common-passwords.txt.gz"
"""Django's list (see the README beside it): lower-cased, one a line."""


@cache
def common_passwords() -> frozenset[str]:
    """Read once per process, on first use (some 20,000 lines, ~10 ms)."""
    with gzip.open(COMMON_PASSWORDS, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines)


def is_common(password: str) -> bool:
    return password.lower().strip() in common_passwords()
