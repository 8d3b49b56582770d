"""A worker host cut off mid-transaction must not hold its row locks for the kernel's two
hours: the board's PostgreSQL connections ask the server to probe them (and probe the server)."""

from __future__ import annotations

import itertools
import os

import pytest
from sqlalchemy import text

from app.data.db import KEEPALIVE, get_engine
from tests.support.servers import create_database

pytestmark = pytest.mark.integration
_names = itertools.count()


def test_the_server_probes_a_board_connection_and_drops_it_within_a_minute(postgres):
    url = create_database(postgres, f"nlg_keepalive_{next(_names)}_{os.getpid()}")
    with get_engine(url).connect() as connection:
        shown = {
            name: connection.execute(text(f"SHOW tcp_keepalives_{name}")).scalar_one()
            for name in KEEPALIVE
        }
    assert shown == {"idle": "30", "interval": "10", "count": "3"}  # seconds
    assert KEEPALIVE["idle"] + KEEPALIVE["interval"] * KEEPALIVE["count"] <= 60


def test_settings_in_the_database_url_are_left_alone(postgres):
    url = create_database(postgres, f"nlg_keepalive_{next(_names)}_{os.getpid()}")
    own = f"{url}?options=-c%20tcp_keepalives_idle%3D7"
    with get_engine(own).connect() as connection:
        assert connection.execute(text("SHOW tcp_keepalives_idle")).scalar_one() == "7"
