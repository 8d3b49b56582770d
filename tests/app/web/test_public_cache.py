"""Shared public pages (``app/web/public_cache.py``): drawn once for anonymous visitors, served
while the board's change counter is unchanged, never to or from a cookie or a token.

The pages live for an hour here, so only the counter can make a change show."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import System
from tests.conftest import make_app
from tests.support.board import API, TRACK, bearer, set_track, upload
from tests.support.factories import demo_track, login, participant, run_queue, scored_system

BOARD = f"{API}/leaderboard"


@pytest.fixture
def app(settings):
    app = make_app(settings, WTF_CSRF_ENABLED=False, PUBLIC_CACHE_SECONDS=3600)
    drawn = []
    inner = app.wsgi_app.wsgi_app

    def counting(environ, start_response):
        drawn.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    app.wsgi_app.wsgi_app = counting
    app.drawn = drawn  # the requests that reached the Flask app
    return app


def anonymous(app, path: str, **headers: str):
    """A GET with no cookie and no token, as a crawler or a first visit sends it."""
    return app.test_client(use_cookies=False).get(path, headers=headers)


def scored(settings, name: str, team: str | None = None) -> None:
    with session_scope(settings.database_url) as session:
        scored_system(session, "demo", "main", name, {"BLEU": 0.6, "NIST": 8.0}, team=team)


def test_an_anonymous_page_is_drawn_once_then_shared_and_revalidated(app, settings):
    demo_track(settings)
    scored(settings, "marlin")
    first = anonymous(app, TRACK)
    again = anonymous(app, TRACK)
    assert app.drawn == [TRACK]
    assert again.data == first.data and "marlin" in again.text
    assert again.headers["Cache-Control"] == "no-cache"
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    assert {"Cookie", "Authorization"} <= {v.strip() for v in again.headers["Vary"].split(",")}
    unchanged = anonymous(app, TRACK, **{"If-None-Match": again.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert app.drawn == [TRACK]


def test_a_new_score_shows_on_the_next_anonymous_request(app, settings):
    demo_track(settings)
    token = participant(settings, "a@x.org", team="A")
    assert "marlin" not in anonymous(app, TRACK).text
    assert anonymous(app, BOARD).json["rows"] == []
    upload(app.test_client(), token, "marlin")
    run_queue(app)
    assert "marlin" in anonymous(app, TRACK).text
    assert [row["system"] for row in anonymous(app, BOARD).json["rows"]] == ["marlin"]


def test_publication_and_its_withdrawal_show_on_the_next_anonymous_request(app, settings):
    demo_track(settings)
    set_track(settings, phase="test")
    scored(settings, "marlin", team="A")
    assert "marlin" not in anonymous(app, TRACK).text
    set_track(settings, is_published=True)
    assert "marlin" in anonymous(app, TRACK).text
    assert [row["system"] for row in anonymous(app, BOARD).json["rows"]] == ["marlin"]
    set_track(settings, is_published=False)  # hidden again: at once, not a few seconds later
    assert "marlin" not in anonymous(app, TRACK).text
    assert anonymous(app, BOARD).json["rows"] == []
    set_track(settings, phase="development")
    assert "marlin" in anonymous(app, TRACK).text
    set_track(settings, phase="test")
    assert "marlin" not in anonymous(app, TRACK).text


def test_anonymising_a_system_shows_on_the_next_anonymous_request(app, settings):
    demo_track(settings)
    scored(settings, "marlin", team="A")
    assert "marlin" in anonymous(app, TRACK).text
    with session_scope(settings.database_url) as session:
        session.scalars(select(System)).one().is_anonymous = True
    assert "marlin" not in anonymous(app, TRACK).text


def test_signed_in_and_token_requests_neither_get_nor_leave_the_shared_page(app, settings):
    """Test phase before publication: team A sees its own system, the public nothing."""
    demo_track(settings)
    set_track(settings, phase="test")
    token = participant(settings, "a@x.org", team="A")
    scored(settings, "marlin", team="A")
    assert "marlin" not in anonymous(app, TRACK).text  # the shared page, drawn
    assert anonymous(app, BOARD).json["rows"] == []
    member = app.test_client()
    login(member, "a@x.org")
    drawn = len(app.drawn)
    own = member.get(TRACK)
    assert "marlin" in own.text and own.headers["Cache-Control"] == "private, no-store"
    answer = app.test_client(use_cookies=False).get(BOARD, headers=bearer(token))
    assert [row["system"] for row in answer.json["rows"]] == ["marlin"]
    assert answer.headers["Cache-Control"] == "private, no-store"
    assert len(app.drawn) == drawn + 2  # both drawn for their viewer
    assert "marlin" not in anonymous(app, TRACK).text  # and the public's page is the same
    assert anonymous(app, BOARD).json["rows"] == []
    assert len(app.drawn) == drawn + 2


def test_a_request_with_any_cookie_is_drawn_for_itself(app, settings):
    demo_track(settings)
    anonymous(app, TRACK)
    visitor = app.test_client(use_cookies=False)
    page = visitor.get(TRACK, headers={"Cookie": "session=whatever"})
    assert page.status_code == 200 and app.drawn == [TRACK, TRACK]
    assert page.headers["Cache-Control"] == "no-store"


def test_pages_are_not_shared_when_the_cache_is_off(settings):
    app = make_app(settings, PUBLIC_CACHE_SECONDS=0)
    demo_track(settings)
    page = anonymous(app, TRACK)
    assert page.headers["Cache-Control"] == "no-store" and "ETag" not in page.headers
