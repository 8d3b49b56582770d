"""The daily limits' races on PostgreSQL, where the track lock is a row lock (on SQLite it is
the database's write lock): 20 parallel uploads for the last slot of a team, and of a person
who moved to a second team (issue 42.3), each store one file."""

from __future__ import annotations

import itertools
import os

import pytest

from tests.app.web.test_hardening import person_in_a_second_team, race, stored_files, variants
from tests.conftest import make_app, make_settings
from tests.support.board import set_track
from tests.support.factories import demo_track, participant
from tests.support.servers import create_database

pytestmark = pytest.mark.integration
_names = itertools.count()


@pytest.fixture
def board(postgres, tmp_path):
    url = create_database(postgres, f"nlg_limits_{next(_names)}_{os.getpid()}")
    settings = make_settings(tmp_path / "instance", database_url=url)
    return make_app(settings, WTF_CSRF_ENABLED=False), settings


def test_parallel_uploads_for_a_teams_last_daily_slot_take_one(board):
    app, settings = board
    demo_track(settings)
    set_track(settings, daily_limit=1, max_systems=5)
    token = participant(settings, "a@x.org", team="A")
    codes = race(app, token, ["same"] * 20, variants(20))
    assert sorted(codes) == [202] + [400] * 19, codes
    assert stored_files(settings) == 1


def test_parallel_uploads_for_a_persons_last_daily_slot_take_one(board):
    app, settings = board
    token = person_in_a_second_team(app, settings)
    codes = race(app, token, ["same"] * 20, variants(20))
    assert sorted(codes) == [202] + [400] * 19, codes
    assert stored_files(settings) == 2
