"""A small world with every role, for the authorisation matrix and the leak crawl.

Challenge ``x`` (track ``main``, the demo E2E test set) with team A's system 1 / submission 1
and team B's system 2 / submission 2, scored; a baseline; an unpublished human campaign with a
heatmap; a one-time annotation link; a stored similarity matrix. Challenge ``y`` has its own
track and organiser. Every account's password is ``password123``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.data.config import Settings
from app.data.db import session_scope
from app.data.models import Campaign, Role, utcnow
from app.web.services.accounts import create_user
from app.web.services.annotation import create_links
from app.web.services.tracks import get_track
from tests.support.factories import demo_track, organiser, participant, scored_system

ROLES = ("anonymous", "team_a", "team_b", "organiser_x", "organiser_y", "admin")
EMAILS = {
    "team_a": "a@x.org",
    "team_b": "b@x.org",
    "organiser_x": "org-x@x.org",
    "organiser_y": "org-y@x.org",
    "admin": "admin@x.org",
}
HIDDEN_MARKER = "zqxhidden"
"""Every hidden reference of the world contains this word; no page may show it to non-organisers."""


@dataclass(frozen=True)
class World:
    tokens: dict[str, str]
    link: str


def build_world(settings: Settings) -> World:
    demo_track(settings, challenge="x")
    demo_track(settings, challenge="y")
    tokens = {
        "team_a": participant(settings, EMAILS["team_a"], team="A"),
        "team_b": participant(settings, EMAILS["team_b"], team="B"),
        "organiser_x": organiser(settings, EMAILS["organiser_x"], "x"),
        "organiser_y": organiser(settings, EMAILS["organiser_y"], "y"),
    }
    with session_scope(settings.database_url) as session:
        admin = create_user(session, EMAILS["admin"], "password123", Role.ADMIN)
        tokens["admin"] = admin.new_api_token()
        sys_a = scored_system(session, "x", "main", "sys-a", {"BLEU": 0.6, "NIST": 7.0}, team="A")
        sys_b = scored_system(session, "x", "main", "sys-b", {"BLEU": 0.5, "NIST": 6.0}, team="B")
        scored_system(session, "x", "main", "base", {"BLEU": 0.4, "NIST": 5.0}, baseline=True)
        track = get_track(session, "x", "main")
        for item in track.test_set_for().items:
            for reference in item.references:
                reference.text = f"{reference.text} {HIDDEN_MARKER}{reference.id}"
        track.test_set_for().similarity = {
            "rows": ["test set all", sys_a, sys_b],
            "tested": [sys_a, sys_b],
            "values": [[0.5, 0.4], [None, 0.3], [0.3, None]],
        }
        campaign = Campaign(
            track=track,
            language="en",
            name="quality",
            method="da",
            criterion="readability",
            hit_size=100,
            results={
                "criterion": "readability",
                "systems": [
                    {
                        "system": "system:1",
                        "name": "sys-a",
                        "raw": 70.0,
                        "z": 0.4,
                        "n": 3,
                        "assessments": 9,
                    },
                    {
                        "system": "system:2",
                        "name": "sys-b",
                        "raw": 50.0,
                        "z": -0.4,
                        "n": 3,
                        "assessments": 9,
                    },
                ],
                "annotators": {
                    "total": 0,
                    "kept": 0,
                    "kept_with_consistent_repeats": 0,
                    "checks": [],
                },
                "wilcoxon": {"system:1": {"system:2": 0.03}, "system:2": {"system:1": 0.97}},
                "subjects": {
                    "system:1": {"name": "sys-a", "system_id": 1, "references": False},
                    "system:2": {"name": "sys-b", "system_id": 2, "references": False},
                },
                "judgements": 18,
                "annotator_count": 1,
                "correlation": None,
            },
            results_at=utcnow(),
        )
        session.add(campaign)
        session.flush()
        (link,) = create_links(session, campaign, 1)
    return World(tokens, link)
