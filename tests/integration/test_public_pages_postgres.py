"""Shared public pages on PostgreSQL (``app/web/public_cache.py``, ``app/data/changes.py``): a
change committed by another process (the CLI, a worker on another host) shows on the next
anonymous request, and a team's own view never reaches the public."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.web.test_public_cache import BOARD, anonymous, scored
from tests.conftest import make_app, make_settings
from tests.support.board import TRACK, bearer
from tests.support.factories import demo_track, participant
from tests.support.servers import create_database

pytestmark = pytest.mark.integration
_names = itertools.count()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def board(postgres, tmp_path):
    url = create_database(postgres, f"nlg_public_{next(_names)}_{os.getpid()}")
    settings = make_settings(tmp_path / "instance", database_url=url)
    return make_app(settings, WTF_CSRF_ENABLED=False, PUBLIC_CACHE_SECONDS=3600), settings


def elsewhere(settings, **values) -> None:
    """Set the demo track's ``values`` from a process of its own, as the CLI would."""
    code = (
        "import sys; from app.data.db import session_scope;"
        "from app.web.services.tracks import get_track\n"
        "with session_scope(sys.argv[1]) as session:\n"
        "    track = get_track(session, 'demo', 'main')\n"
        f"    for name, value in {values!r}.items(): setattr(track, name, value)\n"
    )
    subprocess.run(
        [sys.executable, "-c", code, settings.database_url],
        cwd=ROOT,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_a_change_from_another_process_shows_on_the_next_anonymous_request(board):
    app, settings = board
    demo_track(settings)
    elsewhere(settings, phase="test")
    token = participant(settings, "a@x.org", team="A")
    scored(settings, "marlin", team="A")
    assert "marlin" not in anonymous(app, TRACK).text
    assert anonymous(app, BOARD).json["rows"] == []
    own = app.test_client(use_cookies=False).get(BOARD, headers=bearer(token)).json["rows"]
    assert [row["system"] for row in own] == ["marlin"]  # the team's view, drawn for it alone
    assert anonymous(app, BOARD).json["rows"] == []
    elsewhere(settings, is_published=True)
    assert "marlin" in anonymous(app, TRACK).text
    assert [row["system"] for row in anonymous(app, BOARD).json["rows"]] == ["marlin"]
    elsewhere(settings, is_published=False)
    assert "marlin" not in anonymous(app, TRACK).text
    assert anonymous(app, BOARD).json["rows"] == []
