"""Likert and pairwise campaigns in a real browser, end to end: an annotator completes each
kind of unit through a one-time link (a radio row per criterion of the Likert campaign's own
criteria, semantics on 1-3 and fluency on 1-5; two texts with A / B / tie and a reason), the
organiser logs in, computes the results of both campaigns on their pages and publishes them,
and an anonymous visitor's track page names each system "team / system" in both tables, each
with its cluster procedure and Krippendorff's alpha at its level, the Likert one with its
options.

The flow runs once, on a laptop's width; the pages the flow is about (a unit of each kind
answered, the public track page) are checked on every width of WIDTHS (one load, resized)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import pytest

from app.data.db import session_scope
from app.web.services.annotation import create_links
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.tracks import get_track
from tests.browser.conftest import WIDTHS, check_page, screenshot, width_problems
from tests.conftest import make_app
from tests.support.factories import demo_track, organiser, scored_system
from tests.support.servers import serve_app
from tests.support.waiting import PAGE_DEADLINE

expect = pytest.importorskip("playwright.sync_api").expect

TRACK = "/challenges/demo/tracks/main"
SCREEN = "laptop"
POINTS = {"alpha": {"semantics": "3", "fluency": "5"}, "beta": {"semantics": "1", "fluency": "2"}}
"""The point the annotator picks on each criterion for each system's texts
(``<system> says <item>``): alpha's are the better."""
LEGENDS = {"semantics": "Semantics (1-3; best: 3)", "fluency": "Fluency (1-5; best: 5)"}
RADIOS = {"semantics": 3, "fluency": 5}
OPTIONS = "Semantics 1-3, fluency 1-5; an output's score: the mean of its judges."
TABLES = {"likert": ("wmt", "interval"), "pairs": ("rank-ranges", "nominal")}
"""Each campaign's cluster procedure (its protocol's default) and its agreement's level."""
ALPHA = "Krippendorff's \N{GREEK SMALL LETTER ALPHA}"


def _system(text: str) -> str:
    return text.split(" says ")[0]


def _answer_likert(page) -> None:
    system = _system(page.locator("p.output").inner_text())
    for criterion, legend in LEGENDS.items():
        row = page.get_by_role("group", name=legend, exact=True)
        expect(row.get_by_role("radio")).to_have_count(RADIOS[criterion])
        row.get_by_role("radio", name=POINTS[system][criterion], exact=True).check()


def _answer_pairwise(page) -> None:
    a, b = (_system(text) for text in page.locator("p.output").all_inner_texts())
    better = "B" if POINTS[b]["fluency"] > POINTS[a]["fluency"] else "A"
    page.get_by_label(better, exact=True).check()
    page.get_by_label("Why? (optional)").fill("reads more naturally")


def _on_every_width(page, name: str) -> None:
    """The page as it is now passes the width and axe-core checks on each width of WIDTHS;
    the viewport is set back to the flow's."""
    problems = width_problems(page, name)
    page.set_viewport_size({"width": WIDTHS[SCREEN], "height": 900})
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


def _complete(page, url: str, answer, name: str) -> int:
    """Answer every page the link shows; the pages answered."""
    page.goto(url)
    answered = 0
    while page.locator("form.judgement").count():
        answer(page)
        if answered == 0:
            _on_every_width(page, f"{name}-unit-answered")
        unit = page.locator("form.judgement input[name=unit]").input_value()
        page.get_by_role("button", name="Next").click()
        errors = page.locator(".field-error, .flash.error")
        moved_on = page.locator(f'form.judgement input[name=unit]:not([value="{unit}"])')
        expect(moved_on.or_(page.get_by_text("Thank you")).or_(errors).first).to_be_attached()
        assert errors.count() == 0, page.content()
        answered += 1
    assert "Thank you" in page.content()
    return answered


