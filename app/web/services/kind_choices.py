"""The kinds an organiser may add a track of: the built-in ones and those defined on this board
(a bundle's ``kinds:``, stored with its tracks), each saying where it comes from."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.data.models import Challenge, Track
from app.web.errors import DomainError
from scorer.kinds import TRACK_KIND_LABELS

BUILT_IN = "built in"


@dataclass(frozen=True)
class KindChoice:
    value: str
    """A built-in track kind (``e2e``), or a defined kind's profile name (``name@digest``: two
    bundles may define two kinds of one name)."""
    title: str
    origin: str
    """``built in``, or the challenge whose tracks first brought the definition."""

    @property
    def label(self) -> str:
        return f"{self.title} · {self.origin}"


def kind_choices(session: Session) -> list[KindChoice]:
    """The built-in kinds (as ``built_in.yaml`` labels them), then each kind defined on this
    board once, in the order it came, titled by its definition."""
    choices = [KindChoice(kind, label, BUILT_IN) for kind, label in TRACK_KIND_LABELS.items()]
    defined: dict[str, KindChoice] = {}
    tracks = session.scalars(
        select(Track)
        .where(Track.kind_definition.isnot(None))
        .options(selectinload(Track.challenge))
        .order_by(Track.id)
    )
    for track in tracks:
        if track.profile not in defined:
            challenge = track.challenge
            origin = f"from challenge {challenge.title} ({challenge.slug})"
            defined[track.profile] = KindChoice(track.profile, track.scoring_profile.title, origin)
    return choices + list(defined.values())


def defined_kind(session: Session, choice: str) -> dict | None:
    """The definition a choice of ``kind_choices`` stands for (stored with the tracks that
    brought it), or None for a built-in kind: what the import is given with it."""
    if choice in TRACK_KIND_LABELS:
        return None
    tracks = session.scalars(select(Track).where(Track.kind_definition.isnot(None)))
    return next((track.kind_definition for track in tracks if track.profile == choice), None)


def chosen_kind(session: Session, given: str) -> tuple[str, dict | None]:
    """(the kind's name, its definition or None for a built-in) for a kind named on the
    command line: a built-in kind, a defined kind's ``name@digest``, or its bare name where
    one defined kind has it; a DomainError lists the choices otherwise."""
    if given in TRACK_KIND_LABELS:
        return given, None
    defined: dict[str, dict] = {}
    for track in session.scalars(select(Track).where(Track.kind_definition.isnot(None))):
        defined.setdefault(track.profile, track.kind_definition or {})
    named = [value for value in defined if given in (value, value.split("@")[0])]
    if len(named) == 1:
        definition = defined[named[0]]
        return str(definition["name"]), definition
    listed = ", ".join(f"{c.value} ({c.origin})" for c in kind_choices(session))
    which = (
        f"{given!r} names {len(named)} kinds defined on this board"
        if named
        else f"no kind {given!r}"
    )
    raise DomainError(f"{which}: give one of {listed}")


def challenge_kind(challenge: Challenge) -> str | None:
    """The choice its newest track was added with, or None (no track yet): the form's
    default, so a challenge's next track (a language, a subset, a split) is of its kind
    without the organiser picking it again from a list that starts with E2E."""
    if not challenge.tracks:
        return None
    newest = max(challenge.tracks, key=lambda track: track.id)
    return newest.kind if newest.kind_definition is None else newest.profile
