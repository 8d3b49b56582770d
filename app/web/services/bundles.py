"""Challenge bundles: a YAML definition and its data files (a folder or a zip) that create a
challenge, and that an export gives back, for archiving a finished challenge or moving it to
another board.

The definition names built-in track kinds, the tracks' settings and their test sets, each
either as organisers publish them (``inputs`` / ``references`` read by the kind's readers, as
``nlgboard track import`` reads them) or in the board's own item layout (``items``: JSON Lines,
what an export writes, so nothing is lost: inputs, every reference, subsets, pairings).
``systems`` (written by ``--with-submissions``) carry each submission's file as uploaded; an
import stores them and queues them for scoring, so the leaderboards come out the same.

Everything is read and checked before anything is stored: a bad bundle is refused with one
message naming the file and the key or line, and the board is left as it was.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import unicodedata
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.config import BUNDLE_MAX_BYTES
from app.data.models import (
    DEFAULT_DAILY_LIMIT,
    TEST,
    Challenge,
    ChallengeOrganiser,
    Item,
    ItemSubset,
    Reference,
    Role,
    Submission,
    SubmissionStatus,
    System,
    Team,
    TestSet,
    Track,
    User,
)
from app.data.queue import SubmissionQueue
from app.data.storage import Storage
from app.data.testsets import PUBLIC_PART, stamp_content
from app.web.errors import BundleError, DomainError
from app.web.services.accounts import TEAM_NAME_MAX, team_named
from app.web.services.approvals import approval_off_notice
from app.web.services.audit import record
from app.web.services.bundle_campaigns import KEY as CAMPAIGNS
from app.web.services.bundle_campaigns import export_campaigns, import_campaigns
from app.web.services.drs import import_challenge_set
from app.web.services.import_rules import import_rule
from app.web.services.names import check_name
from app.web.services.organising import LIMIT_MAX
from app.web.services.public_part import public_part_problem
from app.web.services.submissions import SYSTEM_NAME_MAX
from app.web.services.track_imports import import_items
from app.web.services.tracks import (
    DEADLINE_YEARS,
    check_deadline,
    check_slug,
    create_challenge,
    existing_track,
    language_code,
    new_track,
)
from scorer.errors import InputError, KindError, Refused
from scorer.io.archive import read_zip
from scorer.io.bounded_json import MAX_RECORD_CHARS, load_json
from scorer.io.bounded_yaml import LOADER, load_yaml
from scorer.io.folders import as_zip, release_order
from scorer.kinds import TRACK_KINDS, build_profile

DEFINITION = "challenge.yaml"
FORMAT = 1
"""The bundle format's version: a board refuses a bundle newer than it knows."""

MAX_BUNDLE_BYTES = BUNDLE_MAX_BYTES
"""What a bundle may unpack to by default (the board's ``NLGBOARD_BUNDLE_MAX_BYTES``), checked
from the zip's headers before anything is inflated and again while reading (headers can lie)."""
MAX_ENTRIES = 100_000
"""A finished challenge's bundle holds every submission file: thousands, not an upload's 64."""
DEFINITION_MAX_BYTES = 2 * 1024 * 1024
"""``challenge.yaml``'s cap, checked before it is parsed: a finished challenge's definition with
every submission and its scores is about 1 KB per submission (2,000 of them fit; libyaml reads
it in about a second)."""