@contextmanager
def _visitor(chromium, name: str) -> Iterator:
    """A page in a browser context of its own (no cookie shared with the others), screenshot
    as ``<name>-failed`` if the block fails."""
    context = chromium.new_context(
        viewport={"width": WIDTHS[SCREEN], "height": 900}, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(PAGE_DEADLINE * 1000)
    try:
        yield page
    except BaseException:
        screenshot(page, f"{name}-failed")
        raise
    finally:
        context.close()


def _analyse_and_publish(page, url: str, name: str) -> None:
    """On the campaign's page: compute the results, then publish them."""
    page.goto(f"{url}{TRACK}/human/{name}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(name)
    page.get_by_role("button", name="Compute results").click()
    expect(page.locator(".flash.info")).to_have_text("Results computed.")
    expect(page.get_by_role("heading", name="Results")).to_be_visible()
    page.get_by_role("button", name="Publish on the track page").click()
    expect(page.get_by_role("button", name="Unpublish")).to_be_visible()
    expect(page.locator(".flash.error")).to_have_count(0)


@pytest.mark.parametrize("width", [SCREEN])
def test_likert_and_pairwise_units_through_links_to_published_tables(
    chromium, page, settings, width
):
    app = make_app(settings)
    demo_track(settings, deadline=datetime(2017, 10, 31, 23, 59))
    organiser(settings, "org@x.org", "demo")
    with session_scope(settings.database_url) as session:
        for name, team in (("alpha", "A"), ("beta", "B")):
            scored_system(session, "demo", "main", name, {"BLEU": 0.5}, team=team)
        track = get_track(session, "demo", "main")
        likert = create_campaign(
            session, track,
            CampaignSpec(name="likert", method="likert", criterion="fluency", items=2,
                         systems=["alpha", "beta"], annotators_per_hit=1,
                         options={"criteria": "semantics 1-3; fluency 1-5"}),
        )  # fmt: skip
        pairwise = create_campaign(
            session, track,
            CampaignSpec(name="pairs", method="pairwise", criterion="preference", items=2,
                         systems=["alpha", "beta"], annotators_per_hit=1),
        )  # fmt: skip
        (likert_link,) = create_links(session, likert, 1)
        (pairs_link,) = create_links(session, pairwise, 1)
    with serve_app(app) as url:
        assert _complete(page, f"{url}/annotate/link/{likert_link}", _answer_likert,
                         "likert") == 4  # fmt: skip
        assert _complete(page, f"{url}/annotate/link/{pairs_link}", _answer_pairwise,
                         "pairwise") == 2  # fmt: skip

        with _visitor(chromium, "organiser") as organiser_page:
            organiser_page.goto(f"{url}/login")
            organiser_page.get_by_label("E-mail").fill("org@x.org")
            organiser_page.get_by_label("Password").fill("password123")
            organiser_page.get_by_role("button", name="Log in").click()
            expect(organiser_page.get_by_role("button", name="Log out")).to_be_visible()
            for name in ("likert", "pairs"):
                _analyse_and_publish(organiser_page, url, name)
            check_page(organiser_page, "human-pairs-published-organiser", width)

        with _visitor(chromium, "public") as public:
            public.goto(f"{url}{TRACK}")
            expect(public.get_by_role("button", name="Log out")).to_have_count(0)
            for name, (clusters, level) in TABLES.items():
                heading = public.get_by_role("heading", level=3, name=f"{name}:")
                expect(heading).to_have_count(1)
                agreement = heading.locator(
                    "xpath=following-sibling::p[contains(@class, 'agreement')][1]"
                )
                expect(agreement).to_contain_text(f"Significance clusters: {clusters}.")
                expect(agreement).to_contain_text(f"{ALPHA} ({level})")
                if name == "likert":
                    expect(agreement).to_contain_text(OPTIONS)
                systems = heading.locator(
                    "xpath=following-sibling::div[contains(@class, 'wide')][1]"
                    "//table/tbody/tr/td[1]"
                )
                # each system named "team / system", alpha (judged the better) first
                expect(systems).to_have_text(["A / alpha", "B / beta"])
            _on_every_width(public, "human-likert-pairwise-published")
