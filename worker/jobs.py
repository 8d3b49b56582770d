"""The scoring job, and the describing job that follows it: the same functions run in an RQ
worker and in the embedded thread.

Scoring computes the metrics and stores them; the textual statistics and D-levels (E2E Tables
9-10, several times the metrics' CPU time) are a second job on a lower-priority queue, so every
waiting submission gets its scores before any is described.

Exactly-once scoring does not rely on the queue. A job first *claims* its submission with one
conditional UPDATE (queued, or running with a stale heartbeat); a job that loses the claim does
nothing. The result is written in one transaction that only commits while the claim is still
held, so a duplicate or late job can never write a second set of scores. The team's mail about
it is written in that same transaction, so the outcome and its notification commit together.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Self, cast

from sqlalchemy import CursorResult, delete, insert, or_, select, update
from sqlalchemy.engine import Result as Rows
from sqlalchemy.orm import Session

from app.data.config import Settings
from app.data.db import session_scope
from app.data.logs import submission_context
from app.data.models import (
    DESCRIBED,
    Output,
    Score,
    Submission,
    SubmissionStatistics,
    SubmissionStatus,
    System,
    TestSet,
    Track,
    utcnow,
)
from app.data.statistics import pack_statistics
from app.data.storage import storage_for
from scorer.errors import InputError
from scorer.kinds import Profile, describe_references, described_signature
from scorer.metrics.base import MetricScore
from scorer.references import ReferenceSet
from worker.notifications import post_mails, submission_finished
from worker.state import Claim, JobsState

log = logging.getLogger(__name__)


INTERNAL_ERROR = (
    "Scoring failed because of an internal error on our side, not because of your file. "
    "The organisers have been told; you do not need to upload again."
)


@dataclass(frozen=True)
class Result:
    """What scoring a submission produced, written in one transaction."""

    outputs: list[str]
    item_ids: list[int]
    scores: dict[str, list[MetricScore]]
    """By subset: ``""`` the headline, then named subsets (DRS challenge sets, PMB 5 sets)."""
    language: str
    annotations: list[list[str]] | None
    statistics: bytes = b""
    """Per-item metric statistics (``pack_statistics``), for significance and intervals."""
    describable: bool = False
    """The profile has textual statistics: a describing job follows."""


@dataclass(frozen=True)
class Finished:
    """A job's outcome, committed, with the outbox mails committed with it (to post)."""

    outcome: str
    """``scored``, ``failed`` or ``skipped``."""
    mail_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Loaded:
    """A submission's outputs and its test set, read for a job."""

    profile: Profile
    outputs: list[str]
    item_ids: list[int]
    references: ReferenceSet
    subsets: dict
    language: str
    test_set_id: int
    described_signature: str | None
    file_sha256: str
    finished_at: object


def score_submission(
    submission_id: int,
    settings: Settings | None = None,
    describe_next: Callable[[int], object] | None = None,
    mail_next: Callable[[int], object] | None = None,
    state: JobsState | None = None,
) -> str:
    """Score one submission; return what happened (``scored``, ``failed`` or ``skipped``).

    The one place where "score, then describe" is chained: a scored submission whose profile
    has textual statistics goes to ``describe_next`` (the embedded queue, or the CLI running it
    at once); RQ jobs pass nothing and the describing job goes on the Redis queue. The team's
    notification (scored or failed) is written in the transaction that records the outcome,
    and its mails go to ``mail_next`` once it has committed (the same way: RQ jobs pass
    nothing; without either, or when the worker dies first, the recovery pass sends them from
    the outbox). ``state`` is the process's (``worker.state``): the worker's, the embedded
    queue's; a fresh one when none is given.
    """
    state = state or JobsState()
    with (
        submission_context(submission_id),
        state.running(),
        state.scoring_job(),
        state.timing() as stages,
    ):
        started = time.perf_counter()
        settings = settings or Settings.from_env()
        describe_next = describe_next or _redis_describer(settings, state)
        finished = _score(submission_id, settings, state, describe_next)
        if finished.mail_ids:
            with state.stage("notify"):
                post_mails(mail_next or _redis_mailer(settings, state), finished.mail_ids)
        _log_done(submission_id, "job done", finished.outcome, started, stages)
        return finished.outcome


