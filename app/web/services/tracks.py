"""Creating challenges and importing tracks with their hidden references."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import (
    DEFAULT_DAILY_LIMIT,
    Challenge,
    Item,
    ItemSubset,
    Reference,
    TestSet,
    Track,
)
from app.data.testsets import load_references, load_subsets, stamp_content
from app.web.services import DomainError, add_unique
from app.web.services.names import check_text
from scorer.errors import InputError
from scorer.io import conllu, e2e, sr18
from scorer.kinds import TRACK_KINDS, build_profile, get_profile

MULTILINGUAL = "mul"
"""Track.language of a track with one test set per language (ISO 639-2 "multiple languages")."""

SR18_TITLES = {"sr-shallow": "Shallow track", "sr-deep": "Deep track"}


def language_code(language: str) -> str:
    """A test set's language as an ISO 639 code (``en``), or a clear refusal."""
    code = language.strip().lower()
    if not code.isalpha() or not 2 <= len(code) <= 3:
        raise DomainError(f"language must be an ISO 639 code such as 'en', got {language!r}")
    return code


SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
"""Challenge and track slugs: they go into URLs, file names and exports."""


def check_slug(slug: str, what: str) -> str:
    """``fullmatch``, not ``$``: a slug with a trailing newline looks like another one."""
    if len(slug) > 64 or not SLUG.fullmatch(slug):
        raise DomainError(
            f"{what} slug {slug!r}: use lower-case letters, digits and hyphens (at most 64), "
            "starting with a letter or digit"
        )
    return slug


DEADLINE_YEARS = (1970, 9998)
"""Deadlines a track may have: reminders and "late" marks compute a day around them, which
year 1 or 9999 overflows (and no shared task runs then)."""


def check_deadline(moment: datetime | None) -> datetime | None:
    """The deadline, or a DomainError saying it is out of range and what is allowed."""
    if moment is not None and not DEADLINE_YEARS[0] <= moment.year <= DEADLINE_YEARS[1]:
        raise DomainError(
            f"the deadline {moment:%Y-%m-%dT%H:%M} is out of range: give one between "
            f"{DEADLINE_YEARS[0]} and {DEADLINE_YEARS[1]} (UTC)"
        )
    return moment


def create_challenge(session: Session, slug: str, title: str, description: str = "") -> Challenge:
    check_slug(slug, "challenge")
    check_text(title, "challenge title")
    challenge = Challenge(slug=slug, title=title, description=description)
    add_unique(session, challenge, duplicate=f"a challenge with the slug {slug!r} already exists")
    return challenge


def get_challenge(session: Session, slug: str) -> Challenge:
    challenge = session.scalar(select(Challenge).where(Challenge.slug == slug))
    if challenge is None:
        raise DomainError(f"no challenge {slug!r}")
    return challenge


def get_track(session: Session, challenge_slug: str, track_slug: str) -> Track:
    track = session.scalar(
        select(Track)
        .join(Challenge)
        .where(Challenge.slug == challenge_slug, Track.slug == track_slug)
    )
    if track is None:
        raise DomainError(f"no track {track_slug!r} in challenge {challenge_slug!r}")
    return track


def submittable_tracks(session: Session) -> list[Track]:
    """Every track with a test set, by challenge and track slug: where a team can upload
    (late uploads are accepted and starred, so a passed deadline does not close a track)."""
    return list(
        session.scalars(
            select(Track)
            .join(Challenge)
            .where(select(TestSet.id).where(TestSet.track_id == Track.id).exists())
            .order_by(Challenge.slug, Track.slug)
        )
    )


