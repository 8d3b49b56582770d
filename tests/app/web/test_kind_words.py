"""A kind defined in a bundle brings its own words to the board: its Submit page says what its
reader takes (or what the kind says), never another kind's layout; the API's kind route gives
the same words; and the organisers' "Add a track" list offers the kind, saying where it came
from."""

from __future__ import annotations

import json

import pytest
import yaml

from app.data.db import session_scope
from app.data.storage import storage_for
from app.web.services.bundles import Bundle, import_bundle
from tests.support.factories import login, organiser, participant

ITEMS = [
    {"id": "a1", "input": "Alan Bean | birthPlace | Wheeler", "references": ["Alan Bean was born in Wheeler."]},
    {"id": "a2", "input": "Aarhus | country | Denmark", "references": ["Aarhus is in Denmark."]},
]  # fmt: skip
OWN_WORDS = {"layout": "One **JSON string** per line, quotes included.", "example": '"A text."\n'}
OTHER_KINDS_WORDS = ("MR&lt;TAB&gt;output", "CoNLL-U", "# text =", "one file per language", "XML")


@pytest.fixture
def bundle_board(app, settings):
    """A challenge of two defined kinds: JSON-Lines test sets with the reader's words, and plain
    lines with the kind's own."""
    references = "".join(json.dumps(item) + "\n" for item in ITEMS).encode()
    lines = "".join(item["references"][0] + "\n" for item in ITEMS).encode()
    definition = {
        "format": 1,
        "challenge": {"slug": "jl", "title": "JSON Lines task"},
        "kinds": [
            {"name": "jl-d2t", "title": "Triples to text (JSON Lines)", "reader": "jsonl",
             "metrics": ["chrF++", "BLEU-sacre", "TER-pyter"]},
            {"name": "own-words", "reader": "lines", "metrics": ["chrF"], "submit": OWN_WORDS},
        ],
        "tracks": [
            {"slug": "t", "kind": "jl-d2t", "test_sets": [{"language": "en", "references": "r.jsonl"}]},
            {"slug": "w", "kind": "own-words", "test_sets": [{"language": "en", "references": "r.txt"}]},
        ],
    }  # fmt: skip
    files = {
        "challenge.yaml": yaml.safe_dump(definition).encode(),
        "r.jsonl": references,
        "r.txt": lines,
    }
    with session_scope(settings.database_url) as session:
        import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    return settings


def _submit_page(client, settings, track: str) -> str:
    participant(settings, "p@x.org", team="P")
    login(client, "p@x.org")
    response = client.get(f"/challenges/jl/tracks/{track}/submit")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_a_json_lines_kinds_submit_page_says_its_readers_words_and_no_other_kinds(
    client, bundle_board
):
    page = _submit_page(client, bundle_board, "t")
    assert "exactly <strong>2</strong> outputs" in page
    assert "<strong>Triples to text (JSON Lines)</strong>" in page
    assert "one output per line, in the order of the inputs" in page
    assert [words for words in OTHER_KINDS_WORDS if words in page] == []
    assert '<label for="file">Output file</label>' in page


def test_a_kinds_own_submit_words_and_example_are_shown(client, bundle_board):
    page = _submit_page(client, bundle_board, "w")
    assert "One <strong>JSON string</strong> per line, quotes included." in page
    assert '<pre class="example">&#34;A text.&#34;\n</pre>' in page
    assert "one output per line, in the order of the inputs" not in page
    assert [words for words in OTHER_KINDS_WORDS if words in page] == []


def test_the_api_gives_the_kinds_title_and_words(client, bundle_board):
    kind = client.get("/api/v1/challenges/jl/tracks/w/kind").get_json()
    assert kind["title"] == "own-words" and kind["submit"] == OWN_WORDS
    built_in = client.get("/api/v1/challenges/jl/tracks/t/kind").get_json()
    assert built_in["title"] == "Triples to text (JSON Lines)"


def test_the_add_a_track_list_offers_the_bundles_kinds_saying_where_they_come_from(
    client, bundle_board
):
    from app.data.models import Track
    from app.web.services.tracks import create_challenge

    with session_scope(bundle_board.database_url) as session:
        profiles = {t.kind: t.profile for t in session.query(Track)}
        create_challenge(session, "next", "Next year")
    organiser(bundle_board, "o@x.org", "next")
    login(client, "o@x.org")
    page = client.get("/organise/next").get_data(as_text=True)
    assert '<option value="e2e">E2E (MR CSV) · built in</option>' in page
    assert (
        f'<option value="{profiles["jl-d2t"]}">Triples to text (JSON Lines) · from challenge '
        "JSON Lines task (jl)</option>"
    ) in page
    assert f'<option value="{profiles["own-words"]}">own-words · from challenge' in page


def test_a_listed_kind_stands_for_its_stored_definition(bundle_board):
    from app.data.models import Track
    from app.web.services.kind_choices import defined_kind, kind_choices

    with session_scope(bundle_board.database_url) as session:
        track = session.query(Track).filter_by(kind="jl-d2t").one()
        values = [choice.value for choice in kind_choices(session)]
        assert values.count(track.profile) == 1
        assert defined_kind(session, track.profile) == track.kind_definition
        assert defined_kind(session, "e2e") is None and defined_kind(session, "nope@0") is None
