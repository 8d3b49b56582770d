"""How the board imports a kind's test sets, as data of the kind (its definition's ``import:``
key, built-in or an organiser's): which files and settings an import needs, whether a track
holds one test set per language, its default titles and language, the named subsets its test
sets grow by, and the bundled baselines (``baselines/runs``) whose runs belong to it. A new
kind says these in its definition, never as a branch on its name in the importer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.data.models import Track
from scorer.errors import KindError
from scorer.kinds import TRACK_KINDS, kind_definition

NEEDS = ("language", "inputs", "references")
"""What an import may need, each named in the refusal by the text the kind gives it."""

RULE_KEYS = {"needs", "language", "per_language", "titles", "grows_by", "bundled_baselines"}


@dataclass(frozen=True)
class ImportRule:
    """One kind's ``import:`` key, checked."""

    needs: Mapping[str, str] = field(default_factory=lambda: {"references": "the references"})
    """What an import must give -> how the refusal names it (in this order)."""
    language: str | None = None
    """The test set's language when the import gives none."""
    per_language: bool = False
    """One test set per language on one track (``Track.language`` "mul"), added one by one;
    otherwise the track is created with its one test set."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """Track kind -> a new track's title when the import gives none (else its slug)."""
    grows_by: tuple[str, ...] = ()
    """Named subsets a test set grows by, the first the default (PMB 5's standard, long, ...);
    empty: a test set is imported whole, its subsets read from its items' attributes."""
    bundled_baselines: tuple[str, ...] = ()
    """The bundled baselines (``baseline`` in ``baselines/runs/manifest.json``) whose runs
    are this kind's: added to a track whose test set has exactly their inputs."""

    def missing(self, given: Mapping[str, object]) -> list[str]:
        """How the refusal names what the import needs and lacks (all it needs, in order)."""
        if all(given.get(need) for need in self.needs):
            return []
        return list(self.needs.values())


def import_rule(definition: Mapping[str, Any], where: str = "kind") -> ImportRule:
    """A definition's ``import:`` key as a rule, or a KindError naming the key that is wrong."""
    data = definition.get("import") or {}
    at = f"{where}.import"
    if not isinstance(data, Mapping):
        raise KindError(f"{at}: expected a mapping")
    unknown = sorted(set(map(str, data)) - RULE_KEYS)
    if unknown:
        raise KindError(f"{at}.{unknown[0]}: unknown key (known: {', '.join(sorted(RULE_KEYS))})")
    needs = _texts_by_name(data.get("needs", {"references": "the references"}), f"{at}.needs")
    if set(needs) - set(NEEDS):
        raise KindError(f"{at}.needs: {sorted(set(needs) - set(NEEDS))} (known: {NEEDS})")
    return ImportRule(
        needs=needs,
        language=_optional_text(data.get("language"), f"{at}.language"),
        per_language=_flag(data.get("per_language", False), f"{at}.per_language"),
        titles=_texts_by_name(data.get("titles", {}), f"{at}.titles"),
        grows_by=tuple(_names(data.get("grows_by", []), f"{at}.grows_by")),
        bundled_baselines=tuple(
            _names(data.get("bundled_baselines", []), f"{at}.bundled_baselines")
        ),
    )


def rule_for(kind: str, definition: Mapping[str, Any] | None = None) -> ImportRule:
    """The rule of a track kind: its organiser's definition, else the built-in one."""
    if definition is not None:
        return import_rule(definition, str(definition.get("name", kind)))
    if kind in TRACK_KINDS:
        return import_rule(kind_definition(kind), kind)
    return ImportRule()


def track_rule(track: Track) -> ImportRule:
    """The rule of an imported track: its organiser's kind, else the built-in one."""
    return rule_for(track.kind, track.kind_definition)


def _texts_by_name(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and v for k, v in value.items()
    ):
        raise KindError(f"{where}: expected a mapping of names to texts")
    return dict(value)


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise KindError(f"{where}: expected a list of names")
    return value


def _optional_text(value: Any, where: str) -> str | None:
    if value is not None and (not isinstance(value, str) or not value):
        raise KindError(f"{where}: expected a text")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise KindError(f"{where}: expected true or false")
    return value
