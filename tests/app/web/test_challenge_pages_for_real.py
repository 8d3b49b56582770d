"""Pages and exports of a challenge set up from a bundle as a real one is: teams that call
their systems alike ("primary"), a kind that prints 3 decimals and BLEU on 0-1, a team's
second system, a development phase, the bundle format page and the challenge page."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import yaml
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Challenge, Score, System, Track
from app.data.storage import storage_for
from app.web.services.bundle_format import KIND_KEY_DOCS, kind_keys
from app.web.services.bundles import Bundle, import_bundle
from scorer.kinds.definitions import KIND_KEYS, build_profile
from tests.support.factories import login, organiser, participant, run_queue
from tests.support.snapshots import restored

TRACK = "/challenges/alike/tracks/t"
API = "/api/v1/challenges/alike/tracks/t"
KIND = {
    "name": "plain-3",
    "reader": "parallel",
    "metrics": [{"metric": "BLEU-multibleu-detok", "options": {"references": 2}}, "chrF++"],
    "decimals": 3,
    "scale": {"BLEU": 0.01},
}
INPUTS = [f"place{k} | food{k} | area{k}" for k in range(6)]
REFERENCES = [
    [f"place{k} serves food{k} in the area{k} ." for k in range(6)],
    [f"in area{k} , place{k} has food{k} ." for k in range(6)],
]
OUTPUTS = {
    ("Alpha", "primary"): [f"place{k} serves food{k} in area{k} ." for k in range(6)],
    ("Beta", "primary"): [f"place{k} has food{k} ." for k in range(6)],
}


def _lines(texts: list[str]) -> bytes:
    return "".join(f"{text}\n" for text in texts).encode()


def _alike(app, settings) -> None:
    files = {
        "inputs.txt": _lines(INPUTS),
        "reference0": _lines(REFERENCES[0]),
        "reference1": _lines(REFERENCES[1]),
    }
    systems = []
    for (team, name), texts in OUTPUTS.items():
        files[f"{team}.txt"] = _lines(texts)
        systems.append({"track": "t", "name": name, "team": team, "primary": True,
                        "submissions": [{"language": "en", "file": f"{team}.txt"}]})  # fmt: skip
    definition = {
        "format": 1,
        "challenge": {"slug": "alike", "title": "Alike"},
        "kinds": [KIND],
        "tracks": [{"slug": "t", "kind": "plain-3", "test_sets": [
            {"language": "en", "inputs": "inputs.txt", "references": ["reference0", "reference1"]}
        ]}],
        "systems": systems,
    }  # fmt: skip
    files["challenge.yaml"] = yaml.safe_dump(definition).encode()
    with session_scope(settings.database_url) as session:
        import_bundle(
            session, app.extensions["nlgboard.queue"], storage_for(settings), Bundle(files)
        )
    run_queue(app)


@pytest.fixture
def alike(app, settings):
    """The challenge "alike": teams Alpha and Beta, each with a scored system "primary"."""
    restored("alike-primaries", settings, _alike)


def _set(settings, **values) -> None:
    with session_scope(settings.database_url) as session:
        track = session.scalars(
            select(Track).join(Challenge).where(Challenge.slug == "alike")
        ).one()
        for name, value in values.items():
            setattr(track, name, value)


def _ids(settings) -> dict[str, int]:
    with session_scope(settings.database_url) as session:
        return {s.team.name: s.id for s in session.scalars(select(System))}


def _stored_bleu(settings, team: str) -> float:
    with session_scope(settings.database_url) as session:
        return session.scalars(
            select(Score.value)
            .join(Score.submission)
            .join(System)
            .where(System.name == "primary", Score.metric == "BLEU", Score.subset == "")
            .where(System.team.has(name=team))
        ).one()


def test_systems_named_alike_show_their_teams_in_every_view(client, settings, alike):
    ids = _ids(settings)
    compare = client.get(f"{TRACK}/compare?a={ids['Alpha']}&b={ids['Beta']}").get_data(as_text=True)
    assert "<title>Alpha / primary vs Beta / primary" in compare
    assert "<h1>A: Alpha / primary · B: Beta / primary</h1>" in compare
    pickers = compare.split('id="compare-pickers"')[1].split("</form>")[0]
    assert (
        pickers.count(">Alpha / primary</option>") == 2 and pickers.count(">Beta / primary<") == 2
    )
    tex = client.get(f"{TRACK}/export.tex").get_data(as_text=True)
    assert "Alpha / primary" in tex and "Beta / primary" in tex
    rows = json.loads(client.get(f"{TRACK}/export.json").data)["rows"]
    assert {row["label"] for row in rows} == {"Alpha / primary", "Beta / primary"}
    bars = client.get(f"{TRACK}/plots/bars.svg").get_data(as_text=True)
    assert "Alpha / primary" in bars and "Beta / primary" in bars  # matplotlib's text comments
    board = client.get(TRACK).get_data(as_text=True)
    assert 'aria-label="Compare Alpha / primary with Beta / primary"' in board


def test_the_kind_decimals_and_scale_print_everywhere_before_and_after_publication(
    client, settings, alike
):
    stored = _stored_bleu(settings, "Alpha")
    assert 1 < stored <= 100  # stored on 0-100, as the metric computes it
    printed = f"{round(stored / 100, 3):.3f}"
    board = client.get(TRACK).get_data(as_text=True)
    assert f">{printed}<" in board and f"{stored:.4f}" not in board
    tex = client.get(f"{TRACK}/export.tex").get_data(as_text=True)
    assert f"{printed}" in tex and "% BLEU printed rounded to 3 decimals x 0.01" in tex
    records = list(csv.DictReader(io.StringIO(client.get(f"{TRACK}/export.csv").data.decode())))
    alpha = next(r for r in records if r["team"] == "Alpha")
    assert alpha["BLEU printed"] == printed and float(alpha["BLEU"]) == stored  # every digit
    assert alpha["values"].startswith("full precision")
    table = json.loads(client.get(f"{TRACK}/export.json").data)
    assert table["printing"]["BLEU"] == {
        "decimals": 3, "truncated": False, "scale": 0.01, "rule": "rounded to 3 decimals x 0.01"
    }  # fmt: skip

    _set(settings, phase="test", is_published=False)
    token = participant(settings, "alpha@x.org", team="Alpha")
    login(client, "alpha@x.org")
    own = client.get(TRACK).get_data(as_text=True)
    assert f">{printed}<" in own  # the team's own row, as the table will print it
    answer = client.get(f"{API}/leaderboard", headers={"Authorization": f"Bearer {token}"}).json
    (row,) = answer["rows"]
    assert row["scores"]["BLEU"] == pytest.approx(round(stored / 100, 3) * 100, abs=1e-9)
    mine = client.get("/submissions").get_data(as_text=True)
    assert f"<dd>{printed}</dd>" in mine


def test_a_profile_prints_on_its_scale_and_refuses_a_bad_one():
    profile = build_profile(KIND)
    assert profile.printed("BLEU", 45.6789) == "0.457"
    assert profile.published("BLEU", 45.6789) == pytest.approx(45.7)
    assert profile.printed("chrF++", 0.123456, signed=True) == "+0.123"
    assert profile.published("chrF++", 0.123456) == 0.123
    from scorer.kinds.definitions import KindError

    with pytest.raises(KindError, match=r"kind\.scale"):
        build_profile({**KIND, "name": "bad-scale", "scale": {"BLEU": 0}})
    with pytest.raises(KindError, match=r"kind\.scale"):
        build_profile({**KIND, "name": "bad-column", "scale": {"METEOR": 0.01}})


def test_a_development_track_speaks_of_no_test_results(client, settings, alike):
    ids = _ids(settings)
    compare = client.get(f"{TRACK}/compare?a={ids['Alpha']}&b={ids['Beta']}").get_data(as_text=True)
    assert "not shown in the development phase" in compare and "test results" not in compare
    _set(settings, phase="test", is_published=False)
    participant(settings, "alpha@x.org", team="Alpha")
    login(client, "alpha@x.org")
    own = f"{TRACK}/compare?a={ids['Alpha']}&b={ids['Alpha']}"
    assert "the organisers publish the test results" in client.get(own).get_data(as_text=True)


def test_a_teams_systems_are_primary_up_to_the_limit_and_all_shown_in_development(
    client, settings, alike
):
    token = participant(settings, "alpha@x.org", team="Alpha")
    _set(settings, max_primary=2)
    for name in ("second", "third"):
        response = client.post(
            f"{API}/submissions",
            data={"file": (io.BytesIO(_lines(OUTPUTS["Beta", "primary"])), "o.txt"),
                  "system": name},
            headers={"Authorization": f"Bearer {token}"}, content_type="multipart/form-data",
        )  # fmt: skip
        assert response.status_code == 202, response.json
    run_queue(client.application)
    with session_scope(settings.database_url) as session:
        systems = session.scalars(select(System).where(System.team.has(name="Alpha")))
        primary = {s.name: s.is_primary for s in systems}
    assert primary == {"primary": True, "second": True, "third": False}
    board = client.get(TRACK).get_data(as_text=True)
    assert ">third</a>" in board and board.count('class="compare"') == 4
    assert "every system is listed" in board
    _set(settings, phase="test", is_published=True)
    board = client.get(TRACK).get_data(as_text=True)
    assert ">second</a>" in board and ">third</a>" not in board  # secondary: on request
    assert "Show all systems" in board and ">third</a>" in client.get(f"{TRACK}?all=1").text


def test_the_bundle_format_page_documents_every_kind_key(client, settings):
    assert set(KIND_KEY_DOCS) == KIND_KEYS  # a new key needs its line; a stale line goes
    assert all(text for _, text in kind_keys())
    page = client.get("/bundle-format").get_data(as_text=True)
    for key in KIND_KEYS:
        assert f'id="kind-{key}"' in page, key
    assert "Not documented yet" not in page and 'id="key-tracks"' in page
    assert "<code>parallel</code>" in page  # the readers, from the registry


def test_the_import_form_links_the_bundle_format(client, settings, alike):
    organiser(settings, "org@x.org", "alike")
    login(client, "org@x.org")
    page = client.get("/organise").get_data(as_text=True)
    assert 'href="/bundle-format"' in page


def test_the_challenge_page_has_a_timeline_status_and_each_teams_entries(client, settings, alike):
    page = client.get("/challenges/alike").get_data(as_text=True)
    assert "Status:</strong> Development phase" in page and 'id="timeline"' in page
    assert 'id="take-part"' in page
    entries = page.split('id="team-entries"')[1].split("</table>")[0]
    assert re.search(
        r"<td>Alpha</td><td class=\"num\">1</td><td class=\"num\">1</td><td>\d{4}-", entries
    )
    assert "<td>Beta</td>" in entries

    _set(settings, phase="test", is_published=False)
    page = client.get("/challenges/alike").get_data(as_text=True)
    assert 'id="team-entries"' not in page and "2 teams with entries not listed" in page
    assert "Status:</strong> Test phase" in page
    participant(settings, "alpha@x.org", team="Alpha")
    login(client, "alpha@x.org")
    page = client.get("/challenges/alike").get_data(as_text=True)
    assert "<td>Alpha</td>" in page and "<td>Beta</td>" not in page
    assert "1 team with entries not listed" in page


def test_the_compare_page_says_which_way_each_metric_is_better(client, settings, two_teams):
    with session_scope(settings.database_url) as session:
        ids = {s.name: s.id for s in session.scalars(select(System))}
    page = client.get(
        f"/challenges/demo/tracks/main/compare?a={ids['marlin']}&b={ids['quokka']}"
    ).get_data(as_text=True)
    assert re.search(r'<th scope="row">SER</th><td class="direction">lower ↓</td>', page)
    assert re.search(r'<th scope="row">BLEU</th><td class="direction">higher ↑</td>', page)
