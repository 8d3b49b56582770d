"""Challenges and tracks: creating, finding, checking their names and settings."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.disclosure import Figure, Sealed
from app.data.models import Challenge, TestSet, Track
from app.data.testsets import load_references, load_subsets
from app.web.errors import DomainError
from app.web.services import add_unique
from app.web.services.names import check_text
from scorer.errors import InputError

MULTILINGUAL = "mul"
"""Track.language of a track with one test set per language (ISO 639-2 "multiple languages")."""


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
        raise DomainError(
            f"no track {track_slug!r} in challenge {challenge_slug!r}{_tracks_of(session, challenge_slug)}"
        )
    return track


def _tracks_of(session: Session, challenge_slug: str) -> str:
    """``; its tracks: a, b`` for a challenge that exists, so a mistyped track (in a URL, in
    ``nlgboard-submit --track`` or ``nlg-score --track C/T``) is answered with the right ones;
    empty for no such challenge. Track names are public: the challenge's page lists them."""
    challenge = session.scalar(select(Challenge).where(Challenge.slug == challenge_slug))
    if challenge is None:
        return ""
    return f"; its tracks: {', '.join(track.slug for track in challenge.tracks) or 'none yet'}"


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


def existing_track(session: Session, challenge: Challenge, slug: str) -> Track | None:
    return session.scalar(
        select(Track).where(Track.challenge_id == challenge.id, Track.slug == slug)
    )


def new_track(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    *,
    language: str,
    title: str,
    deadline: datetime | None = None,
    daily_limit: int | None = None,
    definition: dict | None = None,
) -> Track:
    """A track of ``kind``; ``definition``: the kind's, when an organiser defined it (kept with
    the track, which hands out its profile)."""
    track = Track(
        challenge=challenge,
        slug=check_slug(slug, "track"),
        title=title,
        kind=kind,
        language=language,
        deadline=deadline,
        daily_limit=daily_limit,
        kind_definition=definition,
    )
    session.add(track)
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
    test_set.split_report = Sealed(report, Figure.QUOTING)
    session.flush()
    return report
