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

from scorer.kinds import PROFILES, Profile, build_profile, get_profile


def profile_of(name: str, definition: Mapping[str, Any] | None, where: str) -> Profile:
    """The profile named ``name`` (a track's ``profile``): a built-in one, or the one its stored
    ``definition`` describes, built once per process. ``where`` names the track in a refusal."""
    if definition is None:
        return get_profile(name)
    return PROFILES.get(name) or build_profile(definition, where)
