"""Helpers for tests of the public board: upload through the API, read the leaderboard."""

from __future__ import annotations

import io

from app.data.db import session_scope
from app.web.services.tracks import get_track
from tests.support.factories import GOOD_OUTPUT

TRACK = "/challenges/demo/tracks/main"
API = "/api/v1/challenges/demo/tracks/main"


def upload(client, token: str, system: str, data: bytes = GOOD_OUTPUT):
    return client.post(
        f"{API}/submissions",
        data={"file": (io.BytesIO(data), "out.txt"), "system": system},
        headers={"Authorization": f"Bearer {token}"},
        content_type="multipart/form-data",
    )


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def set_track(settings, **values) -> None:
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        for name, value in values.items():
            setattr(track, name, value)


def board_systems(client, token: str | None = None) -> list[str]:
    answer = client.get(f"{API}/leaderboard", headers=bearer(token) if token else {})
    return [row["system"] for row in answer.json["rows"]]
