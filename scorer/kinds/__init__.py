"""Track kinds: what decides a track's numbers, as data. A kind is a definition composed from
registries of verified parts (readers, normalisations, metrics with options, tokenisers,
analyses); a definition becomes a scoring ``Profile``. The built-in kinds (E2E, SR'18, DRS,
WebNLG 2017) are definitions too (``built_in.yaml``); organisers define theirs in a challenge
bundle. ``nlg-score`` resolves a profile from its name; on the board a track hands out its own
(built from the definition stored with it), so the registry is filled by whoever builds one.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any

from scorer.errors import KindError
from scorer.kinds.analyses import (
    describe_e2e,
    describe_references,
    described_signature,
    random_references,
)
from scorer.kinds.definitions import (
    BUILT_IN_KEYS,
    DEFINITIONS,
    PROFILES,
    build_built_in,
    build_profile,
    definition_digest,
    read_kinds,
)
from scorer.kinds.parts import READERS
from scorer.kinds.profile import InputsFile, Profile, truncate

_BUILT_IN_DEFINITIONS: dict[str, Mapping[str, Any]] = {}


def _load_built_in() -> None:
    """The built-in kinds, under their names and their track kinds' names (``sr-shallow`` and
    ``sr-deep`` score as ``sr18``)."""
    filename = "built_in.yaml"
    data = resources.files(__package__).joinpath(filename).read_bytes()
    for name, definition in read_kinds(data, filename).items():
        _BUILT_IN_DEFINITIONS[name] = definition
        profile = build_built_in(definition, f"{filename}: {name}")
        PROFILES[profile.name] = profile
        for kind in profile.track_kinds:
            PROFILES.setdefault(kind, profile)


_load_built_in()

BUILT_IN = tuple(PROFILES)
"""Names ``nlg-score --profile`` and the board know without a definition."""

TRACK_KINDS = {kind: p.name for p in PROFILES.values() for kind in p.track_kinds}
"""The board's track kinds -> the built-in profile that scores each."""

TRACK_KIND_LABELS = {
    kind: label
    for definition in _BUILT_IN_DEFINITIONS.values()
    for kind, label in definition["track_kinds"].items()
}
"""The board's track kinds -> how the organisers' form names them."""


def get_profile(name: str) -> Profile:
    """Look a profile up by name, with the list of known names in the error: a built-in kind,
    or a definition this process built (``build_profile``; on the board a track builds its
    own, ``Track.scoring_profile``). The scorer never goes looking for one."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r}; known: {', '.join(sorted(PROFILES))}") from None


def trained_variant(name: str | Mapping[str, Any], data: bytes, filename: str) -> dict[str, Any]:
    """The definition of the kind ``name`` (a built-in kind, a track kind, an organiser's
    profile ``name@digest`` or its definition itself) whose reader takes the options a
    training file sets (WebNLG: its categories are the seen ones), as an organiser's kind
    ``{name}-split`` (``--train``). Its scores are those of the kind; only the subsets differ."""
    base = _base_definition(name)
    reader = _reader_of(base)
    seen_in = READERS[reader["name"]].seen_in
    if seen_in is None:
        raise KindError(
            f"kind {base['name']}: its reader ({reader['name']}) takes no training file"
        )
    return variant_with(base, seen_in(data, filename))


def variant_with(name: str | Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """``trained_variant`` from reader options already read from a training file (a caller
    that reports them reads the file once)."""
    base = _base_definition(name)
    definition = {key: value for key, value in base.items() if key not in BUILT_IN_KEYS}
    definition["reader"] = {**_reader_of(base), **options}
    definition["name"] = f"{base['name']}-split"
    return definition


def _base_definition(name: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(name, Mapping):
        return name
    profile = get_profile(name).name
    return _BUILT_IN_DEFINITIONS.get(profile) or DEFINITIONS[profile]


def _reader_of(definition: Mapping[str, Any]) -> dict[str, Any]:
    reader = definition["reader"]
    return dict(reader) if isinstance(reader, Mapping) else {"name": reader}


def kind_definition(name: str) -> Mapping[str, Any]:
    """The definition of the built-in kind ``name`` (or of the one that scores a track kind)."""
    return _BUILT_IN_DEFINITIONS[get_profile(name).name]


def metric_id(profile: Profile, wanted: str) -> str | None:
    """The registry id of one of ``profile``'s metrics, given its id or its shown name."""
    return wanted if wanted in profile.metrics else profile.metric_ids.get(wanted)


__all__ = [
    "BUILT_IN", "PROFILES", "TRACK_KINDS", "TRACK_KIND_LABELS", "InputsFile", "KindError",
    "Profile", "build_profile", "definition_digest", "describe_e2e", "describe_references",
    "described_signature", "get_profile", "kind_definition", "metric_id", "random_references", "read_kinds",
    "trained_variant", "truncate", "variant_with",
]  # fmt: skip
