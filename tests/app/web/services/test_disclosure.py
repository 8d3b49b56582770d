"""The one disclosure rule (``app.data.disclosure``, ``Viewer.disclosure``), and a regression
test per probe the attack found before it: before a test phase's publication a team reads its
own headline scores, rounded, and nothing else computed from the hidden references."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.disclosure import Disclosure, Figure, Hidden
from app.data.errors import Undisclosed
from app.data.models import Submission, System, Track
from app.web.services.access import Viewer
from tests.app.web.services.test_compare import _copy_submission, _ids
from tests.support.board import API, TRACK, bearer, set_track

TEAM, OTHER = 1, 2
FIGURES = list(Figure)


def _track(phase: str, published: bool = False, hide_own: bool = False) -> Track:
    return Track(phase=phase, is_published=published, hide_own_scores=hide_own, kind="e2e")


@pytest.mark.parametrize("figure", FIGURES)
def test_before_publication_a_team_reads_its_headline_rounded_and_nothing_else(figure):
    team = Viewer(team_id=TEAM)
    track = _track("test")
    expected = Disclosure.ROUNDED if figure is Figure.HEADLINE else Disclosure.NONE
    assert team.disclosure(track, figure, team_id=TEAM) is expected
    assert team.disclosure(track, figure, team_id=OTHER) is Disclosure.NONE
    assert team.disclosure(_track("test", hide_own=True), figure, TEAM) is Disclosure.NONE
    assert Viewer().disclosure(track, figure, team_id=TEAM) is Disclosure.NONE
    assert Viewer(is_organiser=True).disclosure(track, figure, team_id=TEAM) is Disclosure.EXACT


@pytest.mark.parametrize("figure", [f for f in FIGURES if f is not Figure.QUOTING])
def test_after_publication_every_figure_is_open(figure):
    published = _track("test", published=True)
    assert Viewer().disclosure(published, figure, team_id=OTHER, items=3) is Disclosure.EXACT


@pytest.mark.parametrize("phase", ["development", "test"])
def test_an_analysis_quoting_the_references_is_its_organisers_alone_in_every_phase(phase):
    for track in (_track(phase), _track(phase, published=True)):
        for viewer in (Viewer(), Viewer(team_id=TEAM), Viewer(team_id=TEAM, publication=True)):
            assert viewer.disclosure(track, Figure.QUOTING, team_id=TEAM) is Disclosure.NONE
        assert Viewer(is_organiser=True).disclosure(track, Figure.QUOTING) is Disclosure.EXACT


def test_in_development_figures_of_a_few_items_wait_for_the_test_results():
    development = _track("development")
    assert Viewer().disclosure(development, Figure.HEADLINE, OTHER) is Disclosure.EXACT
    assert Viewer().disclosure(development, Figure.SUBSET, OTHER, items=30) is Disclosure.EXACT
    assert Viewer().disclosure(development, Figure.SUBSET, OTHER, items=29) is Disclosure.NONE
    assert Viewer().disclosure(development, Figure.ITEM, OTHER) is Disclosure.NONE


@pytest.mark.parametrize("figure", [Figure.SUBSET, Figure.INTERVAL, Figure.SIGNIFICANCE])
def test_a_public_part_opens_in_the_test_phase_only_from_30_items(figure):
    """A 12-item public part gave one hidden item's exact DIST_char: under 30 items a public
    part's figures are per-item figures in all but name, however it was declared."""
    test = _track("test")
    assert Viewer().disclosure(test, figure, OTHER, 30, public_part=True) is Disclosure.EXACT
    assert Viewer().disclosure(test, figure, OTHER, 12, public_part=True) is Disclosure.NONE
    assert Viewer().disclosure(test, figure, OTHER, None, public_part=True) is Disclosure.NONE
    development = _track("development")
    assert Viewer().disclosure(development, figure, OTHER, 12, True) is Disclosure.NONE


