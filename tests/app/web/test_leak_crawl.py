"""Crawl everything a non-organiser can reach (links followed from the home page, plus every
GET route filled in with the world's ids, plus error cases) and look for what must never
show: hidden reference text, the instance's file paths and stored file names, stack traces."""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import pytest
from sqlalchemy import select, update

from app.data.db import session_scope
from app.data.models import Submission
from tests.support.factories import login
from tests.support.snapshots import restored
from tests.support.world import EMAILS, HIDDEN_MARKER, build_world

NON_ORGANISERS = ("anonymous", "team_a", "team_b", "organiser_y")
ROUTE_VALUES = {
    "slug": ["x", "y"],
    "track_slug": ["main"],
    "submission_id": ["1", "2", "3"],
    "system_id": ["1", "2", "3"],
    "name": ["quality"],
    "fmt": ["csv", "json", "tex"],
    "campaign_id": ["1"],
    "token": ["{link}", "not-a-token"],
    "filename": ["style.css"],
}
ERROR_CASES = [
    "/nope",
    "/challenges/nope",
    "/challenges/x/tracks/nope",
    "/challenges/x/tracks/main?lang=zz",
    "/challenges/x/tracks/main/export.exe",
    "/challenges/x/tracks/main/plots/bars.svg?metric=nope",
    "/submissions/999/outputs",
    "/systems/999",
    "/api/v1/submissions/999",
    "/api/v1/challenges/x/tracks/main/inputs?language=zz",
    "/api/v1/challenges/nope/tracks/main/leaderboard",
    "/annotate/link/../../etc/passwd",
]
LINK = re.compile(r'(?:href|src)="([^"#]+)"')


def get_routes(app) -> list[str]:
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        paths = [rule.rule]
        for argument in rule.arguments:
            values = ROUTE_VALUES[argument]
            paths = [
                re.sub(rf"<(?:[a-z]+:)?{argument}>", value, path)
                for path in paths
                for value in values
            ]
        urls += paths
    return urls


def forbidden_strings(settings) -> list[str]:
    with session_scope(settings.database_url) as session:
        digests = list(session.scalars(select(Submission.file_sha256)))
    return [HIDDEN_MARKER, str(settings.instance_path), "Traceback", 'File "/', *digests]


@pytest.fixture
def world(app, settings):
    found = restored("world", settings, lambda _app, template: build_world(template))
    with session_scope(settings.database_url) as session:
        for submission in session.scalars(select(Submission)):
            session.execute(
                update(Submission)
                .where(Submission.id == submission.id)
                .values(file_sha256=f"{submission.id:02d}{'ab' * 31}")
            )
    return found


@pytest.mark.parametrize("role", NON_ORGANISERS)
def test_nothing_hidden_is_reachable(app, settings, world, role):
    client = app.test_client()
    headers = {}
    if role != "anonymous":
        login(client, EMAILS[role])
        headers["Authorization"] = f"Bearer {world.tokens[role]}"
    forbidden = forbidden_strings(settings)
    start = ["/", *(u.format(link=world.link) for u in get_routes(app)), *ERROR_CASES]
    queue, seen, leaks = deque(start), set(start), []
    while queue:
        url = queue.popleft()
        with client.get(url, headers=headers) as response:
            assert response.status_code < 500, (role, url, response.status_code)
            body = response.get_data(as_text=True) if _textual(response) else ""
        leaks += [f"{url}: {text[:40]}" for text in forbidden if text and text in body]
        if response.mimetype == "text/html":
            for link in LINK.findall(body):
                target = urljoin(url, link.replace("&amp;", "&"))
                parts = urlsplit(target)
                if parts.netloc or target in seen or parts.path == "/logout":
                    continue
                seen.add(target)
                queue.append(target)
    assert len(seen) > 60
    assert leaks == [], "\n".join(leaks)


def _textual(response) -> bool:
    return response.mimetype.startswith(("text/", "image/svg")) or response.is_json


def test_organisers_of_x_do_see_the_hidden_references_so_the_marker_works(app, settings, world):
    client = app.test_client()
    login(client, EMAILS["organiser_x"])
    archive = client.get("/organise/x/tracks/main/submissions.zip")
    assert archive.status_code == 200
    assert str(world.tokens) and HIDDEN_MARKER in _organiser_reference_view(settings)


def _organiser_reference_view(settings) -> str:
    from app.data.models import Reference

    with session_scope(settings.database_url) as session:
        return " ".join(session.scalars(select(Reference.text)))