@dataclass
class Bundle:
    """A bundle's files by their path inside it (``challenge.yaml``, ``tracks/main/en.jsonl``)."""

    files: dict[str, bytes]

    @classmethod
    def from_zip(
        cls, data: bytes, filename: str = "bundle.zip", max_bytes: int = MAX_BUNDLE_BYTES
    ) -> Bundle:
        """The zip's files, refused before inflating anything when its headers add up to more
        than ``max_bytes``; the reading is capped too, whatever the headers say."""
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                declared = sum(info.file_size for info in archive.infolist())
        except (zipfile.BadZipFile, ValueError, OSError):
            declared = 0  # read_zip names what is wrong with it
        if declared > max_bytes:
            raise BundleError(
                f"{filename}: unpacks to {declared:,} bytes; a bundle may unpack to at most "
                f"{max_bytes:,} bytes"
            )
        try:
            files = read_zip(data, filename, max_bytes, keep_folders=True, max_entries=MAX_ENTRIES)
        except InputError as error:
            raise BundleError(str(error)) from None
        return cls(_strip_common_folder(files))

    @classmethod
    def from_folder(cls, root: Path, max_bytes: int = MAX_BUNDLE_BYTES) -> Bundle:
        """A bundle's folder: its regular files only. A symbolic link (to a file or a folder),
        or anything else that is not a plain file inside the folder, is refused naming it, so
        a bundle cannot make a file of the machine (the instance's secret key) a reference."""
        base = root.resolve()
        files: dict[str, bytes] = {}
        total = 0
        for folder, subfolders, names in os.walk(base, followlinks=False):
            for name in sorted([*subfolders, *names]):
                path = Path(folder, name)
                inside = path.relative_to(base).as_posix()
                mode = path.lstat().st_mode
                if stat.S_ISLNK(mode):
                    raise BundleError(
                        f"{inside}: is a symbolic link; a bundle's folder holds its own files"
                    )
                if stat.S_ISDIR(mode):
                    continue
                if not stat.S_ISREG(mode) or not path.resolve().is_relative_to(base):
                    raise BundleError(f"{inside}: not a plain file inside the bundle's folder")
                if len(files) >= MAX_ENTRIES:
                    raise BundleError(f"the bundle has more than {MAX_ENTRIES:,} files")
                with path.open("rb") as handle:
                    data = handle.read(max_bytes - total + 1)
                total += len(data)
                if total > max_bytes:
                    raise BundleError(
                        f"{inside}: the bundle holds more than {max_bytes:,} bytes "
                        "(at most that much is read)"
                    )
                files[inside] = data
        if DEFINITION not in files:
            raise BundleError(f"the bundle has no {DEFINITION} at its top")
        return cls(files)

    def folder(self, path: str) -> dict[str, bytes]:
        """The files under the folder ``path`` (by their path inside it, in the release's
        order), or nothing when ``path`` is a file or absent."""
        name = str(PurePosixPath(path))
        if name in self.files or name in ("", "."):
            return {}
        prefix = f"{name}/"
        inside = {n[len(prefix) :]: data for n, data in self.files.items() if n.startswith(prefix)}
        return {n: inside[n] for n in release_order(inside)}

    def read(self, path: str, where: str) -> bytes:
        """A data file named by the definition at ``where`` (its key)."""
        name = str(PurePosixPath(path))
        if name not in self.files:
            raise BundleError(f"{DEFINITION}: {where}: no file {path!r} in the bundle")
        return self.files[name]


def _strip_common_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """A zip made of a folder holds ``folder/challenge.yaml``: read it as the bundle's root."""
    if DEFINITION in files:
        return files
    roots = {name.split("/", 1)[0] for name in files}
    if len(roots) == 1 and f"{next(iter(roots))}/{DEFINITION}" in files:
        prefix = f"{next(iter(roots))}/"
        return {name[len(prefix) :]: data for name, data in files.items() if name != prefix}
    raise BundleError(f"the bundle has no {DEFINITION} at its top")


# --- reading and checking a definition ------------------------------------------------------


class _Reader:
    """Typed access to a YAML mapping that names the key of every refusal."""

    def __init__(self, data: Any, where: str):
        if not isinstance(data, Mapping):
            raise BundleError(f"{DEFINITION}: {where}: expected a mapping")
        self.data = data
        self.where = where
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        self.used.add(name)
        if name not in self.data or self.data[name] is None:
            if default is ...:
                raise BundleError(f"{DEFINITION}: {self.key(name)}: missing")
            return default
        value = self.data[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _types(kind)):
            raise BundleError(
                f"{DEFINITION}: {self.key(name)}: expected {_type_names(kind)}, got {value!r}"
            )
        return value

    def items(self, name: str) -> Iterator[_Reader]:
        for index, entry in enumerate(self.get(name, list, [])):
            yield _Reader(entry, f"{self.key(name)}[{index}]")

    def done(self) -> None:
        unknown = sorted(set(map(str, self.data)) - self.used)
        if unknown:
            raise BundleError(
                f"{DEFINITION}: {self.key(unknown[0])}: unknown key (known here: "
                f"{', '.join(sorted(self.used))})"
            )


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _type_names(kind: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "an integer", bool: "true or false", list: "a list", dict: "a map"}
    return " or ".join(names.get(k, k.__name__) for k in _types(kind))


