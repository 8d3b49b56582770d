"""A participant in a real browser, on a phone's width, a laptop's and a desktop's: sign up, create
a team, upload, watch the status turn to scored without reloading by hand, see the outputs page
and the leaderboard row. Every page passes axe-core's serious and critical checks; screenshots
of each step are kept as test artefacts."""

from __future__ import annotations

from functools import partial

from app.data.db import session_scope
from app.data.models import Submission
from tests.browser.conftest import check_page, register
from tests.conftest import make_app
from tests.support.factories import DEMO_DATA, demo_track, mailed_link
from tests.support.servers import serve_app
from tests.support.waiting import wait_until

OUTPUTS = DEMO_DATA / "baseline.txt"


def status(settings, submission_id: int) -> str:
    with session_scope(settings.database_url) as session:
        return session.get(Submission, submission_id).status.value


def test_sign_up_upload_watch_it_score_and_see_the_outputs(page, settings, width):
    app = make_app(settings)  # CSRF on, as in production (migrates the database)
    demo_track(settings)
    app.extensions["nlgboard.queue"].start()
    with serve_app(app) as url:
        page.goto(f"{url}/")
        check_page(page, "participant-0-home", width)
        page.goto(f"{url}/challenges/demo")  # tracks, test data, glossary
        page.get_by_role("heading", name="What the scores mean").wait_for()
        check_page(page, "participant-0-challenge", width)
        page.goto(f"{url}/register")
        check_page(page, "participant-1-register", width)
        outbox = partial(mailed_link, settings)
        register(page, url, "ana@uni.example", "s3cret-passphrase", outbox, width)
        page.goto(f"{url}/team")
        page.get_by_label("Team name").first.fill("Ana's lab")
        page.get_by_role("button", name="Create", exact=True).click()
        page.get_by_role("heading", name="Team Ana's lab").wait_for()  # after the redirect
        check_page(page, "participant-2-team", width)

        page.goto(f"{url}/challenges/demo/tracks/main")
        page.get_by_role("link", name="Submit an output").click()
        page.get_by_text("Uploads a day:").wait_for()  # visible once the page has loaded
        check_page(page, "participant-3-submit", width)
        page.get_by_label("System name").fill("ana-seq2seq")
        page.get_by_label("Output file", exact=True).set_input_files(str(OUTPUTS))
        page.get_by_role("button", name="Upload").click()
        page.get_by_role("heading", name="My team's submissions").wait_for()
        notices = page.locator(".flash.queued").all_inner_texts()  # read first: the state
        if status(settings, 1) in ("queued", "running"):  # after it says what the page showed
            assert any("queued for scoring" in notice for notice in notices), notices
        check_page(page, "participant-4-queued", width)

        wait_until(lambda: status(settings, 1) in ("scored", "failed"), "submission 1's scores")
        assert status(settings, 1) == "scored"
        row = page.locator("#submission-1")
        row.locator(".status-scored").wait_for()  # the page fetches its rows again by itself
        page.get_by_text("queued for scoring").wait_for(state="detached")  # gone with the scores
        check_page(page, "participant-5-scored", width)
        row.get_by_role("link", name="Outputs").click()
        page.get_by_role("heading", name="Submission 1: outputs").wait_for()
        check_page(page, "participant-6-outputs", width)

        page.goto(f"{url}/challenges/demo/tracks/main")
        board_row = page.locator("#leaderboard tbody tr", has_text="ana-seq2seq")
        assert board_row.count() == 1 and "Ana's lab" in board_row.inner_text()
        system = board_row.locator("td").nth(2)
        assert system.is_visible()  # the System column stays in view, also at 390 px
        assert page.locator("th", has_text="SER").locator("a.sig").inner_text() == "↓"
        plot = page.locator("#plot-bars")
        plot.scroll_into_view_if_needed()
        page.wait_for_function("document.querySelector('#plot-bars').complete")
        assert page.evaluate("document.querySelector('#plot-bars').naturalWidth") > 100
        fits = "document.querySelector('#plot-bars').getBoundingClientRect().width"
        assert page.evaluate(fits) <= page.viewport_size["width"]
        check_page(page, "participant-7-leaderboard", width)
