"""Fixtures shared by the unit tests of the web app's rules."""

from __future__ import annotations

import pytest

from tests.support.board import upload
from tests.support.factories import demo_track, organiser, participant, run_queue
from tests.support.snapshots import restored


@pytest.fixture
def two_teams(app, settings):
    """Team A's system "marlin" and team B's "quokka", scored; an organiser of the challenge."""
    return restored("two-teams", settings, _two_teams)


def _two_teams(app, settings):
    client = app.test_client()
    demo_track(settings)
    tokens = {
        "A": participant(settings, "a@x.org", team="A"),
        "B": participant(settings, "b@x.org", team="B"),
        "org": organiser(settings, "org@x.org", "demo"),
    }
    assert upload(client, tokens["A"], "marlin").status_code == 202
    other = b"\n".join(b"a restaurant" for _ in range(10)) + b"\n"
    assert upload(client, tokens["B"], "quokka", other).status_code == 202
    run_queue(app)
    return tokens