def hand_back(settings: Settings, state: JobsState) -> list[int]:
    """Give every submission this process is scoring back to the queue (``queued``, no claim):
    the process is stopping. Its own job, if it still finishes, no longer holds the claim and
    writes nothing; another worker, or this board's next start, scores it."""
    handed = []
    for claim in state.take_in_hand():
        with session_scope(settings.database_url) as session:
            result = session.execute(
                update(Submission)
                .where(
                    Submission.id == claim.submission_id,
                    Submission.claim_token == claim.token,
                    Submission.status == SubmissionStatus.RUNNING,
                )
                .values(
                    status=SubmissionStatus.QUEUED,
                    claim_token=None,
                    started_at=None,
                    heartbeat_at=None,
                )
                .execution_options(synchronize_session=False)
            )
        if _rowcount(result) == 1:
            handed.append(claim.submission_id)
    if handed:
        log.warning("stopping: handed back submissions %s", handed)
    return handed


def _log_done(
    submission_id: int,
    what: str,
    outcome: str,
    started: float,
    stages: dict[str, float] | None = None,
) -> None:
    """A job's closing line, its outcome, time and stages' times as JSON fields for the log
    store."""
    seconds = time.perf_counter() - started
    parts = ", ".join(f"{name} {value:.2f}" for name, value in (stages or {}).items())
    log.info(
        "submission %s: %s (%s) in %.2f s%s",
        submission_id,
        what,
        outcome,
        seconds,
        f" ({parts})" if parts else "",
        extra={"outcome": outcome, "seconds": round(seconds, 3)}
        | ({"stages": parts} if parts else {}),
    )


def _score(
    submission_id: int,
    settings: Settings,
    state: JobsState,
    describe_next: Callable[[int], object] | None,
) -> Finished:
    with state.stage("claim"):
        claim = claim_submission(settings, submission_id)
    if claim is None:
        log.info("submission %s: not claimable (already taken or finished), skipped", submission_id)
        return Finished("skipped")
    log.info("submission %s: claimed", submission_id)
    with state.holding(claim), Heartbeat(settings, claim):
        try:
            with state.turn():
                result = _compute(settings, submission_id, state)
        except InputError as error:
            return _finish_failed(settings, claim, str(error))
        except Exception:
            log.exception("submission %s: internal error while scoring", submission_id)
            return _finish_failed(settings, claim, INTERNAL_ERROR)
        with state.stage("store"):
            finished = _finish_scored(settings, claim, result)
    if finished.outcome == "scored" and result.describable and describe_next is not None:
        describe_next(submission_id)
    return finished


def _redis_describer(settings: Settings, state: JobsState) -> Callable[[int], object] | None:
    if not settings.redis_url:
        return None
    return state.redis_queue(settings.redis_url).enqueue_description


def _redis_mailer(settings: Settings, state: JobsState) -> Callable[[int], object] | None:
    return state.redis_queue(settings.redis_url).enqueue_mail if settings.redis_url else None


def describe_submission(
    submission_id: int, settings: Settings | None = None, state: JobsState | None = None
) -> str:
    """Store a scored submission's textual statistics (and, once per test set and signature,
    its references'); return ``described`` or ``skipped``.

    Skipped when the submission is no longer the scored one it was queued for (withdrawn from
    scoring, rescored meanwhile: its own describing job follows). A failure is logged and the
    submission marked described: the scores stand, and a rescore tries again. ``state`` as for
    ``score_submission``."""
    settings = settings or Settings.from_env()
    state = state or JobsState()
    with submission_context(submission_id), state.running():
        started = time.perf_counter()
        if not _awaits_description(settings, submission_id):
            return "skipped"
        try:
            loaded = _load(settings, submission_id, state, stored=True)
            describe = loaded.profile.describe
            described = (describe(loaded.outputs, loaded.references) if describe else None) or {}
        except Exception:
            log.exception("submission %s: describing the outputs failed", submission_id)
            loaded, described = None, {}
        outcome = _finish_described(settings, submission_id, loaded, described)
        if (
            outcome == "described"
            and loaded
            and loaded.described_signature != described_signature()
        ):
            describe_test_set(settings, loaded.test_set_id, loaded.profile, loaded.references)
        _log_done(submission_id, "describing done", outcome, started)
        return outcome