def _without_aliases(text: str) -> None:
    """Refuse anchors and aliases: a few hundred bytes of them expand into megabytes (stored
    with a defined kind, read by every process), and a bundle never needs them."""
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise BundleError(
                f"{DEFINITION} line {event.start_mark.line + 1}: YAML anchors and aliases "
                f"(&{event.anchor}, *{event.anchor}) are not accepted; write the value out"
            )


def load_definition(bundle: Bundle) -> _Reader:
    raw = bundle.files[DEFINITION]
    if len(raw) > DEFINITION_MAX_BYTES:
        raise BundleError(
            f"{DEFINITION}: {len(raw):,} bytes; a definition may hold at most "
            f"{DEFINITION_MAX_BYTES:,} bytes"
        )
    try:
        text = raw.decode("utf-8")
        _without_aliases(text)
        data = load_yaml(text)
    except UnicodeDecodeError:
        raise BundleError(f"{DEFINITION}: not UTF-8 text") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise BundleError(f"{DEFINITION}{where}: not valid YAML: {problem}") from None
    root = _Reader(data, "")
    version = root.get("format", int)
    if version > FORMAT:
        raise BundleError(
            f"{DEFINITION}: format: {version} is newer than this board reads ({FORMAT})"
        )
    return root


def _deadline(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            raise BundleError(
                f"{DEFINITION}: {where}: expected a time such as 2017-10-31T23:59:00Z, "
                f"got {value!r}"
            ) from None
    try:
        moment = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
        return check_deadline(moment)
    except (OverflowError, DomainError):  # 9999-12-31T23:59:59-23:59 is past year 9999 in UTC
        low, high = DEADLINE_YEARS
        raise BundleError(
            f"{DEFINITION}: {where}: {value!r} is out of range: give a time between {low} "
            f"and {high} (UTC)"
        ) from None


def _limit(reader: _Reader, name: str, default: int | None) -> int | None:
    """A per-team limit: 0 for none (as ``track import --daily-limit 0``)."""
    value = reader.get(name, int, default)
    if value is not None and not 0 <= value <= LIMIT_MAX:
        raise BundleError(f"{DEFINITION}: {reader.key(name)}: must be 0 (none) to {LIMIT_MAX:,}")
    return value or None


# --- import ------------------------------------------------------------------------------------


@dataclass
class ImportReport:
    challenge: str
    tracks: list[str] = field(default_factory=list)
    items: int = 0
    submissions: list[int] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)
    """Teams the bundle names that the board has already: name -> the new team's name."""
    notices: list[str] = field(default_factory=list)
    """What the organiser is to be told beside the summary (``approval_off_notice``)."""
    analyses: list[int] = field(default_factory=list)
    """Published human evaluations whose results the worker computes (campaign ids)."""

    def summary(self) -> str:
        renamed = "".join(
            f"; team {old!r} is another team on this board: created as {new!r}"
            for old, new in self.renamed.items()
        )
        analyses = (
            f", {len(self.analyses)} published human evaluation(s) queued for analysis"
            if self.analyses
            else ""
        )
        return (
            f"challenge {self.challenge}: {len(self.tracks)} track(s) "
            f"({', '.join(self.tracks)}), {self.items} items, "
            f"{len(self.submissions)} submission(s) queued for scoring{analyses}{renamed}"
        )


def import_bundle(
    session: Session,
    queue: SubmissionQueue,
    storage: Storage,
    bundle: Bundle,
    by: User | None = None,
) -> ImportReport:
    """Create the bundle's challenge, recorded in its audit log, with ``by`` (an organiser on
    the web) as its first organiser, and commit; submissions, and the analyses of published
    human evaluations, are enqueued after the commit. On any refusal the session is rolled
    back and no file is stored."""
    try:
        if by is not None and by.role not in (Role.ORGANISER, Role.ADMIN):
            raise DomainError("only organisers and admins create challenges")
        report, files, challenge = _create(session, bundle)
        challenge_id = challenge.id
        if by is not None:
            session.add(ChallengeOrganiser(challenge_id=challenge_id, user_id=by.id))
        record(session, by, "challenge import", report.challenge, challenge_id,
               tracks=report.tracks, submissions=len(report.submissions))  # fmt: skip
        session.flush()
    except Refused:
        session.rollback()
        raise
    for data in files:
        storage.put(data)
    session.commit()
    for submission_id in report.submissions:
        queue.enqueue(submission_id)
    for campaign_id in report.analyses:
        queue.enqueue_analysis(campaign_id)
    return report


