"""Notifications the organisers' actions cause: results published, a campaign open for its
annotators, and a message to every participant of a track. Mails are written to the outbox
in the action's transaction; the caller commits and posts them (``app.data.mail.outbox.post``).
None of them carries a score: the board's pages show those to whoever may see them."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.data.errors import MailError
from app.data.mail.messages import check_header_text, one_line
from app.data.mail.outbox import add_mail
from app.data.mail.recipients import challenge_annotators, track_participants
from app.data.models import Campaign, Mail, Track, User
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.access import is_organiser_of
from app.web.services.audit import record

MESSAGE_MAX = 10_000


def _footer(base_url: str) -> str:
    return f"\n\n--\nSwitch these notifications off on your Team page: {base_url}/team"


def notify_published(session: Session, track: Track, base_url: str) -> list[Mail]:
    """The track's participants learn that its results are out (the page shows them)."""
    link = f"{base_url}/challenges/{track.challenge.slug}/tracks/{track.slug}"
    body = (
        f"The organisers of {track.challenge.title} published the results of {track.title}."
        f"\n\nLeaderboard: {link}" + _footer(base_url)
    )
    subject = f"{one_line(track.title)}: results published"
    mails = [
        add_mail(session, kind="published", to=u.email, subject=subject, body=body, user=u)
        for u in track_participants(session, track.id, "results")
    ]
    session.flush()
    return mails


def notify_campaign_open(session: Session, campaign: Campaign, base_url: str) -> list[Mail]:
    """The challenge's annotator accounts learn that a campaign waits for them."""
    track = campaign.track
    body = (
        f"A human evaluation of {track.challenge.title} · {track.title} ({campaign.name}) is "
        "on your annotation page (a campaign that shows the references opens once the "
        f"track's deadline has passed).\n\nYour campaigns: {base_url}/annotate" + _footer(base_url)
    )
    subject = f"New annotation campaign: {one_line(campaign.name)}"
    mails = [
        add_mail(session, kind="annotation", to=u.email, subject=subject, body=body, user=u)
        for u in challenge_annotators(session, track.challenge_id, "annotation")
    ]
    session.flush()
    return mails


@dataclass(frozen=True)
class ParticipantMessage:
    """What an organiser is about to send, as each recipient will read it."""

    subject: str
    body: str
    recipients: list[User]


def prepare_message(
    session: Session, actor: User, track: Track, subject: str, text: str, base_url: str
) -> ParticipantMessage:
    """Check the rule (the track's organisers only) and the text; nothing is stored."""
    if not is_organiser_of(session, actor, track.challenge_id):
        raise DomainError("only the track's organisers write to its participants")
    try:
        subject = check_header_text(subject, "the subject")
    except MailError as error:
        raise DomainError(str(error)) from None
    if not text.strip():
        raise DomainError("the message is empty")
    if len(text) > MESSAGE_MAX:
        raise DomainError(f"the message is longer than {MESSAGE_MAX:,} characters")
    body = (
        f"A message from the organisers of {track.challenge.title} · {track.title} to its "
        f"participants:\n\n{text.strip()}" + _footer(base_url)
    )
    recipients = track_participants(session, track.id, "messages")
    return ParticipantMessage(f"[{track.challenge.slug}] {subject}", body, recipients)


def send_message(
    session: Session, actor: User, track: Track, subject: str, text: str, base_url: str
) -> list[Mail]:
    """Write the message to every participant who takes them, and record it in the audit log
    (subject and number of recipients); committed, the mails are to be posted."""
    message = prepare_message(session, actor, track, subject, text, base_url)
    with action(session):
        mails = [
            add_mail(
                session,
                kind="message",
                to=u.email,
                subject=message.subject,
                body=message.body,
                user=u,
            )
            for u in message.recipients
        ]
        record(
            session, actor, "message participants", track.slug, track.challenge_id,
            subject=subject.strip(), recipients=len(mails),
        )  # fmt: skip
    return mails