def import_e2e_track(
    session: Session,
    challenge: Challenge,
    slug: str,
    references_csv: bytes,
    inputs_csv: bytes | None = None,
    *,
    title: str | None = None,
    language: str = "en",
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
    references_name: str = "references.csv",
    inputs_name: str = "inputs.csv",
) -> Track:
    """Create an E2E track whose test set is the given ``mr,ref`` CSV.

    With an inputs CSV, item order is the inputs' order and every input must have references;
    without, it is the MRs' first-appearance order in the references file.
    """
    items = e2e.read_dataset_csv(references_csv, references_name)
    if inputs_csv is not None:
        items = _order_by_inputs(items, e2e.read_inputs_csv(inputs_csv, inputs_name), inputs_name)
    if session.scalar(select(Track).where(Track.challenge_id == challenge.id, Track.slug == slug)):
        raise DomainError(f"challenge {challenge.slug!r} already has a track {slug!r}")
    track = Track(
        challenge=challenge,
        slug=check_slug(slug, "track"),
        title=title or slug,
        kind="e2e",
        language=language,
        profile=TRACK_KINDS["e2e"],
        deadline=deadline,
        daily_limit=daily_limit,
    )
    profile = get_profile(TRACK_KINDS["e2e"])
    test_set = TestSet(
        track=track,
        language=language,
        source_sha256=hashlib.sha256(references_csv).hexdigest(),
        items=[
            Item(
                position=position,
                input_text=item.input,
                attributes=profile.item_attributes(item.input, item.references, {}),
                references=[
                    Reference(position=k, text=text) for k, text in enumerate(item.references)
                ],
            )
            for position, item in enumerate(items)
        ],
    )
    session.add_all([track, test_set])
    stamp_content(session, test_set)
    return track


def import_profile_read_test_set(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    language: str,
    references: tuple[bytes, str],
    inputs: tuple[bytes, str] | None = None,
    *,
    title: str | None = None,
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
    definition: dict | None = None,
) -> TestSet:
    """A track whose references file says everything (WebNLG: each entry's triples, ``<lex>``
    texts and attributes), read by the kind's profile as ``nlg-score`` reads it. The inputs file
    teams get, when given, must list the same inputs in the same order. The profile's subset
    attributes tag each item (``seen`` -> "seen" / "unseen"), and each subset is scored. With
    ``definition`` the kind is one an organiser defined from registry parts (``scorer.kinds``),
    kept with the track."""
    profile = build_profile(definition) if definition else get_profile(TRACK_KINDS[kind])
    items = profile.read_references(*references)
    if inputs is not None and profile.read_inputs is not None:
        given = profile.read_inputs(*inputs)
        if not any(item.input for item in items):  # parallel reference files hold none
            _same_count(given, items, inputs[1], references[1])
            items = _with_inputs(items, given)
        _check_same_inputs(given, items, inputs[1], references[1])
    if session.scalar(select(Track).where(Track.challenge_id == challenge.id, Track.slug == slug)):
        raise DomainError(f"challenge {challenge.slug!r} already has a track {slug!r}")
    language = language_code(language)
    track = Track(
        challenge=challenge,
        slug=check_slug(slug, "track"),
        title=title or slug,
        kind=definition["name"] if definition else kind,
        language=language,
        profile=profile.name,
        deadline=deadline,
        daily_limit=daily_limit,
        kind_definition=definition,
    )
    digest = hashlib.sha256(references[0] + b"\x00" + (inputs[0] if inputs else b""))
    test_set = TestSet(
        track=track,
        language=language,
        source_sha256=digest.hexdigest(),
        items=[
            Item(
                position=position,
                input_text=item.input,
                attributes=profile.item_attributes(
                    item.input, item.references, getattr(item, "attributes", {})
                ),
                references=[Reference(position=k, text=t) for k, t in enumerate(item.references)],
                subsets=[
                    ItemSubset(name=name)
                    for name in profile.subset_names(
                        profile.item_attributes(
                            item.input, item.references, getattr(item, "attributes", {})
                        )
                    )
                ],
            )
            for position, item in enumerate(items)
        ],
    )
    session.add_all([track, test_set])
    stamp_content(session, test_set)
    return test_set


def _with_inputs(items: list[e2e.ReferenceItem], inputs: list[str]) -> list[e2e.ReferenceItem]:
    """Items whose references file holds no inputs take them from the inputs file, line by
    line (as many as there are items: ``_same_count`` first)."""
    return [
        dataclasses.replace(item, input=given) for item, given in zip(items, inputs, strict=True)
    ]


def _same_count(
    inputs: list[str], items: list[e2e.ReferenceItem], inputs_name: str, references_name: str
) -> None:
    if len(inputs) != len(items):
        raise InputError(
            f"has {len(inputs)} inputs but {references_name} has {len(items)} items; they must "
            "be the same test set",
            filename=inputs_name,
        )


def _check_same_inputs(
    inputs: list[str], items: list[e2e.ReferenceItem], inputs_name: str, references_name: str
) -> None:
    _same_count(inputs, items, inputs_name, references_name)
    for position, (given, item) in enumerate(zip(inputs, items, strict=True), 1):
        if given != item.input:
            raise InputError(
                f"input {position} is not item {position} of {references_name} (same order, "
                f"same triples): {given[:80]!r} vs {item.input[:80]!r}",
                filename=inputs_name,
            )