def _create(session: Session, bundle: Bundle) -> tuple[ImportReport, list[bytes], Challenge]:
    root = load_definition(bundle)
    about = _Reader(root.get("challenge", dict), "challenge")
    slug = check_slug(about.get("slug", str), "challenge")
    challenge = create_challenge(
        session, slug, about.get("title", str), about.get("description", str, "")
    )
    about.done()
    report = ImportReport(slug)
    kinds = _defined_kinds(root)
    opened: list[str] = []
    for entry in root.items("tracks"):
        track = _import_track(session, bundle, challenge, entry, kinds, report.notices)
        report.tracks.append(track.slug)
        report.items += sum(len(test_set.items) for test_set in track.test_sets)
        if track.phase == TEST and not track.is_published:
            opened.append(track.slug)
    notice = approval_off_notice(challenge, opened)
    if notice:
        report.notices.append(notice)
    files: list[bytes] = []
    teams: dict[str, Team] = {}
    for entry in root.items("systems"):
        submissions, data = _import_system(session, bundle, challenge, entry, teams)
        report.submissions.extend(submissions)
        files.extend(data)
    campaigns = import_campaigns(
        session, challenge, root.get(CAMPAIGNS, list, []), bundle.read,
        lambda name, where: _bundle_team(session, challenge, name, where, teams),
    )  # fmt: skip
    report.analyses = [campaign.id for campaign in campaigns if campaign.analysis]
    report.renamed = {name: team.name for name, team in teams.items() if team.name != name}
    root.done()
    if not report.tracks:
        raise BundleError(f"{DEFINITION}: tracks: the challenge needs at least one track")
    return report, files, challenge


def _defined_kinds(root: _Reader) -> dict[str, dict[str, Any]]:
    """The bundle's own kinds (``kinds:``), each checked against the registries."""
    kinds: dict[str, dict[str, Any]] = {}
    for entry in root.items("kinds"):
        try:
            build_profile(entry.data, entry.where)  # checked and registered
            import_rule(entry.data, entry.where)
        except KindError as error:
            raise BundleError(f"{DEFINITION}: {error}") from None
        except InputError as error:
            raise BundleError(f"{DEFINITION}: {entry.where}: {error}") from None
        name = str(entry.data["name"])
        if name in kinds:
            raise BundleError(f"{DEFINITION}: {entry.key('name')}: {name!r} is defined twice")
        kinds[name] = dict(entry.data)
    return kinds


def _import_track(
    session: Session,
    bundle: Bundle,
    challenge: Challenge,
    entry: _Reader,
    kinds: dict[str, dict[str, Any]],
    notices: list[str],
) -> Track:
    """A track of the bundle; what the organiser should know of it (a test set with fewer
    references than its kind declares) is added to ``notices``."""
    slug = check_slug(entry.get("slug", str), "track")
    kind = entry.get("kind", str)
    if kind not in TRACK_KINDS and kind not in kinds:
        known = sorted([*TRACK_KINDS, *kinds])
        raise BundleError(
            f"{DEFINITION}: {entry.key('kind')}: unknown kind {kind!r} (known: {', '.join(known)}"
            "; a bundle defines its own under kinds:)"
        )
    title = entry.get("title", str, slug)
    track: Track | None = None
    for test_set in entry.items("test_sets"):
        track = _import_test_set(
            session, bundle, challenge, slug, kind, title, test_set, notices, kinds.get(kind)
        )
    if track is None:
        raise BundleError(f"{DEFINITION}: {entry.key('test_sets')}: the track has no test set")
    track.language = entry.get("language", str, track.language)
    _apply_settings(track, _Reader(entry.get("settings", dict, {}), entry.key("settings")))
    entry.done()
    return track


