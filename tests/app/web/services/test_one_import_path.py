"""One import path for every kind (``track_imports.import_items``): the CLI, the organisers'
form and a bundle give the same items from the same files; a training file is taken by any
kind whose reader takes one and refused naming the reader otherwise; named subsets are for a
kind that declares them (``import.grows_by``)."""

from __future__ import annotations

import io

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Challenge, Track
from app.data.storage import storage_for
from app.web.errors import BundleError
from app.web.services.bundles import Bundle, import_bundle
from tests.support.factories import login, organiser
from tests.support.paths import DEMO_DATA

SR18 = DEMO_DATA / "sr18"
WEBNLG = DEMO_DATA / "webnlg"
INPUTS, REFERENCES = SR18 / "en-shallow.conll", SR18 / "en-sentences.txt"


def _items(settings, challenge: str) -> tuple[tuple, list[tuple]]:
    """A challenge's one track and its test set's items, as stored."""
    with session_scope(settings.database_url) as session:
        track = session.scalars(
            select(Track).join(Challenge).where(Challenge.slug == challenge)
        ).one()
        (test_set,) = track.test_sets
        about = (track.kind, track.profile, track.title, track.language, test_set.language,
                 test_set.source_sha256)  # fmt: skip
        return about, [
            (
                item.position,
                item.input_text,
                item.attributes,
                [r.text for r in item.references],
                [s.name for s in item.subsets],
            )
            for item in test_set.items
        ]


def _import(app, settings, definition: dict, files: dict[str, bytes]) -> None:
    bundle = Bundle({"challenge.yaml": yaml.safe_dump(definition).encode(), **files})
    with session_scope(settings.database_url) as session:
        import_bundle(session, app.extensions["nlgboard.queue"], storage_for(settings), bundle)


def _challenge(slug: str, kinds: list[dict], test_set: dict, kind: str = "k") -> dict:
    return {
        "format": 1,
        "challenge": {"slug": slug, "title": slug},
        "kinds": kinds,
        "tracks": [{"slug": "t", "kind": kind, "test_sets": [test_set]}],
    }


