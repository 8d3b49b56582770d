"""How the board answers a refusal over HTTP: one class of refusal per case, as a page and as
JSON under /api/ (``app/web/errors.py``, the one place that maps them)."""

from __future__ import annotations

import pytest

from app.data.errors import MailError
from app.web.errors import BundleError, DomainError, TooManyRequests
from scorer.errors import InputError, KindError

REFUSALS = {
    "input": (InputError("expected 10 outputs", filename="out.txt", line=3), 400),
    "kind": (KindError("kinds[0].metrics: unknown 'XYZ'"), 400),
    "domain": (DomainError("the deadline has passed"), 400),
    "bundle": (BundleError("challenge.yaml: no tracks"), 400),
    "mail": (MailError("e-mail address 'a@b' is not one plain address"), 400),
    "too-many": (TooManyRequests("this address has used its hour of requests"), 429),
}


@pytest.fixture
def refusing(app):
    """The app with one route that raises the refusal it is named after, as a page and as
    an API route (a view that does not catch it itself)."""

    def refuse(name: str) -> str:
        raise REFUSALS[name][0]

    app.add_url_rule("/refuse/<name>", "refuse", refuse)
    app.add_url_rule("/api/v1/refuse/<name>", "api_refuse", refuse)
    return app.test_client()


@pytest.mark.parametrize("name", REFUSALS)
def test_a_refusal_is_answered_as_a_page_with_its_status_and_the_rule(refusing, name):
    error, status = REFUSALS[name]
    answer = refusing.get(f"/refuse/{name}")
    page = answer.get_data(as_text=True)
    assert answer.status_code == status and answer.mimetype == "text/html"
    assert f"Refused: {error}. Nothing was changed." in page.replace("&#39;", "'")
    assert "Traceback" not in page


@pytest.mark.parametrize("name", REFUSALS)
def test_a_refusal_is_answered_in_json_under_the_api(refusing, name):
    error, status = REFUSALS[name]
    answer = refusing.get(f"/api/v1/refuse/{name}")
    assert answer.status_code == status
    assert answer.json == {"error": f"refused: {error}; nothing was stored"}


def test_a_bug_is_not_a_refusal(app):
    """A ValueError of the code's own (not a Refused) stays a 500 that tells nothing."""

    def broken() -> str:
        raise ValueError("internal detail")

    app.add_url_rule("/api/v1/broken", "broken", broken)
    answer = app.test_client().get("/api/v1/broken")
    assert answer.status_code == 500 and "internal detail" not in answer.get_data(as_text=True)


def test_the_error_page_of_a_failed_transaction_is_drawn_for_a_signed_in_person(app, settings):
    """A statement the database refused leaves the request's session refusing every read until
    it is rolled back, and the page names the signed-in person: the handler rolls back, so the
    answer is the 500 page, not a second error inside the first (issue 47)."""
    from app.data.db import session_scope
    from app.data.models import Role, Team
    from app.web.extensions import db
    from app.web.services.accounts import create_user
    from tests.support.factories import login

    with session_scope(settings.database_url) as session:
        create_user(session, "org@x.org", "password123", Role.ORGANISER)

    def failing() -> str:
        db().add(Team(name=None))  # NOT NULL: the flush fails, the session needs a rollback
        db().flush()
        return "stored"

    app.add_url_rule("/failing", "failing", failing)
    client = app.test_client()
    login(client, "org@x.org")
    answer = client.get("/failing")
    assert answer.status_code == 500
    page = answer.get_data(as_text=True)
    assert "Something went wrong on our side" in page and "org@x.org" in page
