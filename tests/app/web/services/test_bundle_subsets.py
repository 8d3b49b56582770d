"""A defined kind's ``subsets:`` on a test set in the board's item layout: each item's
attribute (given or computed) puts it in its subset beside the ones the layout lists, and an
attribute no item has is refused, not silently left out."""

from __future__ import annotations

import json

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Item
from app.data.storage import storage_for
from app.web.services.bundles import Bundle, BundleError, import_bundle

ROWS = [
    {"input": "a", "references": ["the a"], "attributes": {"kind": "x"}, "subsets": ["tense"]},
    {"input": "b", "references": ["the b", "a b"], "attributes": {"kind": "y"}},
]


def bundle(subsets: list[str]) -> Bundle:
    kind = {"name": "k", "reader": "lines", "metrics": ["chrF++"], "subsets": subsets,
            "attributes": ["reference-count"]}  # fmt: skip
    definition = {
        "format": 1,
        "challenge": {"slug": "c", "title": "C"},
        "kinds": [kind],
        "tracks": [
            {"slug": "t", "kind": "k", "test_sets": [{"language": "en", "items": "t.jsonl"}]}
        ],
    }
    rows = "".join(json.dumps(row) + "\n" for row in ROWS).encode()
    return Bundle({"challenge.yaml": yaml.safe_dump(definition).encode(), "t.jsonl": rows})


def test_subsets_of_given_and_computed_attributes_are_stored(app, settings):
    with session_scope(settings.database_url) as session:
        queue, storage = app.extensions["nlgboard.queue"], storage_for(settings)
        import_bundle(session, queue, storage, bundle(["kind", "references"]))
        items = session.scalars(select(Item).order_by(Item.position)).all()
        assert [[s.name for s in item.subsets] for item in items] == [
            ["tense", "x", "1"],
            ["y", "2"],
        ]


def test_a_subset_no_item_has_is_refused(app, settings):
    with session_scope(settings.database_url) as session, pytest.raises(BundleError) as refused:
        queue, storage = app.extensions["nlgboard.queue"], storage_for(settings)
        import_bundle(session, queue, storage, bundle(["type"]))
    assert "t.jsonl: kind k scores the subsets of 'type', but no item has that attribute" in str(
        refused.value
    )
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Item)).first() is None
