"""What a team's own uploads may learn of the hidden references before the results are out.

A per-item figure computed against a hidden reference (SR'18 DIST, DRS chrF, E2E slot findings)
is an oracle on that reference: DIST's edit distance rebuilds a sentence by binary insertion in
a few dozen uploads. So per-item figures reach teams only once the test results are published;
test-phase aggregates are rounded as the published tables print them; and a new track limits
uploads per team and day.
"""

from __future__ import annotations

import io
import json

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import DEFAULT_DAILY_LIMIT, Track
from tests.support.factories import (
    GOOD_OUTPUT,
    demo_track,
    login,
    organiser,
    participant,
    run_queue,
    sr18_tracks,
)
from tests.support.tracks import DEMO_DRS, DRS_API, demo_drs_track, post, upload_drs

E2E_API = "/api/v1/challenges/demo/tracks/main"
E2E_PAGE = "/challenges/demo/tracks/main"
DRS_PAGE = "/challenges/drs/tracks/gen"
SR18_OUTPUT = (
    b"The chef cooks fresh pasta .\nOur cat sleeps on the sofa .\n"
    b"Visitors liked the old bridge .\nrained all day .\n"
)
"""The English demo references, the last one a word short: its DIST is 80.0."""


def _set_tracks(settings, **values) -> None:
    with session_scope(settings.database_url) as session:
        for track in session.scalars(select(Track)):
            for name, value in values.items():
                setattr(track, name, value)
        session.commit()


def _e2e_upload(client, token, data: bytes = GOOD_OUTPUT, system: str = "s"):
    return client.post(
        f"{E2E_API}/submissions",
        data={"file": (io.BytesIO(data), "out.txt"), "system": system},
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize("phase", ["development", "test"])
def test_sr18_team_gets_no_per_item_dist_before_publication(app, client, settings, phase):
    sr18_tracks(settings)
    _set_tracks(settings, phase=phase)
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token, SR18_OUTPUT, "en.txt", language="en").status_code == 202
    run_queue(app)
    login(client, "a@x.org")
    page = client.get("/submissions/1/outputs").get_data(as_text=True)
    assert "rained all day ." in page  # the team reads its outputs...
    assert "DIST" not in page and "80.0" not in page  # ...not their distance to a reference
    if phase == "test":
        assert "once the organisers publish" in page
    else:  # a development track has no test results to wait for
        assert "not shown in the development phase" in page and "test results" not in page

    _set_tracks(settings, phase="test", is_published=True)
    page = client.get("/submissions/1/outputs").get_data(as_text=True)
    assert '<th class="num">DIST</th>' in page and "80.0" in page


def test_drs_team_gets_no_per_item_chrf_before_publication(app, client, settings, runner):
    demo_drs_track(runner)
    lines = (DEMO_DRS / "team_output.txt").read_bytes()
    submission = upload_drs(client, settings, lines)
    run_queue(app)
    login(client, "charlstm@example.org")
    page = client.get(f"/submissions/{submission}/outputs").get_data(as_text=True)
    assert "chrF" not in page
    organiser(settings, "org@x.org", "drs")
    client.post("/logout")
    login(client, "org@x.org")
    page = client.get(f"/submissions/{submission}/outputs").get_data(as_text=True)
    assert '<th class="num">chrF</th>' in page  # organisers check the scorer at any time


def test_e2e_slot_findings_wait_for_publication_but_outputs_do_not(app, client, settings):
    demo_track(settings)
    _set_tracks(settings, phase="test", hide_own_scores=True)
    token = participant(settings, "a@x.org", team="A")
    assert _e2e_upload(client, token).status_code == 202
    run_queue(app)
    login(client, "a@x.org")
    page = client.get("/submissions/1/outputs?errors=1").get_data(as_text=True)
    assert page.count("<tr>") == 1 + 10  # every output, even with its scores hidden
    assert "Found" not in page and "slot errors" not in page


