"""Adding items to a test set: a whole release, or a named subset appended after the items
already there (DRS's long and compositional sets, challenge sets linked to their originals),
only before anyone has submitted to it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.data.models import DESCRIBED, Item, ItemSubset, Reference, Submission, System, TestSet
from app.data.testsets import PUBLIC_PART, stamp_content
from app.web.errors import DomainError
from app.web.services.bundled import remove_bundled_runs
from app.web.services.public_part import public_part_problem
from scorer.kinds.releases import ReleaseItem

SUBSET_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}$")


def check_subset_name(name: str) -> str:
    if not SUBSET_NAME.match(name) or name == DESCRIBED:
        raise DomainError(
            f"subset name {name!r}: use lower-case letters, digits and '-' (e.g. tense, long)"
        )
    return name


def append_items(
    session: Session,
    test_set: TestSet,
    items: Sequence[ReleaseItem],
    subset: str | None = None,
    originals: Sequence[int | None] | None = None,
) -> None:
    """Add items after the test set's last one. Tagged ``subset`` (each subset is added once,
    and is the items' ``subset`` attribute), else with the subsets the kind reads from their
    attributes, given and computed (WebNLG's seen / unseen, 2020's instance types);
    ``originals``: the test item each one was made from."""
    if subset is not None:
        _check_new_subset(session, test_set, subset)
    last = session.scalar(select(func.max(Item.position)).where(Item.test_set_id == test_set.id))
    start = 0 if last is None else last + 1
    profile = test_set.track.scoring_profile
    links = originals or [None] * len(items)
    for k, (item, original) in enumerate(zip(items, links, strict=True)):
        given = {**item.attributes, "subset": subset} if subset else dict(item.attributes)
        attributes = profile.item_attributes(item.input, list(item.references), given)
        names = [subset] if subset else profile.subset_names(attributes)
        session.add(
            Item(
                test_set=test_set,
                position=start + k,
                input_text=item.input,
                attributes=attributes,
                original_id=original,
                references=[Reference(position=n, text=t) for n, t in enumerate(item.references)],
                subsets=[ItemSubset(name=name) for name in names],
            )
        )
    stamp_content(session, test_set)
    session.flush()
    _check_public_part(session, test_set)


def _check_public_part(session: Session, test_set: TestSet) -> None:
    """Items tagged ``public`` (a subset given so, or a kind's subset attribute valued so)
    are the test set's public part, opened in the test phase: within its bounds or refused."""
    public = session.scalar(
        select(func.count(ItemSubset.id))
        .join(Item)
        .where(Item.test_set_id == test_set.id, ItemSubset.name == PUBLIC_PART)
    )
    total = session.scalar(select(func.count(Item.id)).where(Item.test_set_id == test_set.id))
    if public and (problem := public_part_problem(public, total or 0)):
        raise DomainError(
            f"the {test_set.language} test set of {test_set.track.slug!r}: subset "
            f"{PUBLIC_PART!r} (its public part) would be {problem}"
        )


def _check_new_subset(session: Session, test_set: TestSet, subset: str) -> None:
    if session.scalar(
        select(ItemSubset.id)
        .join(Item)
        .where(Item.test_set_id == test_set.id, ItemSubset.name == subset)
        .limit(1)
    ):
        raise DomainError(
            f"the {test_set.language} test set of {test_set.track.slug!r} already has a "
            f"{subset!r} set"
        )


def removed_note(systems: list[str]) -> str:
    return (
        f"bundled baseline run(s) removed, decoded from the items before this import: "
        f"{', '.join(systems)}"
    )


def make_room(session: Session, test_set: TestSet) -> list[str]:
    """Items are only added before anyone submits: a submission has one line per item. Copies
    of bundled runs are not anyone's submission: they go (``remove_bundled_runs``); their
    systems are returned."""
    removed = remove_bundled_runs(session, test_set)
    _check_no_submissions(session, test_set)
    return removed


def _check_no_submissions(session: Session, test_set: TestSet) -> None:
    count = session.scalar(
        select(func.count(Submission.id))
        .join(System)
        .where(System.track_id == test_set.track_id, Submission.language == test_set.language)
    )
    if count:
        raise DomainError(
            f"the {test_set.language} test set already has {count} submission(s); items cannot "
            "be added to it now (create a new track for the extended test set)"
        )
