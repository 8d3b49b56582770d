"""Reading a test set for scoring: shared by the scoring job and the leaderboard's reference rows."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Item, ItemSubset, Reference, TestSet
from scorer.references import ReferenceSet


def load_references(session: Session, test_set_id: int) -> tuple[list[int], ReferenceSet]:
    """A test set's item ids in order and its references with the inputs, in two queries."""
    items = session.execute(
        select(Item.id, Item.input_text)
        .where(Item.test_set_id == test_set_id)
        .order_by(Item.position)
    ).all()
    by_item: dict[int, list[str]] = {item_id: [] for item_id, _ in items}
    for item_id, text in session.execute(
        select(Reference.item_id, Reference.text)
        .join(Item)
        .where(Item.test_set_id == test_set_id)
        .order_by(Reference.item_id, Reference.position)
    ):
        by_item[item_id].append(text)
    return [item_id for item_id, _ in items], ReferenceSet(
        (by_item[item_id] for item_id, _ in items), inputs=[text for _, text in items]
    )


ORIG, CHAL = ":orig", ":chal"
HEADLINE_SUBSET = "standard"
"""When items carry this tag, the headline scores are over them alone (a DRS test set with its
challenge sets appended is ranked on its standard items, as the papers do)."""
PUBLIC_PART = "public"
"""The items an organiser declared the test set's public part (Kaggle's public leaderboard):
scored as a subset, and open to everyone in the test phase (``app.data.disclosure``); the
headline, on every item, stays the final ranking."""


def load_subsets(session: Session, test_set_id: int, item_ids: list[int]) -> dict[str, list[int]]:
    """Item positions (indices into ``item_ids``) of every subset to score.

    ``""`` is the headline: the standard items where tagged, else all. Each named subset is
    scored on its own; a challenge set ``X`` also gets ``X:orig``, the positions of its items'
    original test items (repeats kept), and, when some items have no original, ``X:chal``, the
    paired ones, so Orig and Chal always cover the same pairs."""
    index = {item_id: k for k, item_id in enumerate(item_ids)}
    named: dict[str, list[int]] = {}
    for item_id, name in session.execute(
        select(ItemSubset.item_id, ItemSubset.name)
        .join(Item)
        .where(Item.test_set_id == test_set_id)
        .order_by(Item.position, ItemSubset.name)
    ):
        named.setdefault(name, []).append(index[item_id])
    originals = {
        index[item_id]: index[original]
        for item_id, original in session.execute(
            select(Item.id, Item.original_id).where(
                Item.test_set_id == test_set_id, Item.original_id.is_not(None)
            )
        )
        if original is not None
    }
    headline = named.pop(HEADLINE_SUBSET, None) or list(range(len(item_ids)))
    subsets = {"": headline}
    for name, positions in named.items():
        subsets[name] = positions
        paired = [k for k in positions if k in originals]
        if paired:
            subsets[f"{name}{ORIG}"] = [originals[k] for k in paired]
            if len(paired) < len(positions):
                subsets[f"{name}{CHAL}"] = paired
    return subsets


@dataclass(frozen=True)
class LoadedTestSet:
    item_ids: list[int]
    references: ReferenceSet
    subsets: dict[str, list[int]]


def load_test_set(session: Session, test_set_id: int) -> LoadedTestSet:
    item_ids, references = load_references(session, test_set_id)
    return LoadedTestSet(item_ids, references, load_subsets(session, test_set_id, item_ids))


def content_digest(loaded: LoadedTestSet) -> str:
    """SHA-256 of what scoring reads: inputs, references, subsets (item ids included: scores
    and outputs are stored against them)."""
    hasher = hashlib.sha256()
    payload = {
        "ids": loaded.item_ids,
        "inputs": list(loaded.references.inputs or ()),
        "references": [list(refs) for refs in loaded.references],
        "subsets": loaded.subsets,
    }
    hasher.update(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return hasher.hexdigest()


def stamp_content(session: Session, test_set: TestSet) -> None:
    """Renew ``content_sha256`` after an import changed the test set's items."""
    session.flush()
    test_set.content_sha256 = content_digest(load_test_set(session, test_set.id))


class TestSetCache:
    """A worker's copies of the test sets it scored, reused while their stored digest is the
    same (a 630-item E2E set with 4,693 references is two queries and ~50 ms to rebuild; a
    20-submission burst on one track reads it once)."""

    __test__ = False

    def __init__(self) -> None:
        self._copies: dict[tuple[str, int], tuple[str, LoadedTestSet]] = {}
        self.hits = 0
        self.misses = 0

    def holds(self, session: Session, test_set: TestSet) -> bool:
        """Whether ``get`` would answer from the copy (a job has read this test set)."""
        copy = self._copies.get(self._key(session, test_set))
        return copy is not None and copy[0] == test_set.content_sha256

    @staticmethod
    def _key(session: Session, test_set: TestSet) -> tuple[str, int]:
        return str(session.get_bind().engine.url), test_set.id

    def get(self, session: Session, test_set: TestSet) -> LoadedTestSet:
        digest = test_set.content_sha256
        key = self._key(session, test_set)
        copy = self._copies.get(key)
        if digest is not None and copy is not None and copy[0] == digest:
            self.hits += 1
            return copy[1]
        self.misses += 1
        loaded = load_test_set(session, test_set.id)
        if digest is not None:
            self._copies[key] = (digest, loaded)
        return loaded


SUBSET_ATTRIBUTE = "subset"
"""The attribute of an item's named subsets (DRS: standard, long, a challenge set)."""


def load_attributes(
    session: Session, test_set: TestSet, loaded: LoadedTestSet | None = None
) -> list[dict[str, str]]:
    """Each item's attributes in test order: those stored with it, its subsets where its kind
    breaks down by them (``subset``: their names joined by ``+``), and those its kind computes from its input and references
    (items stored before attributes were get them here)."""
    loaded = loaded or load_test_set(session, test_set.id)
    profile = test_set.track.scoring_profile
    stored: dict[int, dict | None] = dict(
        session.execute(
            select(Item.id, Item.attributes).where(Item.test_set_id == test_set.id)
        ).all()
    )
    subsets: dict[int, list[str]] = {}
    for item_id, name in session.execute(
        select(ItemSubset.item_id, ItemSubset.name)
        .join(Item)
        .where(Item.test_set_id == test_set.id)
        .order_by(ItemSubset.name)
    ):
        subsets.setdefault(item_id, []).append(name)
    inputs = loaded.references.inputs or [""] * len(loaded.item_ids)
    found = []
    for item_id, text, references in zip(loaded.item_ids, inputs, loaded.references, strict=True):
        given = dict(stored.get(item_id) or {})
        if item_id in subsets and SUBSET_ATTRIBUTE in profile.breakdown_attributes:
            given.setdefault(SUBSET_ATTRIBUTE, "+".join(subsets[item_id]))
        found.append(profile.item_attributes(text, references, given))
    return found
