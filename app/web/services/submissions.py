"""Accepting output files: every check runs before anything is stored or queued.

The per-team limits are counted under a lock on the track row, so parallel uploads cannot all
pass a check that only one of them may pass; the file goes to storage only once every check has
passed (a commit that fails after that leaves an orphan, which the recovery loop's sweeper
removes after an hour).

An upload is one file for one test set, or (multilingual tracks) a zip archive with one file per
language named by its language code (``en_out.txt``, ``es.txt`` ...), any subset of languages.
Every file is validated first; if one is refused, nothing of the upload is stored.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import PurePosixPath

from sqlalchemy import ColumnElement, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.data.models import (
    HUMAN_SYSTEM,
    TEST,
    Submission,
    SubmissionStatus,
    System,
    Team,
    TestSet,
    Track,
    User,
    utcnow,
)
from app.data.queue import SubmissionQueue
from app.data.storage import Storage
from app.web.errors import DomainError
from app.web.services import action
from app.web.services.account_mail import check_may_upload
from app.web.services.approvals import team_approved
from app.web.services.audit import record
from app.web.services.names import check_name
from scorer.errors import InputError
from scorer.io.archive import is_zip, read_zip
from scorer.io.languages import language_from_filename

SYSTEM_NAME_MAX = 100

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OutputFile:
    """One validated output file and the test set it answers."""

    test_set: TestSet
    filename: str
    data: bytes


def submit_output(
    session: Session,
    submission_queue: SubmissionQueue,
    storage: Storage,
    *,
    user: User | None,
    team: Team | None,
    track: Track,
    system_name: str,
    filename: str,
    data: bytes,
    max_bytes: int,
    is_baseline: bool = False,
    language: str | None = None,
    warnings: list[str] | None = None,
) -> list[Submission]:
    """Validate, store, record and enqueue an upload; one submission per language.

    Raises DomainError or InputError; a refused upload leaves no file and no row behind.
    What is odd about an accepted file (an empty output, another language's script: the
    scorer's ``output_warnings``, as ``nlg-score`` and ``nlgboard-submit`` say it) is added
    to ``warnings``, for the answer to show.
    """
    system_name = check_name(system_name, "system name", SYSTEM_NAME_MAX)
    if not is_baseline and team is None:
        raise DomainError("create or join a team before submitting")
    if not is_baseline and user is not None:
        check_may_upload(session, user)
    if not is_baseline:
        check_upload_gates(session, user, team, track)
    files = split_upload(track, filename, data, language, max_bytes)
    profile = track.scoring_profile
    for output in files:
        inputs = [item.input_text for item in output.test_set.items]
        where = f"{output.test_set.language}: " if track.is_multilingual else ""
        try:
            outputs = profile.read_outputs(output.data, inputs, output.filename)
        except InputError as error:
            raise InputError(f"{where}{error}") from None
        if warnings is not None:
            found = profile.output_warnings(output.data, outputs, output.filename)
            warnings.extend(f"{where}{warning}" for warning in found)
    digests = [hashlib.sha256(output.data).hexdigest() for output in files]
    for attempt in range(2):
        try:
            _lock_track(session, track)
            system = _find_or_new_system(session, track, team, system_name, is_baseline)
            session.flush()
            uploads = [
                (output.test_set.language, digest)
                for output, digest in zip(files, digests, strict=True)
            ]
            keys = [dedupe_key(system, language, digest) for language, digest in uploads]
            existing = _recent_duplicates(session, system, uploads)
            if existing:
                session.rollback()
                return existing
            _release_keys(session, keys)
            if team is not None and not is_baseline:
                for output in files:
                    _check_daily_limit(session, track, team, output.test_set.language)
                    if user is not None:
                        _check_personal_limit(session, track, user, output.test_set.language)
            submissions = [
                Submission(
                    system=system,
                    user=user,
                    language=output.test_set.language,
                    filename=output.filename[:255],
                    file_sha256=digest,
                    status=SubmissionStatus.QUEUED,
                    is_late=track.deadline_passed,
                    dedupe_key=key,
                )
                for output, digest, key in zip(files, digests, keys, strict=True)
            ]
            session.add_all(submissions)
            session.flush()
            for output in files:  # every check passed: only now is anything stored
                storage.put(output.data)
            session.commit()
        except DomainError:
            session.rollback()
            raise
        except IntegrityError:
            # A second request with the same upload (or the same new system name) won the
            # race: look again, and find its rows.
            session.rollback()
            if attempt:
                raise
            continue
        for submission in submissions:
            submission_queue.enqueue(submission.id)
            log.info(
                "submission %s: queued (%s, %s/%s, %s, %d bytes)",
                submission.id,
                system_name,
                track.slug,
                submission.language,
                f"team {team.id}" if team is not None else "baseline",
                len(data),
                extra={"submission_id": submission.id, "track_id": track.id},
            )
        return submissions
    raise AssertionError("unreachable")


DEDUPE_SECONDS = 30
"""Uploads of the same file for the same system and language this close together are one
upload clicked twice."""


def dedupe_key(system: System, language: str, digest: str, now: datetime | None = None) -> str:
    window = int((now or utcnow()).timestamp() // DEDUPE_SECONDS)
    return f"{system.id}:{language}:{digest}:{window}"


def _release_keys(session: Session, keys: list[str]) -> None:
    """A failed or withdrawn upload does not stop the same file from being sent again."""
    session.execute(
        update(Submission)
        .where(
            Submission.dedupe_key.in_(keys),
            (Submission.status == SubmissionStatus.FAILED) | Submission.withdrawn_at.is_not(None),
        )
        .values(dedupe_key=None)
        .execution_options(synchronize_session=False)
    )


def _recent_duplicates(
    session: Session, system: System, uploads: list[tuple[str, str]]
) -> list[Submission]:
    """The submissions an identical upload made in the last DEDUPE_SECONDS (all of them, or
    none: a zip answering more languages than before is new)."""
    since = utcnow() - timedelta(seconds=DEDUPE_SECONDS)
    found = []
    for language, digest in uploads:
        match = session.scalar(
            select(Submission)
            .where(
                Submission.system_id == system.id,
                Submission.language == language,
                Submission.file_sha256 == digest,
                Submission.created_at >= since,
                Submission.status != SubmissionStatus.FAILED,
                Submission.withdrawn_at.is_(None),
            )
            .order_by(Submission.id)
            .limit(1)
        )
        if match is None:
            return []
        found.append(match)
    return found


def check_upload_gates(
    session: Session, user: User | None, team: Team | None, track: Track
) -> None:
    """Who may upload to ``track`` at all, asked before the file is read: in the test phase an
    account whose e-mail address is confirmed (``Track.confirmed_only_in_test``, on unless
    the organisers switch it off), and for a challenge that approves its teams
    (``Challenge.teams_need_approval``) a team its organisers approved. Accounts and teams
    cost nothing to make; each test-phase upload is a probe of the hidden references."""
    if (
        user is not None
        and track.phase == TEST
        and track.confirmed_only_in_test
        and not user.email_verified
    ):
        raise DomainError(
            f"track {track.slug!r} is in its test phase, where only accounts with a confirmed "
            f"e-mail address upload: confirm {user.email} by opening the link we mailed to it "
            '(for a new link, press "Send the link again" on your Team page, /team)'
        )
    challenge = track.challenge
    if (
        team is not None
        and challenge.teams_need_approval
        and not team_approved(session, team, challenge)
    ):
        raise DomainError(
            f"the organisers of {challenge.slug!r} approve each team before it uploads, and "
            f"team {team.name!r} is not approved yet: ask them to approve it (on their "
            "challenge's Teams page)"
        )


def split_upload(
    track: Track, filename: str, data: bytes, language: str | None, max_bytes: int
) -> list[OutputFile]:
    """Map an upload to (test set, file) pairs; refuse what cannot be placed."""
    if len(data) > max_bytes:
        raise InputError(f"is larger than the limit of {max_bytes:,} bytes", filename=filename)
    if not data:
        raise InputError("is empty", filename=filename)
    if not track.test_sets:
        raise DomainError(f"track {track.slug!r} has no test set yet")
    if is_zip(data):
        entries = {
            name: content
            for name, content in read_zip(data, filename, max_bytes).items()
            if not name.startswith(".")
        }
        if not entries:
            raise InputError("the zip archive contains no output file", filename=filename)
        if not track.is_multilingual and len(entries) == 1:
            ((name, content),) = entries.items()
            return [OutputFile(track.test_sets[0], name, content)]
        return _by_language(track, filename, entries)
    return [OutputFile(test_set_for_upload(track, language, filename), filename, data)]


def _by_language(track: Track, filename: str, entries: dict[str, bytes]) -> list[OutputFile]:
    files: dict[str, OutputFile] = {}
    for name, content in sorted(entries.items()):
        language = language_from_filename(name, track.languages)
        test_set = track.test_set_for(language) if language else None
        if test_set is None:
            raise InputError(
                f"entry {name!r} is not named by one of this track's languages "
                f"({', '.join(track.languages)}), e.g. 'en_out.txt'",
                filename=filename,
            )
        if test_set.language in files:
            raise InputError(
                f"entries {files[test_set.language].filename!r} and {name!r} are both "
                f"for {test_set.language}",
                filename=filename,
            )
        files[test_set.language] = OutputFile(test_set, _stored_name(name), content)
    return list(files.values())


def _stored_name(name: str) -> str:
    """A zip entry's base name as it is stored and shown: printable, no path, at most 100
    characters (entry names are whatever the archive says)."""
    base = PurePosixPath(name.replace("\\", "/")).name
    safe = "".join(c if c.isprintable() and c not in '<>:"|?*' else "_" for c in base)
    return safe[:100] or "entry"


def test_set_for_upload(track: Track, language: str | None, filename: str) -> TestSet:
    """The test set an output file answers: the language asked for, the track's only one, or
    the one its name says (``nlgboard-submit`` asks the server the same question)."""
    if language:
        test_set = track.test_set_for(language.strip().lower())
        if test_set is None:
            raise DomainError(
                f"track {track.slug!r} has no {language} test set "
                f"(it has: {', '.join(track.languages)})"
            )
        return test_set
    if len(track.test_sets) == 1:
        return track.test_sets[0]
    named = language_from_filename(filename, track.languages)
    if named and (found := track.test_set_for(named)) is not None:
        return found
    raise DomainError(
        f"say which language {filename!r} is for ({', '.join(track.languages)}): choose it, "
        "name the file after it (e.g. en_out.txt), or upload a zip with one file per language"
    )


def _find_or_new_system(
    session: Session, track: Track, team: Team | None, name: str, is_baseline: bool
) -> System:
    """The team's (or, without a team, the baselines') system called ``name``, new if there is
    none. Another team's system of that name is another system: whether a name is in use by
    someone else, anonymised or not yet published, is never answered."""
    owner = System.team_id.is_(None) if team is None else System.team_id == team.id
    system = session.scalar(
        select(System).where(System.track_id == track.id, System.name == name, owner)
    )
    if system is not None:
        if system.is_baseline != is_baseline:
            raise DomainError(f"the system name {name!r} is in use; choose another")
        return system
    if name.casefold() == HUMAN_SYSTEM.casefold():
        raise DomainError(
            f"the system name {name!r} is reserved for the human references; choose another"
        )
    _keep_baselines_apart(session, track, name, is_baseline)
    if team is not None and track.max_systems is not None:
        entered = _count_systems(session, track, team)
        if entered >= track.max_systems:
            raise DomainError(
                f"your team already has {entered} systems in this track, the limit is "
                f"{track.max_systems}; submit under one of their names instead"
            )
    # a team's systems are primary until the track's limit of primaries is reached
    primaries = _count_systems(session, track, team, primary=True) if team is not None else 0
    system = System(
        track=track,
        team=team,
        name=name,
        is_baseline=is_baseline,
        is_primary=is_baseline or primaries < track.max_primary,
    )
    session.add(system)
    return system


def _keep_baselines_apart(session: Session, track: Track, name: str, is_baseline: bool) -> None:
    """A baseline's name is no team's, and the reverse: a name on the board then means one
    system beside the baselines. Baselines are the organisers' systems, named in the open, so
    a team told that a name is a baseline's learns nothing about other teams."""
    others = select(System.id).where(
        System.track_id == track.id,
        System.name == name,
        System.is_baseline.is_(not is_baseline),
    )
    if session.scalar(others.limit(1)) is None:
        return
    if is_baseline:
        raise DomainError(f"a team's system is called {name!r}; name the baseline otherwise")
    raise DomainError(f"{name!r} is the name of a baseline in this track; choose another")