def test_test_phase_scores_reach_a_team_rounded_as_published(app, client, settings):
    demo_track(settings)
    _set_tracks(settings, phase="test")
    token = participant(settings, "a@x.org", team="A")
    assert _e2e_upload(client, token).status_code == 202
    run_queue(app)
    auth = {"Authorization": f"Bearer {token}"}
    scores = client.get("/api/v1/submissions/1", headers=auth).json["scores"]
    assert scores and all(round(v, 4) == v for v in scores.values())
    assert all(round(v, 2) == v for m, v in scores.items() if m in ("SER", "OK%", "A+M%"))
    board = client.get(f"{E2E_API}/leaderboard", headers=auth).json
    assert board["rows"][0]["scores"] == scores

    org_token = organiser(settings, "org@x.org", "demo")
    exact = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {org_token}"})
    assert any(round(v, 4) != v for v in exact.json["scores"].values())


def test_sr18_test_phase_scores_have_two_decimals(app, client, settings):
    sr18_tracks(settings)
    _set_tracks(settings, phase="test")
    token = participant(settings, "a@x.org", team="A")
    assert post(client, token, SR18_OUTPUT, "en.txt", language="en").status_code == 202
    run_queue(app)
    scores = client.get("/api/v1/submissions/1", headers={"Authorization": f"Bearer {token}"})
    assert all(round(v, 2) == v for v in scores.json["scores"].values())


def test_a_new_track_limits_uploads_per_team_and_day(app, client, settings):
    demo_track(settings)
    with session_scope(settings.database_url) as session:
        assert session.scalars(select(Track)).one().daily_limit == DEFAULT_DAILY_LIMIT == 5
    token = participant(settings, "a@x.org", team="A")
    lines = GOOD_OUTPUT.decode().splitlines()
    for k in range(DEFAULT_DAILY_LIMIT + 1):
        lines[0] = f"Variant {k}."  # not the same file twice (that is a double click)
        response = _e2e_upload(client, token, "\n".join(lines).encode(), system=f"s{k % 2}")
        assert response.status_code == (202 if k < DEFAULT_DAILY_LIMIT else 400)
    assert "used its 5 submissions for this track in the last 24 hours" in response.json["error"]


def test_cli_track_import_takes_the_default_or_no_limit(runner, settings, tmp_path):
    refs = tmp_path / "refs.csv"
    refs.write_bytes((DEMO_DRS.parent / "references.csv").read_bytes())
    assert runner.invoke(args=["challenge", "create", "c", "--title", "C"]).exit_code == 0
    for slug, extra in (("a", []), ("b", ["--daily-limit", "0"]), ("c", ["--daily-limit", "9"])):
        args = ["track", "import", "c", slug, "--kind", "e2e", "--refs", str(refs), *extra]
        result = runner.invoke(args=args)
        assert result.exit_code == 0, result.output
    with session_scope(settings.database_url) as session:
        limits = {t.slug: t.daily_limit for t in session.scalars(select(Track))}
    assert limits == {"a": DEFAULT_DAILY_LIMIT, "b": None, "c": 9}


def test_a_tiny_subsets_scores_wait_for_publication_like_per_item_figures(
    app, client, settings, runner
):
    """The DRS demo's polarity challenge set is one sentence (and its original): its chrF,
    BLEU... are that sentence's per-item figures, which the outputs page hides. They reached
    the team in the test phase (API and page), and everyone in the development phase."""
    demo_drs_track(runner)
    token = participant(settings, "a@x.org", team="A")
    team = {"Authorization": f"Bearer {token}"}
    output = (DEMO_DRS / "team_output.txt").read_bytes()
    assert post(client, token, output, "en_out.txt", "char", "en", url=DRS_API).status_code == 202
    run_queue(app)
    board = client.get(f"{DRS_API}/leaderboard").json  # development phase: scores public
    assert board["rows"] and board["rows"][0]["scores"]
    assert board["rows"][0]["subsets"] == {}
    assert 'id="challenge-polarity"' not in client.get(DRS_PAGE).get_data(as_text=True)

    _set_tracks(settings, phase="test")
    (row,) = client.get(f"{DRS_API}/leaderboard", headers=team).json["rows"]
    assert row["scores"] and row["subsets"] == {}
    login(client, "a@x.org")
    page = client.get(DRS_PAGE).get_data(as_text=True)
    assert ">char</a>" in page and 'id="challenge-polarity"' not in page
    assert 'id="challenge-tense"' not in page

    _set_tracks(settings, phase="test", is_published=True)
    (row,) = client.get(f"{DRS_API}/leaderboard", headers=team).json["rows"]
    assert set(row["subsets"]) == {"tense", "tense:orig", "polarity", "polarity:orig"}
    assert 'id="challenge-polarity"' in client.get(DRS_PAGE).get_data(as_text=True)