def _order_by_inputs(
    items: list[e2e.ReferenceItem], inputs: list[str], inputs_name: str
) -> list[e2e.ReferenceItem]:
    by_mr = {item.input: item for item in items}
    missing = [index for index, mr in enumerate(inputs) if mr not in by_mr]
    if missing:
        first = missing[0]
        raise InputError(
            f"{len(missing)} input MR(s) have no references, first {inputs[first][:80]!r}",
            filename=inputs_name,
            line=first + 2,
        )
    return [by_mr[mr] for mr in inputs]


def import_sr18_test_set(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    language: str,
    inputs_conllu: bytes,
    references: bytes,
    *,
    title: str | None = None,
    deadline: datetime | None = None,
    daily_limit: int | None = DEFAULT_DAILY_LIMIT,
    inputs_name: str = "inputs.conllu",
    references_name: str = "references.txt",
) -> TestSet:
    """Add one language's test set to an SR'18 track, creating the track on first import.

    Tree i of the CoNLL-U file is item i; its reference is the i-th sentence of the references.
    """
    if kind not in SR18_TITLES:
        raise DomainError(f"kind {kind!r} is not an SR'18 kind ({', '.join(SR18_TITLES)})")
    language = language_code(language)
    trees = conllu.read_trees(inputs_conllu, inputs_name)
    sentences = sr18.read_sentences(references, references_name)
    if len(trees) != len(sentences):
        raise InputError(
            f"has {len(sentences)} reference sentences but {inputs_name} has {len(trees)} trees; "
            "they must align one to one",
            filename=references_name,
        )
    empty = [index for index, sentence in enumerate(sentences) if not sentence]
    if empty:
        raise InputError(f"reference sentence {empty[0] + 1} is empty", filename=references_name)
    track = multilingual_track(
        session, challenge, slug, kind, title or SR18_TITLES[kind], deadline, daily_limit
    )
    if track.test_set_for(language) is not None:
        raise DomainError(f"track {slug!r} already has a {language} test set")
    profile = track.scoring_profile
    test_set = TestSet(
        track=track,
        language=language,
        source_sha256=hashlib.sha256(inputs_conllu + b"\x00" + references).hexdigest(),
        items=[
            Item(
                position=k,
                input_text=tree.text,
                attributes=profile.item_attributes(tree.text, [ref], {}),
                references=[Reference(position=0, text=ref)],
            )
            for k, (tree, ref) in enumerate(zip(trees, sentences, strict=True))
        ],
    )
    session.add(test_set)
    stamp_content(session, test_set)
    return test_set


def multilingual_track(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    title: str,
    deadline: datetime | None,
    daily_limit: int | None,
) -> Track:
    """The track ``slug`` of kind ``kind`` (one test set per language), created if new."""
    track = session.scalar(
        select(Track).where(Track.challenge_id == challenge.id, Track.slug == slug)
    )
    if track is None:
        track = Track(
            challenge=challenge,
            slug=check_slug(slug, "track"),
            title=title,
            kind=kind,
            language=MULTILINGUAL,
            profile=TRACK_KINDS[kind],
            deadline=deadline,
            daily_limit=daily_limit,
        )
        session.add(track)
    elif track.kind != kind:
        raise DomainError(f"track {slug!r} is a {track.kind} track, not {kind}")
    return track


def store_split_report(
    session: Session, track: Track, language: str, data: bytes, filename: str
) -> dict:
    """Compare the test set's references with a training file and keep the report on the test
    set (organisers see it on the track page)."""
    test_set = track.test_set_for(language_code(language))
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    read = track.scoring_profile.training_texts
    if read is None:
        raise DomainError(f"track {track.slug!r}: its kind reads no training files")
    trains = [text for text in read(data, filename) if text.strip()]
    if not trains:
        raise InputError("has no training texts", filename=filename)
    item_ids, references = load_references(session, test_set.id)
    headline = load_subsets(session, test_set.id, item_ids)[""]
    tests = [ref for k in headline for ref in references[k]]
    from scorer.describe.split_overlap import overlap_report  # scipy: loaded by this command only

    report = overlap_report(tests, trains)
    report["train_file"] = filename
    report["train_sha256"] = hashlib.sha256(data).hexdigest()
    test_set.split_report = report
    session.flush()
    return report
