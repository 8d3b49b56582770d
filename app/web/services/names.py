"""Names people give their teams and systems.

They reach HTML, CSV, LaTeX and log lines, so they hold printable text only: no NUL or other
control character (C0, DEL, C1), no line or paragraph separator, and none of the characters
that reorder the text shown around them (the bidirectional embeddings, overrides and isolates
and the direction marks), with which "lanigiro" can be shown as "original".
"""

from __future__ import annotations

import unicodedata

from app.web.services import DomainError

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Arabic letter mark, LRM/RLM, LRE/RLE/PDF/LRO/RLO and LRI/RLI/FSI/PDI."""
REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def is_refused(char: str) -> bool:
    return char in BIDI_CONTROLS or unicodedata.category(char) in REFUSED_CATEGORIES


def check_name(name: str, what: str, max_length: int) -> str:
    """The name with its spaces tidied (runs made one, none at the ends), or a DomainError
    saying which character is refused and where, or that the length is wrong."""
    for position, char in enumerate(name, start=1):
        if is_refused(char):
            raise DomainError(
                f"the {what} may hold no control or text-direction characters: "
                f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')}) at "
                f"character {position}"
            )
    tidy = " ".join(name.split())
    if not tidy or len(tidy) > max_length:
        raise DomainError(f"give the {what} 1 to {max_length} characters")
    return tidy


def printable(text: str) -> str:
    """``text`` with refused characters dropped: for names stored before they were refused,
    written where such a character would break the file (a LaTeX table row) or mislead."""
    return "".join(char for char in text if not is_refused(char))