def _import_test_set(
    session: Session,
    bundle: Bundle,
    challenge: Challenge,
    slug: str,
    kind: str,
    title: str,
    entry: _Reader,
    notices: list[str],
    definition: dict[str, Any] | None = None,
) -> Track:
    language = language_code(entry.get("language", str))
    if "items" in entry.data:
        track = _items_track(session, challenge, slug, kind, title, language, definition)
        path = entry.get("items", str)
        _add_items(session, track, language, bundle, path, entry.key("items"), notices)
    else:
        train = _named(bundle, entry.get("train", str, None), entry.key("train"))
        track = _import_release(
            session, bundle, challenge, slug, kind, entry, definition,
            language=language, title=title, train=train, notices=notices,
        ).track  # fmt: skip
        for subset in entry.items("subsets"):
            subset.get("inputs", str)  # a subset is given by its inputs
            _import_release(
                session, bundle, challenge, slug, kind, subset, definition,
                language=language, subset=subset.get("name", str), notices=notices,
            )  # fmt: skip
            subset.done()
        _import_challenge_sets(session, bundle, track, language, entry)
    entry.done()
    return track


def _import_release(
    session: Session,
    bundle: Bundle,
    challenge: Challenge,
    slug: str,
    kind: str,
    part: _Reader,
    definition: dict[str, Any] | None,
    **options: Any,
) -> TestSet:
    """A test set, or a subset of one, given as published files: ``import_items``, as the CLI
    and the organisers' form import one."""
    inputs = part.get("inputs", str, None)
    test_set, _ = _refusing(
        part.where,
        lambda: import_items(
            session, challenge, slug, kind, inputs=_named(bundle, inputs, part.key("inputs")),
            references=_references(bundle, part), definition=definition, **options,
        ),
    )  # fmt: skip
    return test_set


def _import_challenge_sets(
    session: Session, bundle: Bundle, track: Track, language: str, entry: _Reader
) -> None:
    for chosen in entry.items("challenge_sets"):
        name = chosen.get("name", str)
        _refusing(
            chosen.where,
            lambda chosen=chosen, name=name: import_challenge_set(
                session,
                track,
                language,
                name,
                bundle.read(chosen.get("inputs", str), chosen.key("inputs")),
                bundle.read(chosen.get("references", str), chosen.key("references")),
                inputs_name=chosen.get("inputs", str),
                sentences_name=chosen.get("references", str),
            ),
        )
        chosen.done()


def _references(bundle: Bundle, entry: _Reader) -> tuple[bytes, str] | None:
    """The references file, or several (parallel ``reference0..N``) zipped in the order given."""
    named = entry.get("references", (str, list), None)
    if isinstance(named, list):
        return _zipped(bundle, named, entry.key("references"))
    return _named(bundle, named, entry.key("references"))


def _refusing(where: str, create: Any) -> Any:
    """Run an importer, naming the definition's key in what it refuses."""
    try:
        return create()
    except InputError as error:
        raise BundleError(f"{DEFINITION}: {where}: {error}") from None
    except BundleError:
        raise
    except DomainError as error:
        raise BundleError(f"{DEFINITION}: {where}: {error}") from None


def _zipped(bundle: Bundle, paths: list[Any], where: str) -> tuple[bytes, str]:
    """Several reference files (parallel ``reference0..N``) as one zip, in the order given
    (named 0, 1, ... so the reader keeps that order)."""
    if not paths or not all(isinstance(path, str) for path in paths):
        raise BundleError(f"{DEFINITION}: {where}: expected a file or a list of files")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for index, path in enumerate(paths):
            archive.writestr(f"{index:03d}-{PurePosixPath(path).name}", bundle.read(path, where))
    return buffer.getvalue(), "references.zip"


def _named(bundle: Bundle, path: str | None, where: str) -> tuple[bytes, str] | None:
    """The file ``path`` names, or the folder (``train: train/``, as a release has it): its
    files as one zip in the release's order, which the readers of split releases read
    (WebNLG: its XML files, ``scorer.io.folders``)."""
    if path is None:
        return None
    folder = bundle.folder(path)
    if folder:
        return as_zip(folder), f"{PurePosixPath(path).name}/"
    return bundle.read(path, where), PurePosixPath(path).name


