"""Stored analyses are sealed where they are stored and opened by the one disclosure rule: the
similarity heatmap (each system's similarity to the hidden references) is the organisers'
alone before publication, whoever lists two of its systems; it is keyed by system id, so a
system named like another team's does not get that team's column; the split report, which
quotes references, is never anyone else's."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.disclosure import Figure, Sealed, computing_from
from app.data.errors import Undisclosed
from app.data.models import TEST, Submission, SubmissionStatistics, System
from app.data.models import TestSet as StoredTestSet
from app.data.visibility import ORGANISERS, PUBLIC, Viewer
from app.web.services.tracks import get_track
from tests.support.board import TRACK, set_track, upload
from tests.support.factories import login, run_queue
from tests.support.paths import DEMO_DATA

PLOT = f"{TRACK}/plots/similarity.svg"
ROOT = Path(__file__).resolve().parents[3]


def _store_matrix(settings, names: list[str], values: list[list[float | None]]) -> list[int]:
    """A matrix over the named systems (ids looked up by name, in order), the two reference
    rows first; returns the ids."""
    with session_scope(settings.database_url) as session:
        ids = [session.scalars(select(System.id).where(System.name == n)).one() for n in names]
        session.get(StoredTestSet, 1).similarity = {
            "rows": ["test set all", "test set rand", *ids],
            "tested": ids,
            "values": values,
        }
    return ids


@pytest.fixture
def team_with_two_systems(app, client, settings, two_teams):
    """Team A's marlin and marlin-2, team B's quokka, a matrix over the three."""
    assert upload(client, two_teams["A"], "marlin-2").status_code == 202
    run_queue(app)
    _store_matrix(
        settings,
        ["marlin", "marlin-2", "quokka"],
        [[0.61, 0.62, 0.2], [0.51, 0.52, 0.1], [None, 0.9, 0.3], [0.9, None, 0.3],
         [0.3, 0.3, None]],
    )  # fmt: skip
    return two_teams


def test_a_team_listing_two_of_the_matrix_systems_gets_no_plot_before_publication(
    client, settings, team_with_two_systems
):
    set_track(settings, phase=TEST)
    login(client, "a@x.org")
    assert client.get(PLOT).status_code == 404
    assert 'id="plot-similarity"' not in client.get(TRACK).data.decode()
    client.post("/logout")
    login(client, "org@x.org")
    organisers = client.get(PLOT)
    assert organisers.status_code == 200 and b"marlin" in organisers.data
    assert 'id="plot-similarity"' in client.get(TRACK).data.decode()
    client.post("/logout")
    set_track(settings, is_published=True)
    published = client.get(PLOT)
    assert published.status_code == 200
    assert "A / marlin-2" in published.data.decode()  # "team / system", as the leaderboard


def test_a_public_part_opens_no_plot_to_anonymous_visitors(client, settings, two_teams):
    _store_matrix(
        settings, ["marlin", "quokka"], [[0.6, 0.2], [0.5, 0.1], [None, 0.3], [0.3, None]]
    )
    assert client.get(PLOT).status_code == 200  # development: open
    set_track(settings, phase=TEST, is_published=False)
    assert client.get(PLOT).status_code == 404


def test_a_system_named_like_a_withdrawn_one_does_not_take_its_column(
    app, client, settings, two_teams
):
    """Keyed by name, team B's new "marlin" would have been drawn with team A's figures."""
    ids = _store_matrix(
        settings, ["marlin", "quokka"], [[0.6, 0.2], [0.5, 0.1], [None, 0.3], [0.3, None]]
    )
    with session_scope(settings.database_url) as session:
        session.get(System, ids[0]).name = "marlin-old"  # what a rename or withdrawal leaves
    assert upload(client, two_teams["B"], "marlin").status_code == 202
    run_queue(app)
    svg = client.get(PLOT).data.decode()
    assert "marlin-old" in svg and "B / marlin" not in svg


def test_stored_analyses_come_out_of_the_database_sealed(client, settings, two_teams):
    _store_matrix(
        settings, ["marlin", "quokka"], [[0.6, 0.2], [0.5, 0.1], [None, 0.3], [0.3, None]]
    )
    with session_scope(settings.database_url) as session:
        session.get(StoredTestSet, 1).split_report = {"mean": 0.5}
    with session_scope(settings.database_url) as session:
        test_set = session.get(StoredTestSet, 1)
        statistics = session.scalars(select(SubmissionStatistics)).first()
        stored = [test_set.similarity, test_set.split_report, test_set.described, statistics.data]
        for sealed in stored:
            assert isinstance(sealed, Sealed)
            for show in (str, bool, len, iter, lambda s: s["rows"], lambda s: f"{s}"):
                with pytest.raises(Undisclosed):
                    show(sealed)
        assert [s.figure for s in stored] == [
            Figure.ANALYSIS, Figure.QUOTING, Figure.REFERENCE, Figure.ITEM
        ]  # fmt: skip


def test_the_rule_opens_each_stored_analysis(settings, two_teams):
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        team_a = session.scalars(select(Submission)).first().system.team_id
        team = Viewer(team_id=team_a)
        matrix = Sealed({"rows": []}, Figure.ANALYSIS)
        report = Sealed({"mean": 0.5}, Figure.QUOTING)
        items = Sealed(b"npz", Figure.ITEM)
        assert team.disclose(track, matrix) == {"rows": []}  # development
        assert team.disclose(track, report) is None
        track.phase = TEST
        assert team.disclose(track, matrix) is None and PUBLIC.disclose(track, matrix) is None
        assert team.disclose(track, items) is None
        organisers_plots = ORGANISERS.for_publication()
        assert organisers_plots.disclose(track, matrix) == {"rows": []}
        assert ORGANISERS.disclose(track, report) == {"mean": 0.5}
        assert ORGANISERS.disclose(track, items) == b"npz"
        track.is_published = True
        assert PUBLIC.disclose(track, matrix) == {"rows": []}
        assert PUBLIC.disclose(track, report) is None  # it quotes the references
        assert team.disclose(track, items) == b"npz"  # the test results are out


def test_the_split_report_is_the_organisers_alone_even_once_published(
    app, client, settings, two_teams
):
    runner = app.test_cli_runner()
    train = str(DEMO_DATA / "references.csv")
    stored = runner.invoke(args=["track", "split-report", "demo", "main", "--train", train])
    assert stored.exit_code == 0, stored.output
    assert "the track's organisers alone ever see it" in stored.output
    set_track(settings, phase=TEST, is_published=True)
    assert 'id="split-report"' not in client.get(TRACK).data.decode()
    login(client, "org@x.org")
    assert 'id="split-report"' in client.get(TRACK).data.decode()


ALLOWED_TO_COMPUTE = {
    "app/data/disclosure.py",  # defines it
    "app/web/services/breakdowns.py",  # bucket figures, sealed
    "app/web/services/rank_groups.py",  # intervals and groups, sealed
}


def test_only_the_services_that_seal_what_they_compute_open_stored_statistics():
    """``computing_from`` hands out raw per-item statistics: only services that seal what
    they compute from them may call it, and ``reveal`` is the rule's own."""
    callers = set()
    revealers = set()
    for path in [*ROOT.glob("app/**/*.py"), *ROOT.glob("worker/**/*.py")]:
        text = path.read_text("utf-8")
        name = str(path.relative_to(ROOT))
        if "computing_from(" in text:
            callers.add(name)
        if ".reveal()" in text:
            revealers.add(name)
    assert callers == ALLOWED_TO_COMPUTE
    assert revealers == {"app/data/disclosure.py", "app/data/visibility.py"}


def test_the_stored_statistics_still_feed_the_computations(settings, two_teams):
    with session_scope(settings.database_url) as session:
        stored = session.scalars(select(SubmissionStatistics)).first()
        assert computing_from(stored.data)[:2] == b"PK"  # an .npz archive
