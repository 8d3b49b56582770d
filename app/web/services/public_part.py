"""A test set's public part, as Kaggle's public leaderboard: an organiser who wants teams to
see more than their own rounded headline before the deadline declares a share of the items
public. Those items are scored as the subset ``public`` of every submission, and every team's
figures on them (with intervals and significance) are open to everyone in the test phase
(``app.data.disclosure``); the headline on every item stays hidden until publication and is the
final ranking. What the public part gives away: its items' references are probed as in the
development phase; the rest stay as hidden as before."""

from __future__ import annotations

import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Item, ItemSubset, Submission, System, Track, User
from app.data.testsets import PUBLIC_PART
from app.data.visibility import MIN_SUBSET_ITEMS
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.audit import record

MAX_PUBLIC_SHARE = 0.5
"""At most half of a test set is public: the hidden rest, the larger part, is what the
references still rank systems on that nobody could probe."""


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
    track: Track,
    language: str,
    share: float,
    seed: int = 0,
    by: User | None = None,
) -> int:
    """Tag a random ``share`` of the test set's items (seeded: the same seed draws the same
    items) as its public part; returns how many. Only before the test set's first upload:
    scores already stored were computed without it."""
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
        record(session, by, "public part", track.slug, track.challenge_id,
               language=language, items=count, of=len(items), seed=seed)  # fmt: skip
    return count


def _check_no_uploads(session: Session, track: Track, language: str) -> None:
    uploaded = session.scalar(
        select(Submission.id)
        .join(System)
        .where(
            System.track_id == track.id,
            Submission.language == language,
        )
        .limit(1)
    )
    if uploaded is not None:
        raise DomainError(
            f"track {track.slug!r} ({language}) has submissions already: declare the public "
            "part before the first upload (their scores were computed without it)"
        )