def claim_submission(settings: Settings, submission_id: int) -> Claim | None:
    """Atomically move a submission to ``running`` under a fresh token, if nobody holds it."""
    token = secrets.token_hex(16)
    now = utcnow()
    stale = now - timedelta(seconds=settings.heartbeat_stale_seconds)
    with session_scope(settings.database_url) as session:
        result = session.execute(
            update(Submission)
            .where(
                Submission.id == submission_id,
                or_(
                    Submission.status == SubmissionStatus.QUEUED,
                    (Submission.status == SubmissionStatus.RUNNING)
                    & or_(Submission.heartbeat_at.is_(None), Submission.heartbeat_at < stale),
                ),
            )
            .values(
                status=SubmissionStatus.RUNNING,
                claim_token=token,
                attempts=Submission.attempts + 1,
                started_at=now,
                heartbeat_at=now,
                error=None,
            )
            .execution_options(synchronize_session=False)
        )
    return Claim(submission_id, token) if _rowcount(result) == 1 else None


class Heartbeat:
    """Refresh ``heartbeat_at`` while a claim is being worked on, from a background thread."""

    def __init__(self, settings: Settings, claim: Claim):
        self._settings = settings
        self._claim = claim
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="heartbeat")

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self._settings.heartbeat_interval_seconds):
            try:
                with session_scope(self._settings.database_url) as session:
                    session.execute(
                        update(Submission)
                        .where(
                            Submission.id == self._claim.submission_id,
                            Submission.claim_token == self._claim.token,
                        )
                        .values(heartbeat_at=utcnow())
                        .execution_options(synchronize_session=False)
                    )
            except Exception:
                log.exception("submission %s: heartbeat failed", self._claim.submission_id)


def _compute(settings: Settings, submission_id: int, state: JobsState) -> Result:
    loaded = _load(settings, submission_id, state)
    profile, outputs, references = loaded.profile, loaded.outputs, loaded.references
    with state.stage("metrics"):
        statistics = profile.statistics(outputs, references)
        scores = profile.subset_scores(statistics, loaded.subsets)
    with state.stage("annotate"):
        annotations = profile.annotate(outputs, references) if profile.annotate else None
    return Result(
        outputs,
        loaded.item_ids,
        scores,
        loaded.language,
        annotations,
        statistics=pack_statistics(statistics),
        describable=profile.describe is not None and references.inputs is not None,
    )


def _load(settings: Settings, submission_id: int, state: JobsState, stored: bool = False) -> Loaded:
    """The submission's outputs and its test set (from this process's cache while unchanged):
    to score, read and checked from the uploaded file; with ``stored`` (describing a scored
    submission), its normalised outputs as scoring stored them, not the file parsed again."""
    with state.stage("test set"), session_scope(settings.database_url) as session:
        submission = session.get(Submission, submission_id)
        if submission is None:
            raise InputError(f"submission {submission_id} no longer exists")
        track = session.scalars(
            select(Track)
            .join(System, System.track_id == Track.id)
            .where(System.id == submission.system_id)
        ).one()
        test_set = track.test_set_for(submission.language)
        if test_set is None:
            raise InputError(f"track {track.slug} has no test set for {submission.language}")
        cached = state.test_sets.get(session, test_set)
        profile = track.scoring_profile
        filename, digest = submission.filename, submission.file_sha256
        language, finished_at = submission.language, submission.finished_at
        test_set_id, signature = test_set.id, test_set.described_signature
        texts = _stored_outputs(session, submission_id) if stored else {}
    if stored and set(texts) >= set(cached.item_ids):
        outputs = [texts[item_id] for item_id in cached.item_ids]
    else:
        with state.stage("outputs"):
            data = storage_for(settings).get(digest)
            outputs = profile.read_outputs(data, cached.references.inputs, filename)
    return Loaded(
        profile,
        outputs,
        cached.item_ids,
        cached.references,
        cached.subsets,
        language,
        test_set_id,
        signature,
        digest,
        finished_at,
    )


def _stored_outputs(session: Session, submission_id: int) -> dict[int, str]:
    rows = session.execute(
        select(Output.item_id, Output.text).where(Output.submission_id == submission_id)
    )
    return {item_id: text for item_id, text in rows}


def describe_test_set(
    settings: Settings, test_set_id: int, profile: Profile, references: ReferenceSet
) -> None:
    """Store the references' rows of the textual statistics, once per test set and signature.

    Done by the first describing job of the test set, not by the page that shows them; a
    failure here is logged and changes no submission."""
    try:
        rows = describe_references(profile, references)
        with session_scope(settings.database_url) as session:
            session.execute(
                update(TestSet)
                .where(TestSet.id == test_set_id)
                .values(described=rows, described_signature=described_signature())
            )
    except Exception:
        log.exception("test set %s: describing the references failed", test_set_id)


