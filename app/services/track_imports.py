"""Importing a track's test set of any kind: the one entry point of the CLI and the organisers'
form, above the per-kind importers (E2E and SR'18 in ``tracks``, DRS in ``drs``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from app.models import DEFAULT_DAILY_LIMIT, Challenge, TestSet
from app.services import DomainError
from app.services.drs import STANDARD, import_drs_test_set, removed_note
from app.services.tracks import (
    SR18_TITLES,
    TRACK_KINDS,
    import_e2e_track,
    import_sr18_test_set,
)


class TrackOptions(NamedTuple):
    """What the organiser may set on a track when importing its test set."""

    title: str | None
    deadline: datetime | None
    daily_limit: int | None

    def as_kwargs(self) -> dict[str, Any]:
        return self._asdict()


def import_test_set(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    *,
    language: str | None,
    inputs: tuple[bytes, str] | None,
    references: tuple[bytes, str] | None,
    subset: str | None = None,
    title: str | None = None,
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
) -> tuple[TestSet, str]:
    """One entry point for the CLI and the organisers' form: create a track (or add a
    language's test set, or DRS items of a subset) from (data, filename) pairs; return the test
    set and a one-line report."""
    if kind not in TRACK_KINDS:
        raise DomainError(f"kind must be one of {', '.join(sorted(TRACK_KINDS))}, got {kind!r}")
    if subset and kind != "drs":
        raise DomainError("subsets are for DRS tracks")
    options = TrackOptions(title, deadline, daily_limit)
    added = ""
    if kind == "drs":
        if not language or not inputs:
            raise DomainError("kind drs needs a language and the inputs (clause format or SBN)")
        test_set, count, removed = import_drs_test_set(
            session,
            challenge,
            slug,
            language,
            inputs[0],
            references[0] if references else None,
            subset=subset or STANDARD,
            inputs_name=inputs[1],
            sentences_name=references[1] if references else inputs[1],
            **options.as_kwargs(),
        )
        added = f"{count} {subset or STANDARD} items added; "
        if removed:
            added += removed_note(removed) + "; "
    elif kind in SR18_TITLES:
        if not language or not inputs or not references:
            raise DomainError(
                f"kind {kind} needs a language, the CoNLL-U inputs and the references"
            )
        test_set = import_sr18_test_set(
            session,
            challenge,
            slug,
            kind,
            language,
            inputs[0],
            references[0],
            inputs_name=inputs[1],
            references_name=references[1],
            **options.as_kwargs(),
        )
    else:
        if not references:
            raise DomainError("kind e2e needs the references (the mr,ref CSV)")
        track = import_e2e_track(
            session,
            challenge,
            slug,
            references[0],
            inputs[0] if inputs else None,
            language=language or "en",
            references_name=references[1],
            inputs_name=inputs[1] if inputs else "inputs.csv",
            **options.as_kwargs(),
        )
        test_set = track.test_sets[0]
    n_refs = sum(len(item.references) for item in test_set.items)
    report = (
        f"{added}track {challenge.slug}/{slug} ({test_set.language}): "
        f"{len(test_set.items)} items, {n_refs} references"
    )
    return test_set, report
