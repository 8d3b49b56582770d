"""Importing a test set of any kind: the one service the CLI (``nlgboard track import``), the
organisers' form and bundles call. The kind says everything: its reader turns the published
files into items (``releases``), its ``import:`` rule (``import_rules``) which files it needs,
whether a track holds one test set per language and whether test sets grow by named subsets;
a training file sets the reader's options where the reader takes one (``Reader.seen_in``)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.data.models import DEFAULT_DAILY_LIMIT, Challenge, TestSet, Track, User
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.audit import record
from app.web.services.import_rules import ImportRule, rule_for
from app.web.services.test_set_items import (
    append_items,
    check_subset_name,
    make_room,
    removed_note,
)
from app.web.services.tracks import (
    MULTILINGUAL,
    existing_track,
    language_code,
    new_track,
)
from scorer.errors import KindError
from scorer.kinds import (
    TRACK_KINDS,
    Profile,
    build_profile,
    get_profile,
    kind_definition,
    variant_with,
)
from scorer.kinds.parts import READERS
from scorer.kinds.releases import File, Release
from scorer.references import ReferenceSet


def import_items(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    *,
    language: str | None = None,
    inputs: File | None = None,
    references: File | None = None,
    subset: str | None = None,
    title: str | None = None,
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
    train: File | None = None,
    definition: Mapping[str, Any] | None = None,
    notices: list[str] | None = None,
) -> tuple[TestSet, str]:
    """Create the track ``slug`` of ``kind`` (a built-in track kind, or the kind an organiser
    defined as ``definition``) or extend it: a language's test set, or a named subset of items,
    read from (data, filename) pairs. ``train``, a training file (or folder, zipped), sets the
    options of a reader that takes one (WebNLG: its categories are the seen ones). Returns the
    test set and a one-line report, which warns (as ``nlg-score`` does) when no item has as
    many references as the kind declares and notes the kind's subsets left out for want of
    their attribute file (a set without WebNLG+ 2020's instance types); both also go to
    ``notices`` if given."""
    rule = _rule(kind, definition)
    subset = _subset(kind, rule, subset)
    _check_given(kind, rule, language=language, inputs=inputs, references=references)
    base = definition or kind_definition(kind)
    trained, seen = _trained(kind, definition, train) if train else (None, "")
    chosen = trained or (dict(definition) if definition else None)
    profile = build_profile(chosen) if chosen else get_profile(TRACK_KINDS[kind])
    language = language_code(language or rule.language or "")
    release = READERS[_reader_name(base)].read_release(profile, inputs, references)
    track = _track(
        session, challenge, slug, str(chosen["name"]) if chosen else kind, rule, language,
        title, deadline, daily_limit, chosen,
    )  # fmt: skip
    test_set, removed = _test_set(session, track, language, rule, release)
    append_items(session, test_set, release.items, subset)
    added = seen + (f"{len(release.items)} {subset} items added; " if subset else "")
    added += f"{removed_note(removed)}; " if removed else ""
    shortfall = reference_shortfall(profile, release)
    left_out = profile.left_out_note(release.left_out) if release.left_out else None
    if notices is not None:
        notices.extend(
            f"track {slug} ({language}): {said}" for said in (shortfall, left_out) if said
        )
    return test_set, added + _counted(test_set) + _said(("warning", shortfall), ("note", left_out))


def _said(*told: tuple[str, str | None]) -> str:
    """The report's tail: each thing to tell the organiser, as ``; warning: ...``."""
    return "".join(f"; {label}: {text}" for label, text in told if text)


def reference_shortfall(profile: Profile, release: Release) -> str | None:
    """``Profile.reference_shortfall`` of a release: its scores would not be the official
    ones (a bundle listing 2 of its kind's 3 reference files). A warning, not a refusal: a
    test set may really have so few references."""
    held = [item.references for item in release.items if item.references]
    return profile.reference_shortfall(ReferenceSet(held)) if held else None


def import_track(
    session: Session,
    actor: User | None,
    challenge: Challenge,
    slug: str,
    kind: str,
    **options: Any,
) -> tuple[TestSet, str]:
    """``import_items`` as one action of ``actor`` (None: the server's command line),
    recorded in the audit log with the files' names, committed whole or not at all."""
    with action(session):
        test_set, report = import_items(session, challenge, slug, kind, **options)
        files = [pair[1] for pair in (options.get(k) for k in ("inputs", "references", "train"))
                 if pair]  # fmt: skip
        record(session, actor, "test set import", f"{slug} ({test_set.language})",
               challenge.id, report=report, files=files)  # fmt: skip
    return test_set, report


def _counted(test_set: TestSet) -> str:
    """The report's line: what the test set holds now."""
    n_refs = sum(len(item.references) for item in test_set.items)
    track = test_set.track
    return (
        f"track {track.challenge.slug}/{track.slug} ({test_set.language}): "
        f"{len(test_set.items)} items, {n_refs} references"
    )


def _rule(kind: str, definition: Mapping[str, Any] | None) -> ImportRule:
    if definition is None and kind not in TRACK_KINDS:
        raise DomainError(f"kind must be one of {', '.join(sorted(TRACK_KINDS))}, got {kind!r}")
    try:
        return rule_for(kind, definition)
    except KindError as error:
        raise DomainError(str(error)) from None


def _subset(kind: str, rule: ImportRule, subset: str | None) -> str | None:
    """The subset the items are tagged with: the one given, else the kind's first; none for a
    kind whose test sets are imported whole."""
    if not rule.grows_by:
        if subset:
            raise DomainError(
                f"kind {kind} takes no subsets: its test sets are imported whole (a kind's "
                "import.grows_by names the subsets its test sets grow by)"
            )
        return None
    return check_subset_name(subset or rule.grows_by[0])


def _check_given(kind: str, rule: ImportRule, **given: object) -> None:
    """Every file and setting the kind needs, or a refusal naming them."""
    missing = rule.missing({**given, "language": given["language"] or rule.language})
    if missing:
        listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1])
        listed += f" and {missing[-1]}" if len(missing) > 1 else ""
        raise DomainError(f"kind {kind} needs {listed}")
    if not (given["language"] or rule.language):
        raise DomainError(f"kind {kind} needs a language")


