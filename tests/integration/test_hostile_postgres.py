"""Hostile addresses on PostgreSQL, which refuses what SQLite stores: a NUL character in text
(psycopg's DataError) and an id past its 32-bit INTEGER (``integer out of range``). The attack
run on a PostgreSQL board found each answered HTTP 500; on SQLite they were 404s."""

from __future__ import annotations

import itertools
import os

import pytest

from app.data.db import session_scope
from app.data.models import Role
from app.web.services.accounts import create_user
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
    with session_scope(settings.database_url) as session:
        create_user(session, "admin@x.org", "password123", Role.ADMIN)
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
    answer = client.get(
        f"/api/v1/submissions/{number}", headers={"Authorization": f"Bearer {token}"}
    )
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


FORMS = [
    ("anonymous", "/login", {"email": "a\x00@x.org", "password": "password123"}),
    ("anonymous", "/register", {"email": "n\x00@x.org", "password": "a passphrase of words",
                                "confirm": "a passphrase of words"}),
    ("a@x.org", "/team/join", {"join-name": "A\x00", "join-join_code": "x"}),
    ("org@x.org", "/organise/demo", {"action": "edit", "edit-title": "T\x00"}),
    ("org@x.org", "/organise/demo", {"action": "edit", "edit-title": "T",
                                     "edit-description": "\x00"}),
    ("org@x.org", "/organise/demo/tracks/main", {"settings-title": "T\x00",
                                                 "settings-phase": "test",
                                                 "settings-max_primary": "2"}),
    ("org@x.org", "/challenges/demo/tracks/main/human", {"new-name": "q", "new-method": "rankme",
                                                         "new-criterion": "quality",
                                                         "new-systems": "a\x00"}),
    ("admin@x.org", "/organise/accounts", {"email": "a\x00@x.org", "role": "organiser"}),
]  # fmt: skip


@pytest.mark.parametrize(("who", "url", "fields"), FORMS, ids=[f[1] for f in FORMS])
def test_a_nul_in_a_form_field_is_refused_naming_the_field(board, who, url, fields):
    """PostgreSQL stores no NUL: a form value holding one (an e-mail to log in with, a team to
    join, a title) reached a query or a commit and answered HTTP 500."""
    app, _token = board
    client = app.test_client()
    if who != "anonymous":
        login(client, who)
    answer = client.post(url, data=fields, follow_redirects=True)
    assert answer.status_code < 500, answer.status_code
    assert "U+0000" in answer.get_data(as_text=True)
