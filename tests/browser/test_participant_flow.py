"""A participant in a real browser: sign up, create a team, upload, wait for the score, see
the leaderboard row and the plot. Screenshots of each step are kept as test artefacts."""

from __future__ import annotations

import time

from tests.browser.conftest import screenshot
from tests.conftest import make_app
from tests.support.factories import DEMO_DATA, demo_track
from tests.support.servers import serve_app

OUTPUTS = DEMO_DATA / "baseline.txt"


def test_sign_up_upload_wait_and_see_the_row_and_the_plot(page, settings):
    app = make_app(settings)  # CSRF on, as in production (migrates the database)
    demo_track(settings)
    app.extensions["nlgboard.queue"].start()
    with serve_app(app) as url:
        page.goto(f"{url}/register")
        page.get_by_label("E-mail").fill("ana@uni.example")
        page.get_by_label("Password", exact=True).fill("s3cret-passphrase")
        page.get_by_label("Repeat password").fill("s3cret-passphrase")
        page.get_by_role("button", name="Register").click()
        page.goto(f"{url}/team")
        page.get_by_label("Team name").first.fill("Ana's lab")
        page.get_by_role("button", name="Create", exact=True).click()
        assert page.get_by_role("heading", name="Team Ana's lab").is_visible()
        screenshot(page, "1-team")

        page.goto(f"{url}/challenges/demo/tracks/main")
        page.get_by_role("link", name="Submit an output").click()
        page.get_by_label("System name").fill("ana-seq2seq")
        page.get_by_label("Output file").set_input_files(str(OUTPUTS))
        page.get_by_role("button", name="Upload").click()
        assert "queued for scoring" in page.locator(".flash").first.inner_text()
        screenshot(page, "2-queued")

        deadline = time.monotonic() + 180
        while "status-scored" not in page.content():
            assert time.monotonic() < deadline, "no score after 180 s"
            assert "status-failed" not in page.content(), page.content()
            time.sleep(1)
            page.reload()
        screenshot(page, "3-scored")

        page.goto(f"{url}/challenges/demo/tracks/main")
        row = page.locator("#leaderboard tbody tr", has_text="ana-seq2seq")
        assert row.count() == 1
        assert "Ana's lab" in row.inner_text()
        plot = page.locator("#plot-bars")
        plot.scroll_into_view_if_needed()
        page.wait_for_function("document.querySelector('#plot-bars').complete")
        assert page.evaluate("document.querySelector('#plot-bars').naturalWidth") > 100
        screenshot(page, "4-leaderboard")
