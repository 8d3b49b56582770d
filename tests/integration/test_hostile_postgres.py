"""Hostile addresses on PostgreSQL, which refuses what SQLite stores: a NUL character in text
(psycopg's DataError) and an id past its 32-bit INTEGER (``integer out of range``). The attack
run on a PostgreSQL board found each answered HTTP 500; on SQLite they were 404s."""

from __future__ import annotations

import itertools
import os

import pytest

from tests.conftest import make_app, make_settings
from tests.support.factories import demo_track, login, organiser, participant
from tests.support.servers import create_database

pytestmark = pytest.mark.integration
_names = itertools.count()

PAST_INTEGER = [2**31, 2**63 - 1]
NUL = ["%00", "a%00b"]


@pytest.fixture
def board(postgres, tmp_path):
    url = create_database(postgres, f"nlg_hostile_{next(_names)}_{os.getpid()}")
    settings = make_settings(tmp_path / "instance", database_url=url)
    app = make_app(settings, WTF_CSRF_ENABLED=False)
    demo_track(settings)
    organiser(settings, "org@x.org", "demo")
    token = participant(settings, "a@x.org", team="A")
    return app, token


@pytest.mark.parametrize("number", PAST_INTEGER)
def test_ids_past_postgresqls_integers_are_404(board, number):
    app, token = board
    client = app.test_client()
    login(client, "org@x.org")
    for url in (f"/systems/{number}", f"/submissions/{number}/outputs", f"/annotate/{number}"):
        assert client.get(url).status_code == 404, url
    for url in (f"/systems/{number}/primary", f"/submissions/{number}/withdraw"):
        assert client.post(url).status_code == 404, url
    answer = client.get(f"/api/v1/submissions/{number}", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 404


@pytest.mark.parametrize("nul", NUL)
def test_a_nul_in_an_address_is_refused_not_500(board, nul):
    app, token = board
    client = app.test_client()
    login(client, "org@x.org")
    for url in (
        f"/challenges/{nul}",
        f"/challenges/demo/tracks/{nul}",
        f"/challenges/demo/tracks/main/human/{nul}",
        f"/challenges/demo/tracks/main/plots/human-{nul}.svg",
        f"/organise/{nul}",
        f"/api/v1/challenges/{nul}/tracks/main/leaderboard",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/challenges/demo/tracks/{nul}/human").status_code == 404
    api = client.post(
        f"/api/v1/challenges/demo/tracks/{nul}/submissions",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert api.status_code == 404
    assert client.get(f"/challenges/demo/tracks/main?lang={nul}").status_code == 404