def _items_track(
    session: Session,
    challenge: Challenge,
    slug: str,
    kind: str,
    title: str,
    language: str,
    definition: dict[str, Any] | None = None,
) -> Track:
    """The track a test set in the board's item layout goes to, created on its first one."""
    session.flush()
    track = existing_track(session, challenge, slug)
    if track is None:
        if definition:
            build_profile(definition)  # a definition that builds no profile stores no track
        track = new_track(
            session, challenge, slug, kind, language=language, title=title, definition=definition
        )
    elif track.kind != kind:
        raise BundleError(f"{DEFINITION}: track {slug!r} is given two kinds")
    return track


def _add_items(
    session: Session,
    track: Track,
    language: str,
    bundle: Bundle,
    path: str,
    where: str,
    notices: list[str],
) -> None:
    """A test set from the board's item layout: one JSON object per line, in test order. A
    set imported without its kind's attribute file (so exported without those subsets) comes
    back without them, said in ``notices``, as its first import said it."""
    data = bundle.read(path, where)
    rows = [_item_row(line, path, number) for number, line in _lines(data, path)]
    if not rows:
        raise BundleError(f"{path}: holds no items")
    test_set = TestSet(
        track=track, language=language, source_sha256=hashlib.sha256(data).hexdigest()
    )
    profile = track.scoring_profile
    found = [profile.item_attributes(r["input"], r["references"], r["attributes"]) for r in rows]
    if problem := profile.subsets_problem(found):
        raise BundleError(f"{path}: {problem}")
    if left_out := profile.subsets_left_out(found):
        notices.append(f"track {track.slug} ({language}): {profile.left_out_note(left_out)}")
    items = [
        Item(
            test_set=test_set,
            position=position,
            input_text=row["input"],
            attributes=attributes,
            references=[
                Reference(position=k, text=text) for k, text in enumerate(row["references"])
            ],
            subsets=[
                ItemSubset(name=name)
                for name in dict.fromkeys([*row["subsets"], *profile.subset_names(attributes)])
            ],
        )
        for position, (row, attributes) in enumerate(zip(rows, found, strict=True))
    ]
    public = sum(any(s.name == PUBLIC_PART for s in item.subsets) for item in items)
    if public and (problem := public_part_problem(public, len(items))):
        raise BundleError(f"{path}: subset {PUBLIC_PART!r} (the public part) is {problem}")
    session.add(test_set)
    session.add_all(items)
    session.flush()
    for number, (item, row) in enumerate(zip(items, rows, strict=True), 1):
        original = row["original"]
        if original is not None:
            if not 0 <= original < len(items) or original == number - 1:
                raise BundleError(f"{path} line {number}: original {original} is not another item")
            item.original_id = items[original].id
    stamp_content(session, test_set)


