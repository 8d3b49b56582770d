"""The recovery pass: the database decides what still needs scoring, not the queue.

A submission ``queued`` but unknown to the queue (Redis flushed or lost, web process died between
commit and enqueue), or whose job a worker took and died with before claiming it, is enqueued
again; one ``running`` with a stale heartbeat (its worker was
killed) has its dead job dropped and is enqueued again. A ``scored`` one still waiting for its
textual statistics after the grace period gets its describing job again (a no-op while that job
is waiting or running). The claim in ``worker.jobs`` makes a
duplicate harmless, so several workers may run this pass at once. Mail is recovered the same
way from its outbox table (``recover_mail``), which is also how a failed send is tried again,
and a human evaluation's analysis from its campaign's row (``recover_analyses``).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from sqlalchemy import select

from app.data.config import Settings
from app.data.db import session_scope
from app.data.human_analysis import AnalysisStatus
from app.data.mail.outbox import due_mail_ids
from app.data.models import Campaign, Submission, SubmissionStatus, utcnow
from app.data.queue import MailQueue, SubmissionQueue
from app.data.storage import Storage, storage_for
from worker.notifications import remind_deadlines

log = logging.getLogger(__name__)


def recover(settings: Settings, submission_queue: SubmissionQueue) -> list[int]:
    """Re-enqueue every lost or abandoned submission; return their ids."""
    now = utcnow()
    queued_before = now - timedelta(seconds=settings.queued_grace_seconds)
    stale_before = now - timedelta(seconds=settings.heartbeat_stale_seconds)
    with session_scope(settings.database_url) as session:
        queued = session.scalars(
            select(Submission.id).where(
                Submission.status == SubmissionStatus.QUEUED,
                Submission.created_at <= queued_before,
            )
        ).all()
        abandoned = session.scalars(
            select(Submission.id).where(
                Submission.status == SubmissionStatus.RUNNING,
                Submission.heartbeat_at < stale_before,
            )
        ).all()
        undescribed = session.scalars(
            select(Submission.id).where(
                Submission.status == SubmissionStatus.SCORED,
                Submission.described_at.is_(None),
                Submission.finished_at <= queued_before,
            )
        ).all()
    lost = [
        submission_id
        for submission_id in queued
        if not submission_queue.is_pending(submission_id, settings.queued_grace_seconds)
    ]
    recovered = [
        submission_id
        for submission_id in [*lost, *abandoned]
        if _enqueue_again(submission_queue, submission_id)
    ]
    for submission_id in undescribed:
        submission_queue.enqueue_description(submission_id)
    if recovered:
        log.warning("recovery: re-enqueued submissions %s", recovered)
    return recovered


def _enqueue_again(submission_queue: SubmissionQueue, submission_id: int) -> bool:
    """Drop the job a dead worker left (if any) and enqueue the submission again. A queue that
    refuses one submission is logged and the pass goes on with the others: one bad job must
    not hold back every recovery (the next pass tries it again)."""
    try:
        submission_queue.discard(submission_id)
        submission_queue.enqueue(submission_id)
    except Exception:
        log.exception(
            "recovery: submission %s not re-enqueued; next pass tries again", submission_id
        )
        return False
    return True


def recover_mail(settings: Settings, queue: MailQueue) -> list[int]:
    """Enqueue every mail that is due: new ones a lost queue dropped, ones whose last try
    failed and whose wait is over, ones a dead worker held. Then write the deadline reminders
    that have come due (they go to the queue at once)."""
    with session_scope(settings.database_url) as session:
        due = due_mail_ids(session, timedelta(seconds=settings.queued_grace_seconds))
    for mail_id in due:
        queue.enqueue_mail(mail_id)
    remind_deadlines(settings, queue.enqueue_mail)
    return due


def recover_analyses(settings: Settings, queue: SubmissionQueue) -> list[int]:
    """Enqueue every campaign whose analysis is still pending (a job already waiting or
    running is left alone; one that ran already finds the campaign analysed and skips it)."""
    with session_scope(settings.database_url) as session:
        pending = list(
            session.scalars(select(Campaign.id).where(Campaign.analysis == AnalysisStatus.PENDING))
        )
    for campaign_id in pending:
        queue.enqueue_analysis(campaign_id)
    return pending


ORPHAN_AGE = timedelta(hours=1)
"""An uploaded file no submission refers to after this long is an orphan: its upload was
refused or failed after storing it (an upload in flight is younger)."""


SWEEP_EVERY = timedelta(minutes=10)


def sweep_orphans(settings: Settings, storage: Storage, now: datetime | None = None) -> list[str]:
    """Remove stored files older than ORPHAN_AGE that no submission refers to."""
    cutoff = (now or utcnow()) - ORPHAN_AGE
    old = list(storage.stored_before(cutoff))
    if not old:
        return []
    with session_scope(settings.database_url) as session:
        kept = set(
            session.scalars(
                select(Submission.file_sha256).where(Submission.file_sha256.in_(old))
            ).all()
        )
    orphans = [digest for digest in old if digest not in kept]
    for digest in orphans:
        storage.delete(digest)
    if orphans:
        log.warning("storage: removed %d orphaned upload(s)", len(orphans))
    return orphans


def start_recovery_loop(settings: Settings, submission_queue: SubmissionQueue) -> threading.Event:
    """Run ``recover`` now and then every interval in a daemon thread, and the orphan sweep
    every SWEEP_EVERY; set the event to stop."""
    stop = threading.Event()

    def loop() -> None:
        swept_at: datetime | None = None
        while True:
            try:
                recover(settings, submission_queue)
                recover_mail(settings, submission_queue)
                recover_analyses(settings, submission_queue)
                if swept_at is None or utcnow() - swept_at >= SWEEP_EVERY:
                    sweep_orphans(settings, storage_for(settings))
                    swept_at = utcnow()
            except Exception:
                log.exception("recovery pass failed; retrying next interval")
            if stop.wait(settings.recovery_interval_seconds):
                return

    threading.Thread(target=loop, daemon=True, name="recovery").start()
    return stop
