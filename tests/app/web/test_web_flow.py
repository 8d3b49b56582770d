"""The participant's web flow with CSRF protection on, as a browser without JavaScript sees it."""

import io
import re

import pytest

from tests.conftest import make_app
from tests.support.factories import GOOD_OUTPUT, demo_track
from tests.support.factories import register as register_and_confirm


@pytest.fixture
def csrf_app(settings):
    return make_app(settings)  # CSRF on, as in production


@pytest.fixture
def browser(csrf_app):
    return csrf_app.test_client()


def csrf_token(page: bytes) -> str:
    match = re.search(rb'name="(?:[a-z]+-)?csrf_token" type="hidden" value="([^"]+)"', page)
    if match is None:
        match = re.search(rb'name="csrf_token" value="([^"]+)"', page)
    assert match, "no CSRF token in page"
    return match.group(1).decode()


def register(browser, settings, email="ana@uni.example", password="s3cret-passphrase"):
    """Register, open the mailed link (which logs in) and land on the Team page."""
    confirmed = register_and_confirm(browser, settings, email, password)
    return browser.get(confirmed.headers["Location"], follow_redirects=True)


def test_post_without_csrf_token_is_refused(browser):
    response = browser.post(
        "/register", data={"email": "a@b.org", "password": "x" * 10, "confirm": "x" * 10}
    )
    assert response.status_code == 400
    assert b"The CSRF token is missing. The form has expired" in response.data


def test_register_team_upload_follow_and_choose_primary(browser, settings, csrf_app):
    demo_track(settings)
    page = register(browser, settings)
    assert b"Create a team" in page.data

    token = csrf_token(page.data)
    page = browser.post(
        "/team/create",
        data={"create-name": "Ana's lab", "create-csrf_token": token},
        follow_redirects=True,
    )
    assert b"Team Ana&#39;s lab" in page.data

    upload_page = browser.get("/challenges/demo/tracks/main/submit")
    assert b"exactly <strong>10</strong> outputs" in upload_page.data
    token = csrf_token(upload_page.data)
    refused = browser.post(
        "/challenges/demo/tracks/main/submit",
        data={"system": "s1", "file": (io.BytesIO(b"one\ntwo\n"), "out.txt"), "csrf_token": token},
        content_type="multipart/form-data",
    )
    assert b"Refused: out.txt: expected 10 outputs" in refused.data
    assert b"Nothing was stored." in refused.data

    for name in ("s1", "s2"):
        page = browser.post(
            "/challenges/demo/tracks/main/submit",
            data={
                "system": name,
                "file": (io.BytesIO(GOOD_OUTPUT), "out.txt"),
                "csrf_token": token,
            },
            content_type="multipart/form-data",
            follow_redirects=True,
        )
        assert b"queued for scoring." in page.data
    queue = csrf_app.extensions["nlgboard.queue"]
    queue.start()
    queue.join()

    mine = browser.get("/submissions").data.decode()
    assert mine.count("status-scored") == 2
    assert re.search(
        r'<dt>BLEU <span title="higher is better">↑</span></dt><dd>[01]\.\d{4}</dd>', mine
    )

    board = browser.get("/challenges/demo/tracks/main").data.decode()
    assert ">s1</a>" in board and ">s2</a>" in board  # primary until the track's limit, 2
    assert board.count('class="compare"') == 2  # a compare link for every system shown

    # make s2 secondary: the development board lists it all the same, tagged
    token = csrf_token(mine.encode())
    page = browser.post("/systems/2/primary", data={"csrf_token": token}, follow_redirects=True)
    assert b"s2 is now a secondary system." in page.data
    board = browser.get("/challenges/demo/tracks/main").data.decode()
    assert ">s2</a>" in board and '<span class="tag">secondary</span>' in board


def test_join_team_with_code(browser, settings, csrf_app):
    from app.data.db import session_scope
    from app.data.models import Team
    from app.web.services.accounts import find_or_create_team

    with session_scope(settings.database_url) as session:
        code = find_or_create_team(session, "Lab").join_code
    page = register(browser, settings)
    token = csrf_token(page.data)
    wrong = browser.post(
        "/team/join",
        data={"join-name": "Lab", "join-join_code": "nope", "join-csrf_token": token},
        follow_redirects=True,
    )
    assert b"no team with that name and join code" in wrong.data
    joined = browser.post(
        "/team/join",
        data={"join-name": "lab", "join-join_code": code, "join-csrf_token": token},
        follow_redirects=True,
    )
    assert b"You joined &#39;Lab&#39;." in joined.data
    with session_scope(settings.database_url) as session:
        assert len(session.query(Team).one().memberships) == 1


def test_login_logout_and_wrong_password(browser, settings):
    register(browser, settings)
    page = browser.get("/")
    browser.post("/logout", data={"csrf_token": csrf_token(page.data)})
    login = browser.get("/login")
    wrong = browser.post(
        "/login",
        data={"email": "ana@uni.example", "password": "nope", "csrf_token": csrf_token(login.data)},
    )
    assert b"Wrong e-mail or password." in wrong.data
    ok = browser.post(
        "/login",
        data={
            "email": "ANA@uni.example",
            "password": "s3cret-passphrase",
            "csrf_token": csrf_token(login.data),
        },
        follow_redirects=True,
    )
    assert b"Log out (ana@uni.example)" in ok.data


def test_upload_page_needs_login(browser, settings):
    demo_track(settings)
    response = browser.get("/challenges/demo/tracks/main/submit")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_unknown_pages_are_404_without_trace(browser):
    response = browser.get("/challenges/nope")
    assert response.status_code == 404
    assert b"Traceback" not in response.data