def _lock_track(session: Session, track: Track) -> None:
    """Serialise the uploads and primary choices of one track until the transaction ends, so
    that the per-team limits (systems, primary systems, submissions a day) are counted and
    written as one step: a row lock in PostgreSQL, the write lock in SQLite."""
    session.execute(
        update(Track)
        .where(Track.id == track.id)
        .values(id=Track.id)
        .execution_options(synchronize_session=False)
    )


def _count_systems(session: Session, track: Track, team: Team, primary: bool = False) -> int:
    query = select(func.count(System.id)).where(
        System.track_id == track.id, System.team_id == team.id
    )
    return session.execute(query.where(System.is_primary) if primary else query).scalar_one()


@dataclass(frozen=True)
class Allowance:
    """A team's daily uploads on one test set: the limit, how many count now, and when the
    oldest of them stops counting."""

    limit: int
    used: int
    next_free: datetime | None

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


def daily_allowance(
    session: Session, track: Track, team: Team, language: str, now: datetime | None = None
) -> Allowance | None:
    """Per test set over the last 24 hours; failed uploads do not count, queued, running and
    scored ones do. None when the track has no daily limit."""
    return _allowance(session, track, language, System.team_id == team.id, now)


def personal_allowance(
    session: Session, track: Track, user: User, language: str, now: datetime | None = None
) -> Allowance | None:
    """``daily_allowance`` counted per person: the uploads ``user`` made for any team (one
    they left, or another they belong to), so changing teams buys no extra uploads. Baselines
    (no team) do not count."""
    return _allowance(
        session,
        track,
        language,
        (Submission.user_id == user.id) & System.team_id.is_not(None),
        now,
    )


