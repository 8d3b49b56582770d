"""``nlgboard run`` refuses a port another process listens on, and not one whose only users are
the closed connections of a board that just stopped (TIME_WAIT): a crashed board restarts at
once on its port."""

from __future__ import annotations

import socket

import click
import pytest

from app.entry.cli.operations import _check_port


def _listening() -> socket.socket:
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server


def test_a_port_another_process_listens_on_is_refused():
    with _listening() as server, pytest.raises(click.ClickException, match="another board"):
        _check_port("127.0.0.1", server.getsockname()[1])


def test_a_port_left_with_closed_connections_only_is_free_again():
    server = _listening()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server side closes first: its end waits in TIME_WAIT
    client.close()
    server.close()
    _check_port("127.0.0.1", port)
