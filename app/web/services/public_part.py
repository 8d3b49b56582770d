"""A test set's public part, as Kaggle's public leaderboard: an organiser who wants teams to
see more than their own rounded headline before the deadline declares a share of the items
public. Those items are scored as the subset ``public`` of every submission, and every team's
figures on them (with intervals and significance) are open to everyone in the test phase
(``app.data.disclosure``); the headline on every item stays hidden until publication and is the
final ranking. What the public part gives away: its items' references are probed as in the
development phase; the rest stay as hidden as before."""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Item, ItemSubset, Submission, SubmissionStatus, System, Track, User
from app.data.queue import SubmissionQueue
from app.data.testsets import PUBLIC_PART, stamp_content
from app.data.visibility import MIN_SUBSET_ITEMS
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.audit import record

MAX_PUBLIC_SHARE = 0.5
"""At most half of a test set is public: the hidden rest, the larger part, is what the
references still rank systems on that nobody could probe."""


@dataclass(frozen=True)
class PublicPart:
    """What declaring a public part did."""

    items: int
    rescored: tuple[int, ...] = ()
    """The baselines' submissions queued to be scored again, on the public part too."""


def public_part_problem(count: int, total: int) -> str | None:
    """Why ``count`` of a test set's ``total`` items cannot be its public part (None: they
    can): under ``MIN_SUBSET_ITEMS`` its open scores are per-item figures in all but name,
    above half it leaves less hidden than it opens."""
    if MIN_SUBSET_ITEMS <= count <= total * MAX_PUBLIC_SHARE:
        return None
    if total < 2 * MIN_SUBSET_ITEMS:
        room = f"a test set of {total} items is too small for one"
    else:
        room = f"choose {MIN_SUBSET_ITEMS} to {int(total * MAX_PUBLIC_SHARE)} of its {total}"
    return (
        f"{count} of {total} items: a public part holds at least "
        f"{MIN_SUBSET_ITEMS} items and at most half the test set ({room})"
    )


def declare_public_part(
    session: Session,
    queue: SubmissionQueue,
    track: Track,
    language: str,
    share: float,
    seed: int = 0,
    by: User | None = None,
) -> PublicPart:
    """Tag a random ``share`` of the test set's items (seeded: the same seed draws the same
    items) as its public part. Only before the test set's first upload: a team's scores
    already stored were computed without it. A baseline's are the organisers' own: its runs
    are queued to be scored again, on the public part too."""
    if not 0 < share < 1:
        raise DomainError(f"--share must be between 0 and 1 (a share of the items), got {share}")
    test_set = track.test_set_for(language)
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    with action(session):
        _check_no_uploads(session, track, language)
        items = session.scalars(
            select(Item).where(Item.test_set_id == test_set.id).order_by(Item.position)
        ).all()
        if any(subset.name == PUBLIC_PART for item in items for subset in item.subsets):
            raise DomainError(f"track {track.slug!r} ({language}) already has a public part")
        count = round(share * len(items))
        if problem := public_part_problem(count, len(items)):
            raise DomainError(f"--share {share} draws {problem}")
        for item in random.Random(seed).sample(list(items), count):
            session.add(ItemSubset(item_id=item.id, name=PUBLIC_PART))
        stamp_content(session, test_set)  # a worker's copy of the test set lacks the part
        rescored = _queue_baselines_again(session, track, language)
        record(session, by, "public part", track.slug, track.challenge_id,
               language=language, items=count, of=len(items), seed=seed,
               rescored=rescored)  # fmt: skip
    for submission_id in rescored:
        queue.enqueue(submission_id)
    return PublicPart(count, tuple(rescored))


def _check_no_uploads(session: Session, track: Track, language: str) -> None:
    uploaded = session.scalar(
        select(Submission.id)
        .join(System)
        .where(
            System.track_id == track.id,
            System.is_baseline.is_(False),
            Submission.language == language,
        )
        .limit(1)
    )
    if uploaded is not None:
        raise DomainError(
            f"track {track.slug!r} ({language}) has submissions already: declare the public "
            "part before the first upload (their scores were computed without it)"
        )


def _queue_baselines_again(session: Session, track: Track, language: str) -> list[int]:
    """The baselines' submissions, back to ``queued`` to be scored with the public part (as
    ``rescore_track`` does; their old scores show until then). One being scored loses its
    claim: its job, which read the test set without the part, writes nothing."""
    submissions = session.scalars(
        select(Submission)
        .join(System)
        .where(
            System.track_id == track.id,
            System.is_baseline.is_(True),
            Submission.language == language,
            Submission.status != SubmissionStatus.FAILED,
        )
        .order_by(Submission.id)
    ).all()
    for submission in submissions:
        if submission.status == SubmissionStatus.RUNNING:
            submission.claim_token = None
            submission.started_at = submission.heartbeat_at = None
        submission.status = SubmissionStatus.QUEUED
    return [submission.id for submission in submissions]
