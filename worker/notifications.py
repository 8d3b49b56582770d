"""Notifications that the worker's own work causes: a submission scored or failed, and a
deadline 24 hours away (found by the recovery pass). Each is written to the outbox in the
transaction of what it reports on (the outcome, the track's reminder mark), so a worker killed
once that has committed loses no mail: the row is there for the recovery pass to send. A
scored or failed mail is written under a savepoint, so one that cannot be written is undone
alone and never undoes or delays the outcome it reports on.

A scored mail carries what its reader may see on the board and nothing more: the scores only
where the visibility rule (``app.data.visibility.Viewer``) shows them to the team, rounded as it
rounds them; otherwise it says the submission was scored, not what it scored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, or_, select, update
from sqlalchemy.orm import Session

from app.data.config import Settings
from app.data.db import session_scope
from app.data.disclosure import Figure, seal
from app.data.labels import system_label
from app.data.mail.messages import one_line
from app.data.mail.outbox import add_mail
from app.data.mail.recipients import challenge_participants, team_members
from app.data.models import Challenge, Submission, SubmissionStatus, System, Track, utcnow
from app.data.visibility import Viewer

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(hours=24)
"""A track's deadline this close gets one reminder to the challenge's participants."""


def submission_finished(session: Session, submission_id: int, base_url: str) -> list[int]:
    """Write the team's mail that its submission was scored or failed in ``session``, the
    transaction that records the outcome (``worker.jobs``), and return the mails' ids, to
    post once it has committed. Any error is logged and rolled back to a savepoint: the
    outcome commits without its mail."""
    try:
        with session.begin_nested():
            return _submission_mails(session, submission_id, base_url)
    except Exception:
        log.exception("submission %s: its notification could not be written", submission_id)
        return []


def _submission_mails(session: Session, submission_id: int, base_url: str) -> list[int]:
    submission = session.get(Submission, submission_id)
    team_id = submission.system.team_id if submission is not None else None
    if submission is None or team_id is None:
        return []
    system, track = submission.system, submission.system.track
    if submission.status == SubmissionStatus.SCORED:
        kind, subject = "scored", f"{one_line(system.name)} on {one_line(track.title)}: scored"
        lines = _scored_lines(submission, Viewer(team_id=team_id))
    elif submission.status == SubmissionStatus.FAILED:
        kind, subject = "failed", f"{one_line(system.name)} on {one_line(track.title)}: failed"
        lines = [
            f"Your file {submission.filename} could not be scored:",
            "",
            submission.error or "no reason was recorded",
        ]
    else:
        return []
    body = "\n".join(
        [
            f"Submission {submission.id} of {_label(system)} to {track.challenge.title} · "
            f"{track.title} ({submission.language}).",
            "",
            *lines,
            "",
            f"Your submissions: {base_url}/submissions",
            _footer(base_url),
        ]
    )
    mails = [
        add_mail(session, kind=kind, to=user.email, subject=subject, body=body, user=user)
        for user in team_members(session, team_id, "submissions")
    ]
    session.flush()
    return [mail.id for mail in mails]


def _label(system: System) -> str:
    return system_label(system.name, system.team.name if system.team else None)


def _scored_lines(submission: Submission, viewer: Viewer) -> list[str]:
    """The headline scores if the team may see them now, as the board shows them to it."""
    system, track = submission.system, submission.system.track
    if not viewer.sees_scores_of(track, system):
        return [
            "It was scored. The organisers hide the scores of this test phase from the teams "
            "too, until they publish the results."
        ]
    headline = {score.metric: score.value for score in submission.scores if score.subset == ""}
    shown = viewer.disclosed(track, seal(headline, Figure.HEADLINE, system.team_id))
    columns = track.scoring_profile.columns
    order = sorted(shown, key=lambda name: columns.index(name) if name in columns else len(columns))
    printed = track.scoring_profile.printed
    lines = ["It was scored:", ""] + [
        f"  {metric}: {printed(metric, shown[metric])}" for metric in order
    ]
    if not viewer.sees_exact_scores_of(track):
        lines += ["", "(Rounded as the published table prints them, until publication.)"]
    return lines


def remind_deadlines(settings: Settings, post: Callable[[int], object] | None) -> list[int]:
    """One reminder per track and deadline, when the deadline is 24 hours away or less: the
    track is marked first with a conditional UPDATE, so several workers running this pass
    send it once."""
    now = utcnow()
    with session_scope(settings.database_url) as session:
        due = session.scalars(
            select(Track.id).where(
                Track.deadline.is_not(None),
                Track.deadline > now,
                Track.deadline <= now + REMIND_BEFORE,
                or_(
                    Track.deadline_reminded_for.is_(None),
                    Track.deadline_reminded_for != Track.deadline,
                ),
            )
        ).all()
    ids: list[int] = []
    for track_id in due:
        try:
            with session_scope(settings.database_url) as session:
                ids += _deadline_mails(session, track_id, settings.mail.base_url)
        except Exception:
            log.exception("track %s: its deadline reminder could not be written", track_id)
    post_mails(post, ids)
    return ids


def _deadline_mails(session: Session, track_id: int, base_url: str) -> list[int]:
    track = session.get_one(Track, track_id)
    marked = session.execute(
        update(Track)
        .where(
            Track.id == track_id,
            or_(
                Track.deadline_reminded_for.is_(None), Track.deadline_reminded_for != track.deadline
            ),
        )
        .values(deadline_reminded_for=track.deadline)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], marked).rowcount != 1 or track.deadline is None:
        return []
    challenge = session.get_one(Challenge, track.challenge_id)
    when = track.deadline.strftime("%Y-%m-%d %H:%M UTC")
    body = "\n".join(
        [
            f"The deadline of {challenge.title} · {track.title} is {when}, in less than 24 hours.",
            "Later submissions are accepted but marked late on the leaderboard.",
            "",
            f"Submit: {base_url}/challenges/{challenge.slug}/tracks/{track.slug}/submit",
            _footer(base_url),
        ]
    )
    subject = f"{one_line(track.title)}: deadline {when}"
    mails = [
        add_mail(session, kind="deadline", to=user.email, subject=subject, body=body, user=user)
        for user in challenge_participants(session, challenge.id, "deadlines")
    ]
    session.flush()
    return [mail.id for mail in mails]


def _footer(base_url: str) -> str:
    return f"\n--\nSwitch these notifications off on your Team page: {base_url}/team"


def post_mails(post: Callable[[int], object] | None, mail_ids: Iterable[int]) -> None:
    """Hand committed mails to the queue; without one (or when it fails, or the process is
    killed first) the recovery pass finds them in the outbox and does."""
    if post is None:
        return
    for mail_id in mail_ids:
        try:
            post(mail_id)
        except Exception as error:
            log.warning("mail %s: not enqueued (%s); the recovery pass will", mail_id, error)
