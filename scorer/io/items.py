"""Test items with attributes (WebNLG: category, size, seen/unseen) and the subsets they define."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorer.io.e2e import ReferenceItem


@dataclass(frozen=True)
class Item(ReferenceItem):
    """A test item (its input and references) with named attributes: each attribute splits the
    test set into subsets scored on their own (``seen``: seen / unseen; ``category``...)."""

    attributes: Mapping[str, str] = field(default_factory=dict)


def subsets_by(items: Sequence[ReferenceItem], attribute: str) -> dict[str, list[int]]:
    """Item positions by value of ``attribute``, values in natural order (``size`` 1 < 2 < 10);
    items without the attribute are in no subset."""
    return groups_by([getattr(item, "attributes", {}) for item in items], attribute)


def groups_by(attributes: Sequence[Mapping[str, str]], attribute: str) -> dict[str, list[int]]:
    """``subsets_by`` from each item's attributes."""
    groups: dict[str, list[int]] = {}
    for position, found in enumerate(attributes):
        value = found.get(attribute)
        if value is not None:
            groups.setdefault(value, []).append(position)
    return {value: groups[value] for value in sorted(groups, key=natural_key)}


_NUMBER = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """``natsort``'s default order for ids and values such as ``Id2`` < ``Id10``."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in _NUMBER.split(text) if part
    )