def upload_allowance(
    session: Session, track: Track, team: Team, user: User, language: str
) -> Allowance | None:
    """What the Submit page shows: the tighter of the team's and the person's allowance."""
    found = [
        allowance
        for allowance in (
            daily_allowance(session, track, team, language),
            personal_allowance(session, track, user, language),
        )
        if allowance is not None
    ]
    return min(found, key=lambda a: (a.remaining, -a.used)) if found else None


def _allowance(
    session: Session, track: Track, language: str, whose: ColumnElement[bool], now: datetime | None
) -> Allowance | None:
    if not track.daily_limit:
        return None
    since = (now or utcnow()) - timedelta(days=1)
    counted = session.scalars(
        select(Submission.created_at)
        .join(System)
        .where(
            System.track_id == track.id,
            whose,
            Submission.language == language,
            Submission.created_at >= since,
            Submission.status != SubmissionStatus.FAILED,
        )
        .order_by(Submission.created_at)
    ).all()
    next_free = counted[0] + timedelta(days=1) if counted else None
    return Allowance(track.daily_limit, len(counted), next_free)


def _check_daily_limit(session: Session, track: Track, team: Team, language: str) -> None:
    allowance = daily_allowance(session, track, team, language)
    if allowance is None or allowance.remaining:
        return
    when = allowance.next_free
    raise DomainError(
        f"your team has used its {allowance.limit} submissions for this track"
        + (f" ({language})" if track.is_multilingual else "")
        + " in the last 24 hours; the next one can be uploaded from "
        + (f"{when:%Y-%m-%d %H:%M} UTC ({until(when)})" if when else "tomorrow")
    )


