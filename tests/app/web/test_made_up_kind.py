"""A kind no code knows, defined in a bundle from registry parts only (a JSON Lines reader with
its own field names, an attribute column of its own, a metric set no built-in kind has), walked
through every page, export, API route and CLI in the development phase, the test phase and
after publication: nothing answers 500, no page names another kind's files, every column has a
glossary entry on the challenge's pages, ``nlgboard-submit`` checks and uploads, ``nlg-score`` scores
it with the board's numbers."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from markupsafe import escape
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Submission, System
from app.web.services.tracks import get_track
from scorer.cli.score import main as nlg_score
from scorer.cli.submit import main as nlgboard_submit
from scorer.kinds.glossary import glossary
from tests.support.factories import login, organiser, participant, run_queue
from tests.support.servers import serve_app

SLUG, TRACK = "recipes", "main"
KIND = {
    "name": "recipe-jsonl",
    "reader": {
        "name": "jsonl",
        "input": "ingredients",
        "references": "steps",
        "attributes": ["cuisine"],
    },
    "normalisation": "none",
    "references": 2,
    "metrics": ["chrF++", {"metric": "TER-pyter", "options": {"references": 2}}, "BLEU-sacre"],
    "attributes": ["reference-count"],
    "breakdowns": ["cuisine"],
    "primary": "chrF++",
    "decimals": 3,
}
CUISINES = ("thai", "breton", "sami")
FOREIGN = (
    "MR<TAB>output",
    "mr,ref",
    "MR\toutput",
    "CoNLL-U",
    ".conll",
    "SBN",
    "clause format",
    "<lex",
    "mtriple",
    "one file per language",
    "XML",
    "MR CSV",
    "# text =",
)
"""What another kind's files look like: none of it may appear on this kind's pages (a metric's
glossary may still say which challenge ran it so)."""

ROUTE_VALUES = {"fmt": ("csv", "json", "tex"), "name": ("cuisine",), "filename": ("style.css",)}
SKIPPED_ARGUMENTS = {"token", "campaign_id", "unit_id", "path"}


def _items(n: int = 12) -> list[dict]:
    return [
        {
            "ingredients": f"rice, {n} limes, basil (dish {i})",
            "steps": [f"Cook the rice and add lime number {i}.", f"Serve dish {i} with basil."],
            "cuisine": CUISINES[i % len(CUISINES)],
        }
        for i in range(n)
    ]


def _outputs(items: list[dict], variant: str) -> str:
    return "".join(f"{variant} the rice for dish {i} and add lime.\n" for i in range(len(items)))


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    folder = tmp_path / "bundle"
    folder.mkdir()
    items = _items()
    (folder / "test.jsonl").write_text("".join(json.dumps(item) + "\n" for item in items))
    (folder / "team.txt").write_text(_outputs(items, "Cook"))
    definition = {
        "format": 1,
        "challenge": {"slug": SLUG, "title": "Recipes from ingredients", "description": "Test."},
        "kinds": [KIND],
        "tracks": [
            {
                "slug": TRACK,
                "title": "Recipes",
                "kind": KIND["name"],
                "test_sets": [{"language": "en", "references": "test.jsonl"}],
            }
        ],
        "systems": [
            {
                "track": TRACK,
                "name": "primary",
                "team": "Kitchen",
                "primary": True,
                "submissions": [{"language": "en", "file": "team.txt"}],
            }
        ],
    }
    (folder / "challenge.yaml").write_text(yaml.safe_dump(definition, sort_keys=False))
    return folder


def _fill(rule: str, arguments: set[str], values: dict[str, tuple[str, ...]]) -> list[str]:
    paths = [rule]
    for argument in arguments:
        paths = [
            re.sub(rf"<(?:[a-z]+:)?{argument}>", value, path)
            for path in paths
            for value in values[argument]
        ]
    return paths


def _urls(app, values: dict[str, tuple[str, ...]]) -> list[str]:
    """Every GET route, its arguments filled with this board's ids; the routes of other
    features (human evaluation links, tokens) with nothing of this kind in them are left out."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.arguments & SKIPPED_ARGUMENTS:
            continue
        if rule.arguments - values.keys():
            continue
        urls += _fill(rule.rule, set(rule.arguments), values)
    return urls


def _walk(client, urls: list[str], who: str) -> dict[str, str]:
    pages = {}
    for url in urls:
        answer = client.get(url)
        assert answer.status_code < 500, f"{who}: {url} answered {answer.status_code}"
        if answer.status_code == 200 and answer.mimetype in ("text/html", "application/json"):
            pages[url] = answer.get_data(as_text=True)
        answer.close()
    return pages


def _foreign(pages: dict[str, str]) -> list[str]:
    return [
        f"{url}: {word!r}"
        for url, text in pages.items()
        if f"/challenges/{SLUG}" in url or f"/api/v1/challenges/{SLUG}" in url
        for word in FOREIGN
        if word in text
    ]


def _board_values(settings) -> dict[str, tuple[str, ...]]:
    with session_scope(settings.database_url) as session:
        submissions = tuple(str(i) for i in session.scalars(select(Submission.id)))
        systems = tuple(str(i) for i in session.scalars(select(System.id)))
    return {
        **ROUTE_VALUES,
        "slug": (SLUG,),
        "track_slug": (TRACK,),
        "submission_id": submissions,
        "system_id": systems,
    }


