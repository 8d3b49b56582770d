"""Every page of the board in a real browser at a phone's width (390 px), a laptop's and a wide
desktop's: none is wider than the screen, none has a serious or critical axe-core violation. The
data come from the app's own flows: the demo challenges (scored runs, an imported RankME
campaign, ranked and published), an organiser who moves a track to its test phase and publishes
it through the web pages, a participant in the demo team. One server and one browser serve the
whole module; each page is loaded once and resized to each width."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import Challenge, ChallengeOrganiser, Membership, Role, Submission, System
from app.entry.demo import seed_demo
from app.entry.root import score_now
from app.web.services.accounts import create_user, find_or_create_team
from tests.browser.conftest import WIDTHS, screenshot, width_problems
from tests.conftest import make_app, make_settings
from tests.support.servers import serve_app
from tests.support.waiting import PAGE_DEADLINE

PASSWORD = "quiet-harbour-42"
ACCOUNTS = {
    "participant": ("ana@uni.example", Role.PARTICIPANT),
    "organiser": ("maria@uni.example", Role.ORGANISER),
    "admin": ("root@board.example", Role.ADMIN),
}
E2E = "/challenges/demo-e2e/tracks/main"

PAGES = {  # name: (who looks, path with {ids} from the seeded data, what the page must show)
    "home": (None, "/", "main h1"),
    "login": (None, "/login", "form"),
    "register": (None, "/register", "form"),
    "forgot-password": (None, "/password/forgot", "form"),
    "challenge": (None, "/challenges/demo-e2e", "main h1"),
    "bundle-format": (None, "/bundle-format", "#kind-key-list"),
    "overview": (None, "/challenges/demo-sr18/overview", "table"),
    "leaderboard-e2e-human-results": (None, E2E, "#human-evaluation table.human tbody tr"),
    "leaderboard-sr18": (None, "/challenges/demo-sr18/tracks/shallow?lang=fr", "#leaderboard"),
    "leaderboard-drs": (None, "/challenges/demo-drs/tracks/gen", "#leaderboard"),
    "leaderboard-breakdown": (None, E2E + "?breakdown=slot:near", "#breakdown-table tbody tr"),
    "compare": (
        None,
        E2E + "/compare?a={e2e_system}&b={e2e_baseline}&breakdown=slots",
        "ol.item-comparison li",
    ),
    "compare-organiser": (
        "organiser",
        E2E + "/compare?a={e2e_baseline}&b={e2e_system}&filter=both",
        "#differences tbody tr",
    ),
    "system": (None, "/systems/{e2e_system}", "td.status-scored"),
    "system-sr18": (None, "/systems/{sr18_system}", "td.status-scored"),
    "outputs-e2e": (None, "/submissions/{e2e_submission}/outputs", "#outputs tbody tr"),
    "my-submissions": ("participant", "/submissions", "table.submissions dl.scores"),
    "team": ("participant", "/team", "main h1"),
    "submit": ("participant", E2E + "/submit", "form"),
    "withdraw": ("participant", "/submissions/{e2e_submission}/withdraw", "form"),
    "organise": ("organiser", "/organise", "main h1"),
    "organise-challenge": ("organiser", "/organise/demo-e2e", "table tbody tr"),
    "organise-track": ("organiser", "/organise/demo-e2e/tracks/main", "#organiser-submissions"),
    "rescore": ("organiser", "/organise/demo-e2e/tracks/main/rescore", "form"),
    "message-participants": ("organiser", "/organise/demo-e2e/tracks/main/message", "form"),
    "audit-log": ("organiser", "/organise/demo-e2e/audit", "#audit td code"),
    "organise-teams": ("organiser", "/organise/demo-e2e/teams", "#teams tbody tr"),
    "campaign-list": ("organiser", E2E + "/human", "table tbody tr"),
    "campaign": ("organiser", E2E + "/human/quality", "table.human tbody tr"),
    "annotate": ("organiser", "/annotate", "main h1"),
    "outputs-sr18": ("organiser", "/submissions/{sr18_submission}/outputs", "#outputs tbody tr"),
    "outputs-drs": ("organiser", "/submissions/{drs_submission}/outputs", "#outputs tbody tr"),
    "accounts": ("admin", "/organise/accounts", "form"),
}


@dataclass
class Board:
    url: str
    ids: dict[str, int]

    def page_url(self, path: str) -> str:
        return self.url + path.format(**self.ids)


def _seed(settings) -> dict[str, int]:
    """The demo, scored; the accounts; the ids the page paths need."""
    app = make_app(settings)
    seed_demo(app, score_now)
    with session_scope(settings.database_url) as session:
        users = {
            role: create_user(session, email, PASSWORD, kind)
            for role, (email, kind) in ACCOUNTS.items()
        }
        session.flush()
        for challenge in session.scalars(select(Challenge)):
            session.add(
                ChallengeOrganiser(challenge_id=challenge.id, user_id=users["organiser"].id)
            )
        team = find_or_create_team(session, "Demo team")
        session.add(Membership(user=users["participant"], team=team))

        def submission_of(system: str) -> int:
            query = select(Submission.id).join(System).where(System.name == system)
            return session.scalars(query.order_by(Submission.id)).first()

        def system_id(name: str) -> int:
            return session.scalars(select(System.id).where(System.name == name)).first()

        return {
            "e2e_system": system_id("demo-seq2seq"),
            "e2e_baseline": system_id("Template baseline"),
            "sr18_system": system_id("WOL-1"),
            "e2e_submission": submission_of("demo-seq2seq"),
            "sr18_submission": submission_of("WOL-1"),
            "drs_submission": submission_of("char-lstm"),
        }


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> Iterator[Board]:
    settings = make_settings(tmp_path_factory.mktemp("every-page") / "instance")
    ids = _seed(settings)
    with serve_app(make_app(settings)) as url:  # CSRF on, as in production
        yield Board(url, ids)


@pytest.fixture(scope="module")
def tabs(chromium, board) -> Iterator[Callable]:
    """One signed-in tab per role (and one signed-out), opened on first use."""
    opened: dict = {}

    def tab(role: str | None):
        if role not in opened:
            context = chromium.new_context(
                viewport={"width": WIDTHS["laptop"], "height": 900}, bypass_csp=True
            )
            page = context.new_page()
            page.set_default_timeout(PAGE_DEADLINE * 1000)  # a safety net, as in conftest
            if role is not None:
                sign_in(page, board.url, ACCOUNTS[role][0])
            opened[role] = page
        return opened[role]

    yield tab
    for page in opened.values():
        page.context.close()


def sign_in(page, url: str, email: str) -> None:
    page.goto(f"{url}/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("button", name="Log out").wait_for()


@pytest.fixture(scope="module", autouse=True)
def organiser_publishes(board, tabs) -> None:
    """Through the organiser's pages: demo-e2e's track goes to its test phase with a deadline
    and is published (audit-log rows with details); its human campaign is unpublished and
    published again."""
    page = tabs("organiser")
    page.goto(board.url + "/organise/demo-e2e/tracks/main")
    page.get_by_label("Phase", exact=True).select_option("test")
    page.get_by_label("Deadline (UTC)").fill("2017-10-31T23:59")
    page.get_by_label("Submissions per team per day").fill("5")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("button", name="Publish the results").click()
    assert "published" in page.locator("#phase").inner_text()
    page.goto(board.url + E2E + "/human/quality")
    page.get_by_role("button", name="Unpublish").click()
    page.get_by_role("button", name="Publish on the track page").click()


@pytest.mark.parametrize("name", PAGES)
def test_the_page_fits_every_width_and_passes_axe(board, tabs, name):
    role, path, shows = PAGES[name]
    page = tabs(role)
    response = page.goto(board.page_url(path))
    assert response is not None and response.status == 200, (
        f"{path}: {response and response.status}"
    )
    assert page.locator(shows).first.is_visible(), f"{path} does not show {shows}"
    problems = width_problems(page, name)
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


def test_status_and_scores_show_without_scrolling_on_a_phone(board, tabs):
    """On My submissions, a submission's status and scores are in view at 390 px: nobody has
    to find out that the table scrolls to learn whether the upload was scored."""
    page = tabs("participant")
    page.set_viewport_size({"width": WIDTHS["phone"], "height": 900})
    page.goto(board.url + "/submissions")
    row = page.locator("#submission-{e2e_submission}".format(**board.ids))
    for cell in (row.locator("td.status-scored"), row.locator("dl.scores")):
        box = cell.bounding_box()
        assert box is not None and box["width"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTHS["phone"], (cell, box)
    assert "BLEU" in row.locator("dl.scores").inner_text()
    screenshot(page, "my-submissions-status-in-view-390px")


BREAKS = """(cell) => {
    const text = cell.firstChild, breaks = [];
    const range = document.createRange();
    let top = null;
    for (let k = 0; k < text.length; k++) {
        range.setStart(text, k); range.setEnd(text, k + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top !== null && rect.top > top + 1) breaks.push([text.data.slice(0, k), text.data.slice(k)]);
        top = rect.top;
    }
    return breaks;
}"""
"""Where the lines of an element's text break, as [text before, text after] (the DOM keeps the
characters; only the rendering wraps)."""


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_meaning_representations_wrap_between_words_not_letters(board, tabs, screen):
    """The per-item view breaks an MR only where it has a space (between slots, or inside a
    value like "coffee shop"), never inside a word."""
    page = tabs(None)
    page.set_viewport_size({"width": WIDTHS[screen], "height": 900})
    page.goto(board.page_url("/submissions/{e2e_submission}/outputs"))
    cells = page.locator("#outputs tbody td:nth-child(2) code")
    assert cells.count() == 10
    for k in range(cells.count()):
        breaks = cells.nth(k).evaluate(BREAKS)
        inside_words = [
            f"{before[-12:]}|{after[:12]}" for before, after in breaks if before[-1] != " "
        ]
        assert not inside_words, (
            f"{cells.nth(k).inner_text()!r} breaks inside words: {inside_words}"
        )


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_the_signatures_are_folded_on_a_phone_and_open_on_a_laptop(board, tabs, screen):
    """The list of column signatures, long under a wide table, starts folded at 390 px (its
    summary opens it) and open on a laptop."""
    page = tabs(None)
    page.set_viewport_size({"width": WIDTHS[screen], "height": 900})
    page.goto(board.url + E2E)
    signatures = page.locator("details#signatures ul.signatures")
    summary = page.locator("details#signatures > summary")
    if screen == "phone":
        page.wait_for_function("!document.querySelector('details#signatures').open")
        assert not signatures.is_visible() and summary.is_visible()
        summary.click()
        signatures.wait_for(state="visible")
    else:
        assert page.locator("details#signatures").evaluate("d => d.open")
        assert signatures.is_visible()
    screenshot(page, f"track-page-signatures-{screen}")


LEADERBOARDS = {
    "e2e": E2E,
    "sr18": "/challenges/demo-sr18/tracks/shallow?lang=fr",
    "drs": "/challenges/demo-drs/tracks/gen",
}


def test_the_scroll_hint_shows_only_where_the_table_scrolls(board, tabs):
    """At each width and on each leaderboard the hint "scroll sideways" is shown exactly when
    the table is wider than its box; at 1280 px a table that fits had it all the same."""
    page = tabs(None)
    seen = set()
    for screen, width in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in LEADERBOARDS.items():
            page.goto(board.url + path)
            box = page.locator("#leaderboard").locator("xpath=..")
            scrolls = box.evaluate("b => b.scrollWidth > b.clientWidth + 1")
            shown = page.locator("p.scroll-hint").is_visible()
            assert shown == scrolls, f"{name} at {width} px: hint {shown}, scrolls {scrolls}"
            seen.add((screen, scrolls))
    assert ("laptop", False) in seen and ("phone", True) in seen  # both cases were met


@pytest.mark.parametrize("path", ["/organise", "/organise/demo-e2e"])
def test_the_challenge_description_box_is_large_enough_to_write_in(board, tabs, path):
    """A challenge's description is up to 5,000 characters of Markdown; its box was the
    browser's default textarea, 20 columns wide."""
    page = tabs("organiser")
    page.set_viewport_size({"width": WIDTHS["laptop"], "height": 900})
    page.goto(board.url + path)
    box = page.locator("textarea[name$=description]").bounding_box()
    assert box is not None and box["width"] >= 600 and box["height"] >= 160, (
        box
    )  # ten lines or more