def _finish_scored(settings: Settings, claim: Claim, result: Result) -> Finished:
    with session_scope(settings.database_url) as session:
        if not _close_claim(session, claim, SubmissionStatus.SCORED, None):
            session.rollback()
            return Finished("skipped")
        session.execute(delete(Score).where(Score.submission_id == claim.submission_id))
        session.execute(delete(Output).where(Output.submission_id == claim.submission_id))
        session.execute(
            delete(SubmissionStatistics).where(
                SubmissionStatistics.submission_id == claim.submission_id
            )
        )
        if result.statistics:
            session.add(
                SubmissionStatistics(submission_id=claim.submission_id, data=result.statistics)
            )
        session.add_all(
            Score(
                submission_id=claim.submission_id,
                metric=score.metric,
                subset=subset,
                language=result.language,
                value=score.value,
                signature=score.signature,
            )
            for subset, scores in result.scores.items()
            for score in scores
        )
        session.execute(
            update(Submission)
            .where(Submission.id == claim.submission_id)
            .values(described_at=None if result.describable else utcnow())
            .execution_options(synchronize_session=False)
        )
        session.execute(
            insert(Output),
            [
                {
                    "submission_id": claim.submission_id,
                    "item_id": item_id,
                    "text": text,
                    "annotations": result.annotations[k] if result.annotations else None,
                }
                for k, (item_id, text) in enumerate(
                    zip(result.item_ids, result.outputs, strict=True)
                )
            ],
        )
        mail_ids = submission_finished(session, claim.submission_id, settings.mail.base_url)
    log.info("submission %s: scored", claim.submission_id)
    return Finished("scored", tuple(mail_ids))


def _awaits_description(settings: Settings, submission_id: int) -> bool:
    with session_scope(settings.database_url) as session:
        found = session.scalar(
            select(Submission.id).where(
                Submission.id == submission_id,
                Submission.status == SubmissionStatus.SCORED,
                Submission.described_at.is_(None),
            )
        )
    return found is not None


def _finish_described(
    settings: Settings, submission_id: int, loaded: Loaded | None, described: dict[str, float]
) -> str:
    """Replace the submission's DESCRIBED rows, only while it is still the scored submission
    that was read (same file, same scoring)."""
    with session_scope(settings.database_url) as session:
        conditions = [
            Submission.id == submission_id,
            Submission.status == SubmissionStatus.SCORED,
            Submission.described_at.is_(None),
        ]
        if loaded is not None:
            conditions += [
                Submission.file_sha256 == loaded.file_sha256,
                Submission.finished_at == loaded.finished_at,
            ]
        marked = session.execute(
            update(Submission)
            .where(*conditions)
            .values(described_at=utcnow())
            .execution_options(synchronize_session=False)
        )
        if _rowcount(marked) != 1:
            session.rollback()
            return "skipped"
        session.execute(
            delete(Score).where(Score.submission_id == submission_id, Score.subset == DESCRIBED)
        )
        signature = described_signature()
        language = loaded.language if loaded is not None else ""
        session.add_all(
            Score(
                submission_id=submission_id,
                metric=name,
                subset=DESCRIBED,
                language=language,
                value=value,
                signature=signature,
            )
            for name, value in described.items()
        )
    return "described"


def _finish_failed(settings: Settings, claim: Claim, message: str) -> Finished:
    with session_scope(settings.database_url) as session:
        if not _close_claim(session, claim, SubmissionStatus.FAILED, message):
            session.rollback()
            return Finished("skipped")
        mail_ids = submission_finished(session, claim.submission_id, settings.mail.base_url)
    log.info("submission %s: failed: %s", claim.submission_id, message)
    return Finished("failed", tuple(mail_ids))


def _close_claim(
    session: Session, claim: Claim, status: SubmissionStatus, error: str | None
) -> bool:
    result = session.execute(
        update(Submission)
        .where(
            Submission.id == claim.submission_id,
            Submission.claim_token == claim.token,
            Submission.status == SubmissionStatus.RUNNING,
        )
        .values(status=status, error=error, finished_at=utcnow(), claim_token=None)
        .execution_options(synchronize_session=False)
    )
    return _rowcount(result) == 1


def _rowcount(result: Rows[Any]) -> int:
    """Rows an UPDATE matched (SQLAlchemy types ``execute`` as returning a plain ``Result``)."""
    return cast(CursorResult[Any], result).rowcount