def _trained(
    kind: str, definition: Mapping[str, Any] | None, train: File
) -> tuple[dict[str, Any], str]:
    """The kind's definition with the reader options a training file sets, and what they are
    for the report; refused for a reader that takes no training file."""
    base = definition or kind_definition(kind)
    options = _reader_options(base)
    reader = options.pop("name")
    seen_in = READERS[reader].seen_in
    if seen_in is None:
        raise DomainError(f"kind {kind} takes no training file: its reader, {reader}, reads none")
    given = seen_in(*train)
    if definition is None:
        trained = variant_with(kind, given)
        trained.pop("import", None)  # the board's import rule is the built-in kind's
    else:
        trained = {**definition, "reader": {"name": reader, **options, **given}}
    said = [
        f"{len(value) if isinstance(value, list) else value} {key.replace('_', ' ')}"
        for key, value in given.items()
    ]
    return trained, f"{', '.join(said)} from {train[1]}; "


def _reader_options(definition: Mapping[str, Any]) -> dict[str, Any]:
    reader = definition["reader"]
    return dict(reader) if isinstance(reader, Mapping) else {"name": reader}


def _reader_name(definition: Mapping[str, Any]) -> str:
    return str(_reader_options(definition)["name"])


def _track(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    rule: ImportRule,
    language: str,
    title: str | None,
    deadline: datetime | None,
    daily_limit: int | None,
    definition: dict[str, Any] | None,
) -> Track:
    """The track the test set goes to: created if new; an existing one of the same kind takes
    a language's test set (a kind with one per language) or a subset of items (a kind whose
    test sets grow by subsets); any other import refuses it."""
    track = existing_track(session, challenge, slug)
    if track is None:
        return new_track(
            session, challenge, slug, kind,
            language=MULTILINGUAL if rule.per_language else language,
            title=title or rule.titles.get(kind) or slug, deadline=deadline,
            daily_limit=daily_limit, definition=definition,
        )  # fmt: skip
    if not rule.per_language and not (rule.grows_by and track.language == language):
        raise DomainError(f"challenge {challenge.slug!r} already has a track {slug!r}")
    if track.kind != kind:
        raise DomainError(f"track {slug!r} is a {track.kind} track, not {kind}")
    return track


def _test_set(
    session: Session, track: Track, language: str, rule: ImportRule, release: Release
) -> tuple[TestSet, list[str]]:
    """The language's test set, new, or extended where the kind's test sets grow by subsets
    (the bundled runs decoded from it removed first: returned)."""
    test_set = track.test_set_for(language)
    if test_set is None:
        test_set = TestSet(
            track=track, language=language, source_sha256=hashlib.sha256(release.source).hexdigest()
        )
        session.add(test_set)
        session.flush()
        return test_set, []
    if not rule.grows_by:
        raise DomainError(f"track {track.slug!r} already has a {language} test set")
    return test_set, make_room(session, test_set)
