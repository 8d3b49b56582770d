"""Addresses, header texts and messages: checked here, built by the standard library's
``email`` package (no home-made MIME)."""

from __future__ import annotations

import re
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid, parseaddr

from app.data.errors import MailError

_PART = r"[^@\s\"<>(),;:\\\[\]]+"
ADDRESS = re.compile(rf"^{_PART}@{_PART}\.{_PART}$")
"""One plain ``local@domain.tld``: no display name, no list, no quoting, no white space."""
SUBJECT_MAX = 200


LOCAL_ADDRESS = re.compile(rf"^{_PART}@{_PART}$")


def check_address(address: str, what: str = "e-mail address", local: bool = False) -> str:
    """The address, stripped, or MailError: a line break or a second address in it would add
    recipients or headers to a message (header injection). A recipient's domain has a dot;
    the sender's may be a local name (``nlgboard@localhost``) with ``local``."""
    address = address.strip()
    bad = next((c for c in address if not c.isprintable()), None)
    if bad is not None:
        raise MailError(f"{what} {address!r} holds the control character U+{ord(bad):04X}")
    if len(address) > 254 or not (LOCAL_ADDRESS if local else ADDRESS).match(address):
        raise MailError(f"{what} {address!r} is not one plain address like name@example.org")
    try:
        Address(addr_spec=address)
    except (ValueError, IndexError) as error:
        raise MailError(f"{what} {address!r} is not a valid address: {error}") from None
    return address


def one_line(text: str, longest: int = SUBJECT_MAX // 2) -> str:
    """A stored title or name as it may go into a subject: control characters (a CR/LF kept
    from before titles were checked) become spaces, runs of spaces one, cut to ``longest``."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= longest else flat[: longest - 1] + "…"


def check_header_text(text: str, what: str, longest: int = SUBJECT_MAX) -> str:
    """A subject or display name on one line: a line break would start a header of the
    sender's choosing (``Bcc:``), so any control character is refused, not dropped."""
    bad = next((c for c in text if not c.isprintable()), None)
    if bad is not None:
        at = text.index(bad) + 1
        raise MailError(f"{what} holds the control character U+{ord(bad):04X} at character {at}")
    text = text.strip()
    if not text:
        raise MailError(f"{what} is empty")
    if len(text) > longest:
        raise MailError(f"{what} is longer than {longest} characters")
    return text


def sender_address(sender: str) -> Address:
    """``NLGBOARD_MAIL_FROM`` (``Name <address>`` or a bare address) as a header value.
    Checked whole first: ``parseaddr`` would quietly drop a line break."""
    check_header_text(sender, "NLGBOARD_MAIL_FROM")
    name, address = parseaddr(sender)
    address = check_address(address or sender, "NLGBOARD_MAIL_FROM", local=True)
    return Address(
        display_name=check_header_text(name, "NLGBOARD_MAIL_FROM's name") if name else "",
        addr_spec=address,
    )


def build_message(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    """A plain-text UTF-8 message, headers folded and encoded by ``email.policy.SMTP``."""
    origin = sender_address(sender)
    message = EmailMessage(policy=SMTP)
    message["From"] = origin
    message["To"] = Address(addr_spec=check_address(to))
    message["Subject"] = check_header_text(subject, "the subject")
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=origin.domain or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(body)
    return message
