"""An annotator with a one-time link, in a real browser: a DA slider touched at its starting
position gives the text a score (it once left the number box empty and the form blocked)."""

from __future__ import annotations

from datetime import datetime

from app.data.db import session_scope
from app.web.services.annotation import create_links
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.tracks import get_track
from tests.browser.conftest import check_page
from tests.conftest import make_app
from tests.support.factories import demo_track, scored_system
from tests.support.servers import serve_app


def test_a_slider_touched_where_it_starts_scores_the_text(page, settings, width):
    app = make_app(settings)
    demo_track(
        settings, deadline=datetime(2017, 10, 31, 23, 59)
    )  # past: DA's checks may show references
    with session_scope(settings.database_url) as session:
        for rank, name in enumerate(["tgen", "slug", "chen"]):
            scored_system(session, "demo", "main", name, {"BLEU": 0.7 - rank / 10})
        track = get_track(session, "demo", "main")
        spec = CampaignSpec(name="read", method="da", criterion="readability", items=5)
        (token,) = create_links(session, create_campaign(session, track, spec), 1)
    with serve_app(app) as url:
        page.goto(f"{url}/annotate/link/{token}")
        slider = page.get_by_label("Score slider for text 1")
        number = page.locator("input[type=number]").first
        assert number.input_value() == ""
        box = slider.bounding_box()
        page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # at its start: 0
        assert number.input_value() == "0"
        check_page(page, "annotator-1-scored", width)
        first = page.locator("p.output").inner_text()
        page.get_by_role("button", name="Next").click()
        assert page.locator(".field-error, .flash.error").count() == 0
        assert page.locator("p.output").inner_text() != first or "Thank you" in page.content()