def _check_personal_limit(session: Session, track: Track, user: User, language: str) -> None:
    allowance = personal_allowance(session, track, user, language)
    if allowance is None or allowance.remaining:
        return
    when = allowance.next_free
    next_one = f"{when:%Y-%m-%d %H:%M} UTC ({until(when)})" if when else "tomorrow"
    raise DomainError(
        f"you have made {allowance.used} uploads for this track"
        + (f" ({language})" if track.is_multilingual else "")
        + " in the last 24 hours, counting every team you uploaded for: the limit of "
        f"{allowance.limit} a day is per person as well as per team; your next upload can be "
        f"made from {next_one}"
    )


def until(moment: datetime, now: datetime | None = None) -> str:
    """How long until ``moment``, in words: "in 3 days 4 h", "in 2 h 5 min", "in 40 s";
    "passed" once it is behind us."""
    seconds = int((moment - (now or utcnow())).total_seconds())
    if seconds <= 0:
        return "passed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"in {days} day{'s' if days > 1 else ''} {hours} h"
    if hours:
        return f"in {hours} h {minutes} min"
    return f"in {minutes} min" if minutes else f"in {secs} s"


ARCHITECTURES = ("seq2seq", "other data-driven", "rule-based", "template-based")
"""E2E paper Table 6's architecture groups, shown as tags on the leaderboard."""