def test_the_cli_the_form_and_a_bundle_make_the_same_items(app, runner, client, settings):
    for slug in ("cli", "form"):
        assert runner.invoke(args=["challenge", "create", slug, "--title", "T"]).exit_code == 0
    result = runner.invoke(
        args=["track", "import", "cli", "t", "--kind", "sr-shallow", "--language", "en",
              "--inputs", str(INPUTS), "--refs", str(REFERENCES)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    organiser(settings, "org@x.org", "form")
    login(client, "org@x.org")
    form = client.post(
        "/organise/form",
        data={"action": "track", "track-slug": "t", "track-kind": "sr-shallow",
              "track-language": "en",
              "track-inputs": (io.BytesIO(INPUTS.read_bytes()), INPUTS.name),
              "track-references": (io.BytesIO(REFERENCES.read_bytes()), REFERENCES.name)},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert form.status_code == 302, form.data[:800]
    track = {"slug": "t", "kind": "sr-shallow", "title": "Shallow track",
             "test_sets": [{"language": "en", "inputs": "in.conll", "references": "refs.txt"}]}  # fmt: skip
    definition = {"format": 1, "challenge": {"slug": "bundle", "title": "T"}, "tracks": [track]}
    _import(
        app,
        settings,
        definition,
        {"in.conll": INPUTS.read_bytes(), "refs.txt": REFERENCES.read_bytes()},
    )
    cli = _items(settings, "cli")
    assert cli[0][:5] == ("sr-shallow", "sr18", "Shallow track", "mul", "en")
    assert len(cli[1]) == 4
    assert _items(settings, "form") == cli
    assert _items(settings, "bundle") == cli


TRIPLES = {"name": "k", "reader": "webnlg-xml", "metrics": ["chrF++"], "subsets": ["seen"]}
LINES = {"name": "k", "reader": "lines", "metrics": ["chrF++"]}


def test_a_bundle_defined_kind_takes_a_training_file_its_reader_reads(app, settings):
    train = (
        (WEBNLG / "test" / "test_with_lex.xml")
        .read_text()
        .replace('category="Food"', 'category="X"')
    )
    test_set = {"language": "en", "references": "test.xml", "train": "train.xml"}
    files = {
        "test.xml": (WEBNLG / "test" / "test_with_lex.xml").read_bytes(),
        "train.xml": train.encode(),
    }
    _import(app, settings, _challenge("c", [TRIPLES], test_set), files)
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        seen = track.kind_definition["reader"]["seen_categories"]
        food = {item.subsets[0].name for item in track.test_sets[0].items
                if item.attributes["category"] == "Food"}  # fmt: skip
        assert track.kind == "k" and track.profile.startswith("k@")
    assert "X" in seen and "Food" not in seen and food == {"unseen"}


def test_a_training_file_is_refused_naming_a_reader_that_reads_none(app, settings):
    test_set = {"language": "en", "inputs": "in.txt", "references": "r.txt", "train": "t.txt"}
    files = {"in.txt": b"a\nb\n", "r.txt": b"A\nB\n", "t.txt": b"C\n"}
    with pytest.raises(BundleError) as refused:
        _import(app, settings, _challenge("c", [LINES], test_set), files)
    assert "kind k takes no training file: its reader, lines, reads none" in str(refused.value)
    assert "webnlg" not in str(refused.value).lower()


def test_subsets_grow_a_test_set_of_a_kind_that_declares_them(app, settings):
    kind = {**LINES, "import": {"grows_by": ["main", "hard"]}}
    test_set = {"language": "en", "inputs": "in.txt", "references": "r.txt",
                "subsets": [{"name": "hard", "inputs": "hard-in.txt", "references": "hard.txt"}]}  # fmt: skip
    files = {"in.txt": b"a\nb\n", "r.txt": b"A\nB\n", "hard-in.txt": b"c\n", "hard.txt": b"C\n"}
    _import(app, settings, _challenge("c", [kind], test_set), files)
    with session_scope(settings.database_url) as session:
        items = session.scalars(select(Track)).one().test_sets[0].items
        stored = [(i.input_text, i.references[0].text, [s.name for s in i.subsets]) for i in items]
    assert stored == [("a", "A", ["main"]), ("b", "B", ["main"]), ("c", "C", ["hard"])]


def test_subsets_are_refused_for_a_kind_that_declares_none(app, settings):
    test_set = {"language": "en", "inputs": "in.txt", "references": "r.txt",
                "subsets": [{"name": "hard", "inputs": "in.txt", "references": "r.txt"}]}  # fmt: skip
    files = {"in.txt": b"a\n", "r.txt": b"A\n"}
    with pytest.raises(BundleError, match="kind k takes no subsets"):
        _import(app, settings, _challenge("c", [LINES], test_set), files)
    with session_scope(settings.database_url) as session:
        assert session.scalar(select(Challenge)) is None


def test_the_form_imports_a_track_of_a_kind_defined_on_the_board(app, runner, client, settings):
    test_set = {"language": "en", "inputs": "in.txt", "references": "r.txt"}
    files = {"in.txt": b"a\nb\n", "r.txt": b"A\nB\n"}
    _import(app, settings, _challenge("bundle", [LINES], test_set), files)
    assert runner.invoke(args=["challenge", "create", "form", "--title", "T"]).exit_code == 0
    organiser(settings, "org@x.org", "form")
    login(client, "org@x.org")
    profile = _items(settings, "bundle")[0][1]
    form = client.post(
        "/organise/form",
        data={"action": "track", "track-slug": "t", "track-kind": profile,
              "track-language": "en", "track-inputs": (io.BytesIO(files["in.txt"]), "in.txt"),
              "track-references": (io.BytesIO(files["r.txt"]), "r.txt")},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert form.status_code == 302, form.data[:800]
    assert _items(settings, "form") == _items(settings, "bundle")
