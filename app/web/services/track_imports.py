"""Importing a track's test set of any kind: the one entry point of the CLI, the organisers'
form and bundles, above the per-kind importers (E2E, SR'18 and the kinds read by their
profile alone, WebNLG, in ``tracks``; DRS in ``drs``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from app.data.models import DEFAULT_DAILY_LIMIT, Challenge, TestSet, User
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.audit import record
from app.web.services.drs import STANDARD, import_drs_test_set, removed_note
from app.web.services.tracks import (
    TRACK_KINDS,
    import_e2e_track,
    import_profile_read_test_set,
    import_sr18_test_set,
)
from scorer.errors import KindError
from scorer.kinds import trained_variant


class TrackOptions(NamedTuple):
    """What the organiser may set on a track when importing its test set."""

    title: str | None
    deadline: datetime | None
    daily_limit: int | None

    def as_kwargs(self) -> dict[str, Any]:
        return self._asdict()


class ImportRequest(NamedTuple):
    """One import, as the CLI, the organisers' form and a bundle give it."""

    challenge: Challenge
    slug: str
    kind: str
    language: str | None
    inputs: tuple[bytes, str] | None
    references: tuple[bytes, str] | None
    subset: str | None
    options: TrackOptions
    train: tuple[bytes, str] | None = None


Importer = Callable[[Session, ImportRequest], tuple[TestSet, str]]
"""Creates the track if new and adds one test set (or a subset of items); returns the test set
and what it added beyond the items (a note, possibly empty)."""


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
    train: tuple[bytes, str] | None = None,
) -> tuple[TestSet, str]:
    """One entry point for the CLI, the organisers' form and bundles: create a track (or add a
    language's test set, or items of a subset) from (data, filename) pairs with the kind's
    importer (``IMPORTERS``); return the test set and a one-line report. ``train``, a training
    file, says which items are seen (WebNLG: its categories), where the kind's reader can."""
    importer = IMPORTERS.get(kind)
    if importer is None or kind not in TRACK_KINDS:
        raise DomainError(f"kind must be one of {', '.join(sorted(IMPORTERS))}, got {kind!r}")
    if subset and kind not in SUBSET_KINDS:
        raise DomainError(f"subsets are for {', '.join(sorted(SUBSET_KINDS))} tracks")
    if train is not None and importer is not _profile_read:
        raise DomainError(f"kind {kind} takes no training file (--train is for webnlg)")
    request = ImportRequest(
        challenge, slug, kind, language, inputs, references, subset,
        TrackOptions(title, deadline, daily_limit), train,
    )  # fmt: skip
    test_set, added = importer(session, request)
    n_refs = sum(len(item.references) for item in test_set.items)
    report = (
        f"{added}track {challenge.slug}/{slug} ({test_set.language}): "
        f"{len(test_set.items)} items, {n_refs} references"
    )
    return test_set, report


def import_track(
    session: Session,
    actor: User | None,
    challenge: Challenge,
    slug: str,
    kind: str,
    **options: Any,
) -> tuple[TestSet, str]:
    """``import_test_set`` as one action of ``actor`` (None: the server's command line),
    recorded in the audit log with the files' names, committed whole or not at all."""
    with action(session):
        test_set, report = import_test_set(session, challenge, slug, kind, **options)
        files = [pair[1] for pair in (options.get(k) for k in ("inputs", "references", "train"))
                 if pair]  # fmt: skip
        record(session, actor, "test set import", f"{slug} ({test_set.language})",
               challenge.id, report=report, files=files)  # fmt: skip
    return test_set, report


def _drs(session: Session, request: ImportRequest) -> tuple[TestSet, str]:
    language, inputs, references = request.language, request.inputs, request.references
    if not language or not inputs:
        raise DomainError("kind drs needs a language and the inputs (clause format or SBN)")
    subset = request.subset or STANDARD
    test_set, count, removed = import_drs_test_set(
        session,
        request.challenge,
        request.slug,
        language,
        inputs[0],
        references[0] if references else None,
        subset=subset,
        inputs_name=inputs[1],
        sentences_name=references[1] if references else inputs[1],
        **request.options.as_kwargs(),
    )
    added = f"{count} {subset} items added; "
    if removed:
        added += removed_note(removed) + "; "
    return test_set, added


def _sr18(session: Session, request: ImportRequest) -> tuple[TestSet, str]:
    language, inputs, references = request.language, request.inputs, request.references
    if not language or not inputs or not references:
        raise DomainError(
            f"kind {request.kind} needs a language, the CoNLL-U inputs and the references"
        )
    test_set = import_sr18_test_set(
        session,
        request.challenge,
        request.slug,
        request.kind,
        language,
        inputs[0],
        references[0],
        inputs_name=inputs[1],
        references_name=references[1],
        **request.options.as_kwargs(),
    )
    return test_set, ""


def _e2e(session: Session, request: ImportRequest) -> tuple[TestSet, str]:
    inputs, references = request.inputs, request.references
    if not references:
        raise DomainError("kind e2e needs the references (the mr,ref CSV)")
    track = import_e2e_track(
        session,
        request.challenge,
        request.slug,
        references[0],
        inputs[0] if inputs else None,
        language=request.language or "en",
        references_name=references[1],
        inputs_name=inputs[1] if inputs else "inputs.csv",
        **request.options.as_kwargs(),
    )
    return track.test_sets[0], ""


def _profile_read(session: Session, request: ImportRequest) -> tuple[TestSet, str]:
    if not request.references:
        raise DomainError(f"kind {request.kind} needs the references")
    definition, seen = None, ""
    if request.train is not None:
        try:
            definition = trained_variant(request.kind, *request.train)
        except KindError as error:
            raise DomainError(str(error)) from None
        count = len(definition["reader"]["seen_categories"])
        seen = f"{count} seen categories from {request.train[1]}; "
    test_set = import_profile_read_test_set(
        session,
        request.challenge,
        request.slug,
        request.kind,
        request.language or "en",
        request.references,
        request.inputs,
        definition=definition,
        **request.options.as_kwargs(),
    )
    return test_set, seen


IMPORTERS: dict[str, Importer] = {
    "e2e": _e2e,
    "sr-shallow": _sr18,
    "sr-deep": _sr18,
    "drs": _drs,
    "webnlg": _profile_read,
}
"""Track kind -> its importer (CTFd's ``CHALLENGE_CLASSES`` shape): a new kind registers here."""

SUBSET_KINDS = frozenset({"drs"})
"""Kinds whose test sets grow by named subsets of items (PMB 5's long and compositional sets)."""
