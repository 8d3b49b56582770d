"""Likert and pairwise campaigns in a real browser: an annotator completes each kind of unit
through a one-time link (a radio row per criterion; two texts with A / B / tie and a reason),
the organisers analyse and publish both, and the public track page names each system
"team / system" in both tables."""

from __future__ import annotations

import re
from datetime import datetime

from app.data.db import session_scope
from app.web.services.annotation import create_links
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.tracks import get_track
from tests.browser.conftest import check_page
from tests.conftest import make_app
from tests.support.factories import demo_track, login, organiser, scored_system
from tests.support.servers import serve_app

TRACK = "/challenges/demo/tracks/main"
STRENGTH = {"alpha": 3, "beta": 1}
"""What the annotator thinks of each system's texts (``<system> says <item>``)."""


def _system(text: str) -> str:
    return text.split(" says ")[0]


def _answer_likert(page) -> None:
    point = str(STRENGTH[_system(page.locator("p.output").inner_text())])
    for fieldset in page.locator("fieldset.likert").all():
        fieldset.locator(f'input[type=radio][value="{point}"]').check()


def _answer_pairwise(page) -> None:
    a, b = (_system(text) for text in page.locator("p.output").all_inner_texts())
    page.get_by_label("B" if STRENGTH[b] > STRENGTH[a] else "A", exact=True).check()
    page.get_by_label("Why? (optional)").fill("reads more naturally")


def _complete(page, url: str, answer, name: str, width: str) -> int:
    """Answer every page the link shows; the pages answered."""
    page.goto(url)
    answered = 0
    while page.locator("form.judgement").count():
        answer(page)
        if answered == 0:
            check_page(page, f"{name}-unit-answered", width)
        page.get_by_role("button", name="Next").click()
        page.wait_for_load_state()
        assert page.locator(".field-error, .flash.error").count() == 0, page.content()
        answered += 1
    assert "Thank you" in page.content()
    return answered


def test_likert_and_pairwise_units_through_links_to_published_tables(page, settings, width):
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
                         systems=["alpha", "beta"], annotators_per_hit=1),
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
                         "likert", width) == 4  # fmt: skip
        assert _complete(page, f"{url}/annotate/link/{pairs_link}", _answer_pairwise,
                         "pairwise", width) == 2  # fmt: skip
        client = make_app(settings, WTF_CSRF_ENABLED=False).test_client()  # the forms' buttons
        login(client, "org@x.org")
        for name in ("likert", "pairs"):
            for action in ("analyse", "publish"):
                answer = client.post(f"{TRACK}/human/{name}/{action}")
                assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
        page.goto(f"{url}{TRACK}")
        text = page.locator("body").inner_text()
        check_page(page, "human-likert-pairwise-published", width)
    for label in ("A / alpha", "B / beta"):
        assert len(re.findall(re.escape(label), text)) >= 2, text  # in both tables
    assert text.index("A / alpha") < text.index("B / beta")  # alpha judged the better
