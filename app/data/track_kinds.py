"""A track's scoring profile, from what is stored with the track: the one place the board turns
a stored kind into a ``Profile`` (``Track.scoring_profile`` asks it).

The scorer's registry (``scorer.kinds.PROFILES``) is a pure lookup: it never opens a database.
The board fills it instead: a track whose kind an organiser defined builds its profile from its
definition the first time this process asks (``build_profile`` registers it under the name the
track stores, ``name@digest``), and every later ask, by the track or by that name, is a lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.kinds import (
    PROFILES,
    TRACK_KINDS,
    Profile,
    build_profile,
    definition_digest,
    get_profile,
)


def profile_of(kind: str, definition: Mapping[str, Any] | None, where: str) -> Profile:
    """The profile that scores a track of ``kind``: a built-in one, or the one its stored
    ``definition`` describes, built once per process. ``where`` names the track in a refusal."""
    name = profile_name(kind, definition)
    if definition is None:
        return get_profile(name)
    return PROFILES.get(name) or build_profile(definition, where)


def profile_name(kind: str, definition: Mapping[str, Any] | None) -> str:
    """The name of the profile that scores a track of ``kind``: a built-in kind's profile, or
    ``name@digest`` of the definition an organiser gave (what ``build_profile`` registers it
    under). Derived, never stored: the kind and its definition are the one record of it."""
    if definition is None:
        return TRACK_KINDS[kind]
    return f"{definition['name']}@{definition_digest(definition)}"
