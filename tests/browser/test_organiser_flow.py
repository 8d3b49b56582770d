"""An organiser in a real browser, on a phone's width, a laptop's and a desktop's: an account
registered on the web is made an organiser by an admin, creates a challenge, imports a track
from files, sets the test phase and publishes. Every page passes axe-core's serious and critical
checks."""

from __future__ import annotations

from functools import partial

from app.data.db import session_scope
from app.data.models import Role
from app.web.services.accounts import create_user
from tests.browser.conftest import check_page, register
from tests.conftest import make_app
from tests.support.factories import DEMO_REFS, mailed_link
from tests.support.servers import serve_app


def sign_in(page, url: str, email: str, password: str) -> None:
    page.goto(f"{url}/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def sign_out(page) -> None:
    page.get_by_role("button", name="Log out").click()


def test_grant_the_role_create_a_challenge_import_a_track_and_publish(
    page, settings, width, tmp_path
):
    app = make_app(settings)
    with session_scope(settings.database_url) as session:
        create_user(session, "root@board.example", "root-passphrase", Role.ADMIN)
    references = tmp_path / "references.csv"
    references.write_bytes(DEMO_REFS)
    with serve_app(app) as url:
        register(page, url, "maria@uni.example", "quiet-harbour-42", partial(mailed_link, settings))
        page.goto(f"{url}/organise")
        assert "nlgboard user role maria@uni.example organiser" in page.content()
        check_page(page, "organiser-1-not-yet", width)
        sign_out(page)

        sign_in(page, url, "root@board.example", "root-passphrase")
        page.goto(f"{url}/organise/accounts")
        page.get_by_label("Account e-mail").fill("maria@uni.example")
        page.get_by_label("Role").select_option("organiser")
        page.get_by_role("button", name="Set role").click()
        assert "maria@uni.example is now organiser" in page.locator(".flash").first.inner_text()
        check_page(page, "organiser-2-granted", width)
        sign_out(page)

        sign_in(page, url, "maria@uni.example", "quiet-harbour-42")
        page.goto(f"{url}/organise")
        page.get_by_label("Slug (in URLs)").fill("e2e-demo")
        page.get_by_label("Title").fill("E2E demo")
        page.get_by_role("button", name="Create").click()
        check_page(page, "organiser-3-challenge", width)
        page.get_by_label("Track slug").fill("main")
        page.get_by_label("Kind").select_option("e2e")
        page.get_by_label("Hidden references").set_input_files(str(references))
        page.get_by_role("button", name="Import").click()
        assert "10 items, 23 references" in page.locator(".flash").first.inner_text()
        page.get_by_label("Phase", exact=True).select_option("test")
        page.get_by_role("button", name="Save").click()
        page.get_by_role("button", name="Publish the results").click()
        assert "published" in page.locator("#phase").inner_text()
        check_page(page, "organiser-4-published", width)
