"""Reading a test set for scoring: shared by the scoring job and the leaderboard's reference rows."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Item, ItemSubset, Reference
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