def _lines(data: bytes, path: str) -> Iterator[tuple[int, str]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BundleError(f"{path}: not UTF-8 (byte {error.start})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line


ITEM_KEYS = {"input", "references", "subsets", "original", "attributes"}


def _item_row(line: str, path: str, number: int) -> dict[str, Any]:
    try:
        row = load_json(line, path, number, max_chars=MAX_RECORD_CHARS)
    except InputError as error:
        raise BundleError(str(error)) from None
    if not isinstance(row, dict) or not isinstance(row.get("input"), str):
        raise BundleError(f'{path} line {number}: expected an object with an "input" text')
    unknown = sorted(set(row) - ITEM_KEYS)
    if unknown:
        raise BundleError(f"{path} line {number}: unknown key {unknown[0]!r}")
    references = row.get("references", [])
    subsets = row.get("subsets", [])
    for name, values in (("references", references), ("subsets", subsets)):
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise BundleError(f"{path} line {number}: {name} must be a list of texts")
    if not references:
        raise BundleError(f"{path} line {number}: the item has no reference")
    original = row.get("original")
    if original is not None and (isinstance(original, bool) or not isinstance(original, int)):
        raise BundleError(f"{path} line {number}: original must be an item's position")
    attributes = row.get("attributes", {})
    if not isinstance(attributes, dict) or not all(
        isinstance(v, str) and v for v in attributes.values()
    ):
        raise BundleError(
            f"{path} line {number}: attributes must be an object of names to texts "
            '(e.g. {"category": "Airport"})'
        )
    return {"input": row["input"], "references": references, "subsets": subsets,
            "original": original, "attributes": attributes}  # fmt: skip


def _apply_settings(track: Track, settings: _Reader) -> None:
    phase = settings.get("phase", str, track.phase)
    if phase not in ("development", "test"):
        raise BundleError(f"{DEFINITION}: {settings.key('phase')}: development or test")
    track.phase = phase
    track.is_published = settings.get("published", bool, False)
    track.hide_own_scores = settings.get("hide_own_scores", bool, False)
    track.confirmed_only_in_test = settings.get("confirmed_only_in_test", bool, True)
    track.deadline = _deadline(
        settings.get("deadline", (str, datetime), None), settings.key("deadline")
    )
    track.daily_limit = _limit(settings, "daily_limit", DEFAULT_DAILY_LIMIT)
    track.max_systems = _limit(settings, "max_systems", None)
    track.max_primary = _limit(settings, "max_primary", 2) or 2
    settings.done()


FILENAME_MAX = 255


def _filename(name: str, where: str) -> str:
    """A submission's file name as uploaded: a plain name (exports write it into a path)."""
    problem = (
        "is empty"
        if not name
        else f"is longer than {FILENAME_MAX} characters"
        if len(name) > FILENAME_MAX
        else "holds a path separator or is . or .."
        if "/" in name or "\\" in name or name in (".", "..")
        else "holds a control character"
        if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name)
        else None
    )
    if problem:
        raise BundleError(f"{DEFINITION}: {where}: {name!r} {problem}; a plain file name")
    return name


def _bundle_team(
    session: Session, challenge: Challenge, name: str, where: str, teams: dict[str, Team]
) -> Team:
    """The team a bundle's ``team:`` names: always one this import creates (memberless), never
    a team already on the board, whose members would otherwise see the system as theirs and get
    its mails. Systems naming the same team share it; a name taken on the board gets the
    challenge's slug: ``Team A (slug)``."""
    name = _refusing(where, lambda: check_name(name, "team name", TEAM_NAME_MAX))
    if name in teams:
        return teams[name]
    chosen = name
    if team_named(session, chosen) is not None:  # as create_team: letter case aside
        chosen = f"{name} ({challenge.slug})"
        if len(chosen) > TEAM_NAME_MAX or team_named(session, chosen) is not None:
            raise BundleError(
                f"{DEFINITION}: {where}: the board has teams named {name!r} and {chosen!r}; "
                "a bundle creates its own teams: rename it"
            )
    team = Team(name=chosen)
    session.add(team)
    session.flush()
    teams[name] = team
    return team


def _import_system(
    session: Session,
    bundle: Bundle,
    challenge: Challenge,
    entry: _Reader,
    teams: dict[str, Team],
) -> tuple[list[int], list[bytes]]:
    track_slug = entry.get("track", str)
    track = next((t for t in challenge.tracks if t.slug == track_slug), None)
    if track is None:
        raise BundleError(f"{DEFINITION}: {entry.key('track')}: no track {track_slug!r}")
    team_name = entry.get("team", str, None)
    system = System(
        track=track,
        team=_bundle_team(session, challenge, team_name, entry.key("team"), teams)
        if team_name
        else None,
        name=check_name(entry.get("name", str), "system name", SYSTEM_NAME_MAX),
        description=entry.get("description", str, ""),
        architecture=entry.get("architecture", str, ""),
        is_baseline=entry.get("baseline", bool, False),
        is_primary=entry.get("primary", bool, False),
        is_anonymous=entry.get("anonymous", bool, False),
    )
    session.add(system)
    ids, files = [], []
    for upload in entry.items("submissions"):
        data = bundle.read(upload.get("file", str), upload.key("file"))
        language = language_code(upload.get("language", str))
        if track.test_set_for(language) is None:
            raise BundleError(
                f"{DEFINITION}: {upload.key('language')}: track {track.slug!r} has no "
                f"{language} test set"
            )
        submission = Submission(
            system=system,
            language=language,
            filename=_filename(
                upload.get("filename", str, PurePosixPath(upload.get("file", str)).name),
                upload.key("filename"),
            ),
            file_sha256=hashlib.sha256(data).hexdigest(),
            status=SubmissionStatus.QUEUED,
            is_late=upload.get("late", bool, False),
            created_at=_deadline(
                upload.get("created_at", (str, datetime), None), upload.key("created_at")
            )
            or datetime.now(UTC),
            withdrawn_at=_deadline(
                upload.get("withdrawn_at", (str, datetime), None), upload.key("withdrawn_at")
            ),
        )
        upload.get("scores", dict, {})  # what the exporting board gave: for the record
        upload.done()
        session.add(submission)
        session.flush()
        ids.append(submission.id)
        files.append(data)
    entry.done()
    return ids, files


# --- export ------------------------------------------------------------------------------------


def export_bundle(
    session: Session, storage: Storage, challenge: Challenge, with_submissions: bool = False
) -> bytes:
    """The challenge as a zip bundle: definition, every test set in the board's item layout
    (hidden references included: organisers only) and, on request, every submission."""
    files: dict[str, bytes] = {}
    tracks = []
    for track in challenge.tracks:
        test_sets = []
        for test_set in sorted(track.test_sets, key=lambda t: t.language):
            path = f"tracks/{track.slug}/{test_set.language}.items.jsonl"
            files[path] = _items_file(test_set)
            test_sets.append({"language": test_set.language, "items": path})
        tracks.append(
            {
                "slug": track.slug,
                "title": track.title,
                "kind": track.kind,  # a defined kind's name (kinds: below)
                "language": track.language,
                "settings": _settings(track),
                "test_sets": test_sets,
            }
        )
    definition: dict[str, Any] = {
        "format": FORMAT,
        "challenge": {
            "slug": challenge.slug,
            "title": challenge.title,
            "description": challenge.description,
        },
    }
    kinds = {t.kind: t.kind_definition for t in challenge.tracks if t.kind_definition}
    if kinds:
        definition["kinds"] = list(kinds.values())
    definition["tracks"] = tracks
    if with_submissions:
        definition["systems"] = _systems(session, storage, challenge, files)
    if campaigns := export_campaigns(session, challenge, files):
        definition[CAMPAIGNS] = campaigns
    text = yaml.dump(
        definition, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True, width=100
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(DEFINITION, text)
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


class _NoAliasDumper(yaml.SafeDumper):
    """Values written out each time (an import refuses aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _items_file(test_set: TestSet) -> bytes:
    position = {item.id: item.position for item in test_set.items}
    lines = []
    for item in test_set.items:
        row: dict[str, Any] = {
            "input": item.input_text,
            "references": [reference.text for reference in item.references],
        }
        if item.subsets:
            row["subsets"] = [subset.name for subset in item.subsets]
        if item.original_id is not None:
            row["original"] = position[item.original_id]
        if item.attributes:
            row["attributes"] = item.attributes
        lines.append(json.dumps(row, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def _settings(track: Track) -> dict[str, Any]:
    return {
        "phase": track.phase,
        "published": track.is_published,
        "hide_own_scores": track.hide_own_scores,
        "confirmed_only_in_test": track.confirmed_only_in_test,
        "deadline": _iso(track.deadline),
        "daily_limit": track.daily_limit or 0,
        "max_systems": track.max_systems or 0,
        "max_primary": track.max_primary,
    }


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _systems(
    session: Session, storage: Storage, challenge: Challenge, files: dict[str, bytes]
) -> list[dict[str, Any]]:
    systems = session.scalars(
        select(System).join(Track).where(Track.challenge_id == challenge.id).order_by(System.id)
    )
    entries = []
    for system in systems:
        uploads = []
        for submission in sorted(system.submissions, key=lambda s: s.id):
            if submission.status == SubmissionStatus.FAILED:
                continue
            path = f"submissions/{submission.id}-{submission.filename}"
            files[path] = storage.get(submission.file_sha256)
            uploads.append(
                {
                    "language": submission.language,
                    "file": path,
                    "filename": submission.filename,
                    "created_at": _iso(submission.created_at),
                    "late": submission.is_late,
                    "withdrawn_at": _iso(submission.withdrawn_at),
                    "scores": {
                        f"{s.subset}/{s.metric}" if s.subset else s.metric: s.value
                        for s in submission.scores
                    },
                }
            )
        entries.append(
            {
                "track": system.track.slug,
                "name": system.name,
                "team": system.team.name if system.team else None,
                "baseline": system.is_baseline,
                "primary": system.is_primary,
                "anonymous": system.is_anonymous,
                "architecture": system.architecture,
                "description": system.description,
                "submissions": uploads,
            }
        )
    return entries
