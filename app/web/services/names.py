"""Names and titles people type: challenge and track titles, team, system and campaign names.

They reach HTML, CSV, LaTeX, mail subjects and log lines, so they hold printable text only: no
NUL or other control character (C0, DEL, C1: a CR/LF in a title would break every mail
subject of its track), no line or paragraph separator, and none of the characters that reorder
the text shown around them (the bidirectional embeddings, overrides and isolates and the
direction marks), with which "lanigiro" can be shown as "original".

Every gate (web forms, API, CLI, bundles, imports) stores these through the ORM, so the check
also runs on every flush (``_check_typed_text``): whichever gate a row came through, a new or
changed title or name with such a character is refused with a DomainError naming the field.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from app.data.models import Campaign, Challenge, System, Team, Track
from app.web.errors import DomainError

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Arabic letter mark, LRM/RLM, LRE/RLE/PDF/LRO/RLO and LRI/RLI/FSI/PDI."""
REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def is_refused(char: str) -> bool:
    return char in BIDI_CONTROLS or unicodedata.category(char) in REFUSED_CATEGORIES


def check_text(text: str, what: str) -> str:
    """``text`` as it is, or a DomainError saying which character is refused and where."""
    for position, char in enumerate(text, start=1):
        if is_refused(char):
            raise DomainError(
                f"the {what} may hold no control or text-direction characters: "
                f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')}) at "
                f"character {position}; type it on one line, without line breaks or tabs"
            )
    return text


def check_name(name: str, what: str, max_length: int) -> str:
    """The name with its spaces tidied (runs made one, none at the ends), or a DomainError
    saying which character is refused and where, or that the length is wrong."""
    check_text(name, what)
    tidy = " ".join(name.split())
    if not tidy or len(tidy) > max_length:
        raise DomainError(f"give the {what} 1 to {max_length} characters")
    return tidy


def printable(text: str) -> str:
    """``text`` with refused characters dropped: for names stored before they were refused,
    written where such a character would break the file (a LaTeX table row) or mislead."""
    return "".join(char for char in text if not is_refused(char))


TYPED_TEXT: dict[type, tuple[str, str]] = {
    Challenge: ("title", "challenge title"),
    Track: ("title", "track title"),
    Team: ("name", "team name"),
    System: ("name", "system name"),
    Campaign: ("name", "campaign name"),
}
"""The columns people type, and what the error calls them."""


@event.listens_for(Session, "before_flush")
def _check_typed_text(session: Session, context: Any, instances: Any) -> None:
    """New rows, and rows whose typed column changed (one stored before the rule is left as
    it is until someone edits it)."""
    for row in (*session.new, *session.dirty):
        found = TYPED_TEXT.get(type(row))
        if found is None:
            continue
        column, what = found
        value = getattr(row, column)
        if isinstance(value, str) and (
            row in session.new or inspect(row).attrs[column].history.has_changes()
        ):
            check_text(value, what)
