"""Reading a test set for scoring: shared by the scoring job and the leaderboard's reference rows."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Item, Reference
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
