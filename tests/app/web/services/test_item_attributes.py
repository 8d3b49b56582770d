"""Item attributes stored on the board: filled by every import, kept by a bundle's round trip,
computed for items stored before they were."""

from __future__ import annotations

import json

import pytest
import yaml
from sqlalchemy import select, update

from app.data.db import session_scope
from app.data.models import Item, Track
from app.data.storage import storage_for
from app.data.testsets import load_attributes
from app.web.errors import BundleError
from app.web.services.bundles import Bundle, export_bundle, import_bundle
from app.web.services.track_imports import import_items
from app.web.services.tracks import create_challenge
from tests.support.factories import demo_track, sr18_tracks
from tests.support.paths import DEMO_DATA

WEBNLG = DEMO_DATA / "webnlg"


def _webnlg(settings) -> None:
    with session_scope(settings.database_url) as session:
        challenge = create_challenge(session, "webnlg", "WebNLG")
        import_items(
            session, challenge, "test", "webnlg", language="en",
            references=((WEBNLG / "test" / "test_with_lex.xml").read_bytes(), "with_lex.xml"),
        )  # fmt: skip


def _attributes(settings, slug: str = "test", language: str | None = None) -> list[dict]:
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track).where(Track.slug == slug)).one()
        return load_attributes(session, track.test_set_for(language))


def test_a_webnlg_import_stores_category_size_and_seen_per_item(app, settings):
    _webnlg(settings)
    with session_scope(settings.database_url) as session:
        stored = session.scalars(select(Item.attributes).order_by(Item.position)).all()
    assert all({"category", "size", "seen", "eid"} <= set(found) for found in stored)
    assert {found["seen"] for found in stored} == {"seen", "unseen"}
    assert _attributes(settings) == stored


def test_e2e_and_sr18_imports_store_the_attributes_their_kinds_compute(app, settings):
    demo_track(settings)
    sr18_tracks(settings)
    e2e = _attributes(settings, "main")
    assert len(e2e) == 10 and all(found["slots"].isdigit() for found in e2e)
    assert all(found["slot:name"] == "present" for found in e2e)
    assert {found["length"] for found in _attributes(settings, "shallow", "en")} <= {
        "1-10", "11-20", "21-30", "31-40", "41+"
    }  # fmt: skip


def test_items_stored_before_attributes_get_them_computed_when_read(app, settings):
    demo_track(settings)
    before = _attributes(settings, "main")
    with session_scope(settings.database_url) as session:
        session.execute(update(Item).values(attributes=None))
    assert _attributes(settings, "main") == before


def test_a_bundles_item_attributes_round_trip_through_an_export(app, settings):
    _webnlg(settings)
    with session_scope(settings.database_url) as session:
        session.execute(update(Item).where(Item.position == 0).values(attributes={"mine": "x"}))
    before = _attributes(settings)
    with session_scope(settings.database_url) as session:
        challenge = session.scalars(select(Track)).one().challenge
        data = export_bundle(session, storage_for(settings), challenge)
    bundle = Bundle.from_zip(data)
    lines = bundle.files["tracks/test/en.items.jsonl"].decode().splitlines()
    assert json.loads(lines[0])["attributes"] == {"mine": "x"}
    definition = yaml.safe_load(bundle.files["challenge.yaml"])
    definition["challenge"]["slug"] = "again"
    bundle.files["challenge.yaml"] = yaml.safe_dump(definition).encode()
    with session_scope(settings.database_url) as session:
        import_bundle(session, app.extensions["nlgboard.queue"], storage_for(settings), bundle)
    with session_scope(settings.database_url) as session:
        tracks = session.scalars(select(Track).order_by(Track.id)).all()
        assert load_attributes(session, tracks[1].test_sets[0]) == before


@pytest.mark.parametrize("attributes", [["Airport"], {"category": 3}, {"category": ""}])
def test_a_bundle_item_with_bad_attributes_is_refused_naming_the_line(app, settings, attributes):
    item = {"input": "a | b | c", "references": ["A b c."], "attributes": attributes}
    definition = {
        "format": 1,
        "challenge": {"slug": "x", "title": "X"},
        "tracks": [{"slug": "t", "kind": "webnlg",
                    "test_sets": [{"language": "en", "items": "items.jsonl"}]}],
    }  # fmt: skip
    files = {"challenge.yaml": yaml.safe_dump(definition).encode(),
             "items.jsonl": json.dumps(item).encode()}  # fmt: skip
    with session_scope(settings.database_url) as session, pytest.raises(BundleError) as error:
        import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    assert "items.jsonl line 1: attributes must be an object" in str(error.value)