def test_a_sealed_figure_refuses_every_way_out_but_the_rule():
    sealed = Hidden(0.6850123, Figure.SUBSET, "ROUGE_L", TEAM, 12)
    for leave in (float, str, bool, round, lambda h: f"{h:.4f}", lambda h: "%.4f" % h,  # noqa: UP031
                  lambda h: h - 0.5, lambda h: 630 * h):  # fmt: skip
        with pytest.raises(Undisclosed):
            leave(sealed)
    assert "0.685" not in repr(sealed)
    assert Viewer(team_id=TEAM).disclose(_track("test"), sealed) is None
    assert Viewer(is_organiser=True).disclose(_track("test"), sealed) == 0.6850123


def test_a_sealed_figure_in_a_page_or_json_is_refused(app):
    from flask import render_template_string

    sealed = Hidden(0.5, Figure.HEADLINE, "BLEU")
    with app.test_request_context():
        with pytest.raises(Undisclosed):
            render_template_string("{{ value }}", value=sealed)
        with pytest.raises(Undisclosed):
            app.json.dumps({"BLEU": sealed})


def test_before_publication_a_team_gets_no_breakdown_bucket(client, settings, two_teams):
    """The attack's HIGH finding: buckets of 43-132 items shown to 2 decimals, x their size,
    gave each probe's own score (5 probes an upload)."""
    set_track(settings, phase="test")
    answer = client.get(f"{API}/breakdown", query_string={"attribute": "slots"},
                        headers=bearer(two_teams["A"]))  # fmt: skip
    assert answer.status_code in (400, 404) and "breaks down by nothing" in answer.json["error"]
    page = client.get(TRACK, query_string={"breakdown": "slots"}, headers=bearer(two_teams["A"]))
    assert '<section id="breakdown"' not in page.get_data(as_text=True)
    organiser = client.get(f"{API}/breakdown", query_string={"attribute": "slots"},
                           headers=bearer(two_teams["org"]))  # fmt: skip
    assert organiser.status_code == 200 and organiser.json["rows"]
    set_track(settings, is_published=True)
    public = client.get(f"{API}/breakdown", query_string={"attribute": "slots"})
    assert public.status_code == 200 and public.json["rows"]


def test_before_publication_a_team_comparing_its_systems_gets_no_p_value_or_difference(
    client, settings, two_teams
):
    """The attack: two own systems one word apart, ROUGE_L 0.6850 / 0.6850 / +0.0000 but p =
    0.2547 when the word is in the references, 1.000 when not."""
    set_track(settings, phase="test")
    with session_scope(settings.database_url) as session:
        marlin = session.get(System, _ids(settings)["marlin"])
        second = System(track_id=marlin.track_id, team_id=marlin.team_id, name="second",
                        is_primary=True)  # fmt: skip
        session.add(second)
        session.flush()
        first = session.scalars(select(Submission).where(Submission.system_id == marlin.id)).one()
        _copy_submission(session, first, second)
    ids = _ids(settings)
    own = {"a": ids["marlin"], "b": ids["second"]}
    answer = client.get(f"{API}/compare", query_string=own, headers=bearer(two_teams["A"])).json
    assert answer["metrics"] and answer["buckets"] == [] and answer["attributes"] == []
    for difference in answer["metrics"]:
        assert difference.keys() == {"metric", "a", "b"}, difference
    organiser = client.get(f"{API}/compare", query_string=own,
                           headers=bearer(two_teams["org"])).json  # fmt: skip
    assert all("p_value" in d and "difference" in d for d in organiser["metrics"])


def test_before_publication_a_team_gets_no_subset_to_subtract(client, settings, two_teams):
    """The attack: a hidden 12-item bucket = (630 x whole - 618 x complement) / 12 from two
    subsets of 30 items or more. Before publication no subset of any size reaches a team."""
    set_track(settings, phase="test")
    with session_scope(settings.database_url) as session:
        track = session.scalars(select(Track)).one()
        rows = _leaderboard_rows(session, track, Viewer(team_id=_team_of(session, "marlin")))
    assert rows and all(row.subsets == {} and row.rank == "" for row in rows)
    assert all(row.rank_group is None for row in rows)


def _team_of(session, name: str) -> int:
    return session.scalars(select(System.team_id).where(System.name == name)).one()


def _leaderboard_rows(session, track: Track, viewer: Viewer):
    from app.web.services.leaderboard import leaderboard

    return leaderboard(session, track, viewer=viewer)[1]
