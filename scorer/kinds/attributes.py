"""Item attributes computed from an item's input and references, by name (``attributes:`` in a
kind's definition). With the attributes readers give (WebNLG: category, size, seen; JSON Lines
and CSV: named fields) they are what breakdowns split a test set by: results read by input type
(E2E MR size and slot, SR'18 sentence length) say why a system wins, not only that it does.

An attribute computed from the references is marked so: its buckets are figures of the hidden
references as a whole (how many items have long references), shown with the rule of reference
statistics.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

E2E_SLOTS = (
    "name",
    "eatType",
    "food",
    "priceRange",
    "customer rating",
    "area",
    "familyFriendly",
    "near",
)
"""The E2E dataset's eight slots, in the order its MRs list them."""

LENGTH_EDGES = (10, 20, 30, 40)
"""Upper bounds of the length buckets (words): 1-10, 11-20, 21-30, 31-40, 41+."""


@dataclass(frozen=True)
class AttributePart:
    """A registered attribute function: ``compute(input, references)`` -> name -> value."""

    names: tuple[str, ...]
    compute: Callable[[str, Sequence[str]], dict[str, str]]
    from_references: bool = False


def length_bucket(words: int) -> str:
    """``words`` as its bucket (``1-10`` ... ``41+``); ``0`` for an empty text."""
    if words <= 0:
        return "0"
    low = 1
    for high in LENGTH_EDGES:
        if words <= high:
            return f"{low}-{high}"
        low = high + 1
    return f"{low}+"


def e2e_slots(mr: str, references: Sequence[str]) -> dict[str, str]:
    """The number of slots of an E2E MR and, per slot of the dataset, whether it is present
    (an unreadable MR gives none: the slot-error metric reports it)."""
    from scorer.semantics.e2e_slots import parse_mr

    try:
        present = {slot for slot, _ in parse_mr(mr)}
    except ValueError:
        return {}
    found = {"slots": str(len(present))}
    found.update({f"slot:{s}": "present" if s in present else "absent" for s in E2E_SLOTS})
    return found


def reference_count(_: str, references: Sequence[str]) -> dict[str, str]:
    return {"references": str(len(references))}


def reference_length(_: str, references: Sequence[str]) -> dict[str, str]:
    """The first reference's length in words, bucketed (a DRS item's sentence length)."""
    return {"length": length_bucket(len(references[0].split()))} if references else {}


def conllu_length(tree: str, _: Sequence[str]) -> dict[str, str]:
    """An SR'18 input tree's nodes, bucketed: the sentence's length in the shallow track (its
    content words in the deep one), read from the input, not the hidden reference."""
    nodes = sum(
        1
        for line in tree.splitlines()
        if line and not line.startswith("#") and line.split("\t", 1)[0].isdigit()
    )
    return {"length": length_bucket(nodes)} if nodes else {}


ATTRIBUTES: Mapping[str, AttributePart] = {
    "e2e-slots": AttributePart(("slots", *(f"slot:{s}" for s in E2E_SLOTS)), e2e_slots),
    "reference-count": AttributePart(("references",), reference_count, from_references=True),
    "reference-length": AttributePart(("length",), reference_length, from_references=True),
    "conllu-length": AttributePart(("length",), conllu_length),
}
"""Attribute functions by name. ``e2e-slots``: ``slots`` (how many) and ``slot:NAME``
(present / absent); ``reference-count``: ``references``; ``reference-length``: ``length``, the
first reference's words in buckets; ``conllu-length``: ``length``, an input tree's nodes in
buckets."""
