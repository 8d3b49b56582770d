"""A real SMTP server for the mail tests: aiosmtpd on a loopback port, keeping every message
it receives (parsed by the standard library) for the test to read."""

from __future__ import annotations

import gc
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

from tests.support.servers import free_port
from tests.support.waiting import STATE_DEADLINE, wait_until


@dataclass
class Received:
    envelope_to: list[str]
    message: EmailMessage

    @property
    def body(self) -> str:
        return self.message.get_content()


@dataclass
class Inbox:
    host: str
    port: int
    received: list[Received] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    """Addresses the server answers 550 for (a permanent refusal)."""
    down: bool = False
    """Answer every message with 451 (try again later), as a server in trouble does."""

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def wait_for(self, count: int, timeout: float = STATE_DEADLINE) -> list[Received]:
        """Every message once ``count`` have come (``timeout``: a safety net only)."""
        wait_until(
            lambda: len(self.received) >= count,
            f"{count} mail(s)",
            timeout,
            lambda: f"{len(self.received)} came",
        )
        return self.received

    def to(self, address: str) -> list[Received]:
        return [mail for mail in self.received if address in mail.envelope_to]

    @staticmethod
    def link(mail: Received, path: str) -> str:
        """The path of the first link in ``mail`` under ``path`` (e.g. ``/verify/``)."""
        found = re.search(rf"https?://[^/\s]+({re.escape(path)}\S+)", mail.body)
        assert found, f"no {path} link in:\n{mail.body}"
        return found.group(1)


class _Handler:
    def __init__(self, inbox: Inbox):
        self.inbox = inbox

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.inbox.refuse:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.inbox.down:
            return "451 4.3.0 try again later"
        message = message_from_bytes(envelope.content, policy=policy.default)
        self.inbox.received.append(Received(list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
        return "250 Message accepted"


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    from aiosmtpd.controller import Controller

    inbox = Inbox("127.0.0.1", free_port())
    controller = Controller(_Handler(inbox), hostname=inbox.host, port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
        _collect_closed_connections()


def _collect_closed_connections() -> None:
    """The stopped server's loop leaves a client connection's transport to the garbage
    collector, whose ResourceWarning (an error under ``filterwarnings``) would otherwise fail
    whichever later test of the same process collects it: collect it here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