def set_primary(session: Session, system: System, primary: bool) -> None:
    """E2E rule: a team names one or two (``Track.max_primary``) primary systems per track."""
    _lock_track(session, system.track)
    if primary and not system.is_primary and system.team is not None:
        named = _count_systems(session, system.track, system.team, primary=True)
        if named >= system.track.max_primary:
            raise DomainError(
                f"your team already has {named} primary systems in {system.track.slug}, the "
                f"limit; make one of them secondary first"
            )
    system.is_primary = primary
    session.commit()


def set_anonymous(session: Session, actor: User, system: System, anonymous: bool) -> None:
    """The team's choice after seeing its scores: "anonymous" everywhere the public looks."""
    with action(session):
        done = "anonymise" if anonymous else "show name"
        record(
            session, actor, done, f"{system.track.slug}/{system.name}", system.track.challenge_id
        )
        system.is_anonymous = anonymous


def set_architecture(session: Session, system: System, architecture: str) -> None:
    if architecture and architecture not in ARCHITECTURES:
        raise DomainError(f"architecture must be one of {', '.join(ARCHITECTURES)} (or none)")
    system.architecture = architecture
    session.commit()


def set_withdrawn(session: Session, actor: User, submission: Submission, withdrawn: bool) -> None:
    """Withdrawn: gone from every public view (the previous submission of the system, if any,
    shows); restored: shown again. The organisers keep it either way: nothing is deleted."""
    if (submission.withdrawn_at is not None) == withdrawn:
        state = "already" if withdrawn else "not"
        raise DomainError(f"submission {submission.id} is {state} withdrawn")
    track = submission.system.track
    with action(session):
        record(
            session, actor, "withdraw" if withdrawn else "restore",
            f"{track.slug}/{submission.system.name}#{submission.id}", track.challenge_id,
        )  # fmt: skip
        submission.withdrawn_at = utcnow() if withdrawn else None