def _set_phase(settings, phase: str, published: bool) -> None:
    with session_scope(settings.database_url) as session:
        track = get_track(session, SLUG, TRACK)
        track.phase, track.is_published = phase, published


@pytest.mark.slow  # ~4 s (every route, three phases, three viewers): make test runs it
def test_a_made_up_kind_walks_every_page_export_api_route_and_cli(app, settings, bundle, tmp_path):
    runner = app.test_cli_runner()
    from app.entry.cli import cli

    imported = runner.invoke(cli, ["challenge", "import", str(bundle)])
    assert imported.exit_code == 0, imported.output
    run_queue(app)
    token = participant(settings, "cook@x.org", team="Other kitchen")
    organiser(settings, "org@x.org", SLUG)
    second = tmp_path / "second.txt"
    second.write_text(_outputs(_items(), "Boil"))

    with serve_app(app) as url:
        common = ["--url", url, "--challenge", SLUG, "--track", TRACK, "--system", "primary"]
        checked = CliRunner().invoke(nlgboard_submit, [*common, "--token", token, "--check-only",
                                                       str(second)])  # fmt: skip
        assert checked.exit_code == 0, checked.output
        assert "checked: 12 outputs" in checked.output
        sent = CliRunner().invoke(nlgboard_submit, [*common, "--token", token, "--interval", "0.2",
                                                    str(second)])  # fmt: skip
        assert sent.exit_code == 0, sent.output
        assert "scored" in sent.output

    with session_scope(settings.database_url) as session:
        profile = get_track(session, SLUG, TRACK).scoring_profile
    entries = glossary(profile)
    assert [e.name for e in entries] == list(profile.columns)
    assert all(e.meaning for e in entries), [e.name for e in entries if not e.meaning]

    values = _board_values(settings)
    urls = _urls(app, values)
    assert any("/export" in u for u in urls) and any(u.startswith("/api/v1/") for u in urls)
    for phase, published in (("development", False), ("test", False), ("test", True)):
        _set_phase(settings, phase, published)
        for who in ("anonymous", "cook@x.org", "org@x.org"):
            client = app.test_client()
            if who != "anonymous":
                login(client, who)
            pages = _walk(client, urls, f"{phase}/{published}/{who}")
            assert not _foreign(pages), _foreign(pages)
            shown = pages[f"/challenges/{SLUG}"] + pages[f"/challenges/{SLUG}/tracks/{TRACK}"]
            for entry in entries:
                assert str(escape(entry.meaning)) in shown, (phase, who, entry.name)

    exported = tmp_path / "export.zip"
    done = runner.invoke(cli, ["challenge", "export", SLUG, "--out", str(exported)])
    assert done.exit_code == 0, done.output
    with zipfile.ZipFile(exported) as archive:
        definition = yaml.safe_load(archive.read("challenge.yaml"))
    assert [kind["name"] for kind in definition["kinds"]] == [KIND["name"]]

    board = app.test_client().get(f"/api/v1/challenges/{SLUG}/tracks/{TRACK}/leaderboard").json
    kitchen = next(row for row in board["rows"] if row["team"] == "Kitchen")
    refs = bundle / "test.jsonl"
    scored = CliRunner().invoke(nlg_score, [
        "--profile", KIND["name"], "--kinds", str(bundle / "challenge.yaml"),
        "--refs", str(refs), "--hyp", str(bundle / "team.txt"), "--json",
    ])  # fmt: skip
    assert scored.exit_code == 0, scored.output
    numbers = json.loads(scored.output)
    decimals = KIND["decimals"]
    shown = {column: round(kitchen["scores"][column], decimals) for column in profile.columns}
    assert shown == {column: round(numbers[column], decimals) for column in profile.columns}


def test_the_track_import_command_takes_a_kind_defined_on_the_board(
    app, settings, bundle, tmp_path
):
    from app.entry.cli import cli

    runner = app.test_cli_runner()
    assert runner.invoke(cli, ["challenge", "import", str(bundle)]).exit_code == 0
    more = tmp_path / "more.jsonl"
    more.write_text("".join(json.dumps(item) + "\n" for item in _items(31)))
    command = ["track", "import", SLUG, "second", "--language", "en", "--refs", str(more)]
    unknown = runner.invoke(cli, [*command, "--kind", "recipes"])
    assert unknown.exit_code == 1
    assert "no kind 'recipes': give one of e2e" in unknown.output
    assert f"{KIND['name']}@" in unknown.output and "from challenge Recipes" in unknown.output
    made = runner.invoke(cli, [*command, "--kind", KIND["name"]])
    assert made.exit_code == 0, made.output
    with session_scope(settings.database_url) as session:
        first, second = get_track(session, SLUG, TRACK), get_track(session, SLUG, "second")
        assert second.profile == first.profile and len(second.test_sets[0].items) == 31
        profile = first.profile
    third = [*command[:3], "third", *command[4:]]
    assert runner.invoke(cli, [*third, "--kind", profile]).exit_code == 0, "name@digest"