def test_organisers_read_a_tiny_subsets_scores_before_publication(app, client, settings, runner):
    demo_drs_track(runner)
    upload_drs(client, settings, (DEMO_DRS / "team_output.txt").read_bytes())
    run_queue(app)
    _set_tracks(settings, phase="test")
    organiser(settings, "org@x.org", "drs")
    login(client, "org@x.org")
    page = client.get(DRS_PAGE).get_data(as_text=True)
    assert 'id="challenge-polarity"' in page and 'id="challenge-tense"' in page


def test_before_publication_a_team_reads_no_subset_of_any_size(app, settings):
    """A subset of 30 items or more was an aggregate like the headline, until the attack: the
    whole minus its complement gives a 12-item bucket exactly ((630 x whole - 618 x rest) /
    12). Before publication a team reads its headline only; after, subsets of 30 items or more
    are open and smaller ones wait, in the development phase, for the test results."""
    from app.data.disclosure import Disclosure, Figure
    from app.web.services.access import MIN_SUBSET_ITEMS, Viewer

    track = Track(phase="test", is_published=False, hide_own_scores=False, kind="drs")
    team = Viewer(team_id=1)
    assert not team.sees_subset_scores_of(track, MIN_SUBSET_ITEMS - 1)
    assert not team.sees_subset_scores_of(track, 630)
    assert team.disclosure(track, Figure.HEADLINE, team_id=1) is Disclosure.ROUNDED
    assert Viewer(is_organiser=True).sees_subset_scores_of(track, 1)
    track.is_published = True
    assert team.sees_subset_scores_of(track, 1)
    development = Track(phase="development", is_published=False, kind="drs")
    assert team.sees_subset_scores_of(development, MIN_SUBSET_ITEMS)
    assert not team.sees_subset_scores_of(development, MIN_SUBSET_ITEMS - 1)


def test_a_test_phase_bar_chart_draws_no_bootstrap_interval(app, client, settings, monkeypatch):
    """The bars' 95% intervals are percentiles of the exact resampled scores, drawn to a
    millionth of a pixel: a team read its test-phase score far finer than the rounded one it
    is shown (and so could probe the references with it)."""
    drawn = []

    def bars(column, labels, values, intervals, baselines):  # what would be drawn
        drawn.append((values, intervals))
        return json.dumps(labels).encode()

    monkeypatch.setattr("app.web.exports.metric_bars", bars)
    demo_track(settings)
    _set_tracks(settings, phase="test")
    token = participant(settings, "a@x.org", team="A")
    assert _e2e_upload(client, token).status_code == 202
    run_queue(app)
    login(client, "a@x.org")
    assert client.get(f"{E2E_PAGE}/plots/bars.svg").status_code == 200
    ((values, intervals),) = drawn
    assert values == [round(values[0], 4)] and intervals == [None]

    _set_tracks(settings, phase="test", is_published=True)
    assert client.get(f"{E2E_PAGE}/plots/bars.svg").status_code == 200
    assert drawn[-1][1][0] is not None and drawn[-1][1][0][0] < drawn[-1][0][0]
