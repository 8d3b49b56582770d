"""Importing judgements collected elsewhere: the file is read, its system names are matched to
the track's systems for the organiser to confirm, and only a confirmed mapping is stored.

A name is never taken for a system silently: the preview lists each name of the file as
*matched* (exactly one system has exactly that name, in the team the file's ``team`` column
names, or the id its ``system_id`` column gives), *ambiguous* (systems whose names differ from
it only in case, or several of them) or *unmatched* (none, listed with the file's lines); the organiser confirms the
matches and maps every other ranked name to a system id, to the human references, or to
"external" (a system that is on no system of this board: shown under the file's name). Names
judged only in quality-control rows (DA repeats, damaged copies, references) are never ranked
and need no mapping.

A DA file's quality control is what its rows hold (``kind``: repeats, damaged copies,
references), unless the organiser names it; naming a control the file has no rows of is refused,
since every annotator would fail its check.

The file's layout is its protocol's (``Protocol.read``: E2E RankME CSVs, the long CSV, the
pairwise layout); the campaign's cluster procedure is the organiser's choice, one the protocol
allows (its default when not named).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.human_analysis import REFERENCES, subject_key
from app.data.models import Campaign, Judgement, System, Team, Track, User
from app.web.errors import DomainError
from app.web.services import action, add_unique
from app.web.services.audit import record
from app.web.services.campaigns import (
    campaign_options,
    cluster_procedure,
    protocol_of,
    quality_controls,
)
from app.web.services.leaderboard import default_language
from scorer.errors import InputError
from scorer.human import judgements as files
from scorer.human.direct_assessment import RULES, format_controls

EXTERNAL = "external"
"""Mapping target: a name on no system of this board, kept as the file has it."""
MATCHED, AMBIGUOUS, UNMATCHED, CONTROL = "matched", "ambiguous", "unmatched", "quality control"

LINES_SHOWN = 5
NAME_MAX = 100
"""A judged name as stored (``judgements.system_name``)."""

Target = int | str
"""A system id, ``REFERENCES`` or ``EXTERNAL``."""


@dataclass(frozen=True)
class NameMatch:
    """One system name of the file and the track's systems it may stand for."""

    name: str
    status: str
    judgements: int
    candidates: tuple[tuple[int, str], ...] = ()
    """(system id, system name) of the systems whose names equal it but for case."""
    lines: tuple[int, ...] = ()
    """The file's lines naming it (the first few), to find an unmatched one."""

    def described(self) -> str:
        """``'name' (status, lines 2, 5, 9, ...)`` for messages."""
        shown = ", ".join(map(str, self.lines[:LINES_SHOWN]))
        more = ", ..." if self.judgements > LINES_SHOWN else ""
        where = f", line{'s' if len(self.lines) > 1 else ''} {shown}{more}" if shown else ""
        return f"{self.name!r} ({self.status}{where})"

    @property
    def proposed(self) -> int | None:
        """The system an exact match proposes (confirmed with ``--confirm`` or the form)."""
        return self.candidates[0][0] if self.status == MATCHED else None


@dataclass(frozen=True)
class ImportFile:
    """A judgements file as read, before anything is stored."""

    filename: str
    rows: list[files.Judgement]
    notes: dict = field(default_factory=dict)
    names: list[NameMatch] = field(default_factory=list)


def read_import(
    session: Session, track: Track, method: str, criterion: str, data: bytes, filename: str
) -> ImportFile:
    """Read and check the whole file (E2E RankME layout or the long CSV) and match its names;
    nothing is stored."""
    protocol = protocol_of(method)
    notes: dict = {"file": filename}
    rows, read_notes = protocol.read(data, filename, criterion)
    notes.update(read_notes)
    if not rows:
        raise InputError(f"holds no judgements for {criterion!r}", filename=filename)
    notes["judgements"] = len(rows)
    long = next((row for row in rows if len(row.label) > NAME_MAX), None)
    if long is not None:
        raise InputError(
            f"system {long.label!r} is longer than {NAME_MAX} characters", filename=filename,
            line=long.line or None,
        )  # fmt: skip
    return ImportFile(filename, rows, notes, match_names(session, track, rows))


def match_names(session: Session, track: Track, rows: Iterable[files.Judgement]) -> list[NameMatch]:
    """Each name of the file (``Judgement.label``) with its status, in alphabetical order (case
    aside): by system id when the file gives one, else by name within the team it names."""
    rows = list(rows)
    counts = Counter(row.label for row in rows)
    ranked = {row.label for row in rows if row.kind == "genuine"}
    lines: dict[str, list[int]] = {}
    first: dict[str, files.Judgement] = {}
    for row in rows:
        lines.setdefault(row.label, []).append(row.line)
        first.setdefault(row.label, row)
    systems = session.execute(
        select(System.id, System.name, Team.name)
        .outerjoin(Team, System.team_id == Team.id)
        .where(System.track_id == track.id)
        .order_by(System.id)
    ).all()
    found = []
    for name in sorted(counts, key=lambda name: (name.casefold(), name)):
        row = first[name]
        candidates, exact = _candidates(systems, row)
        if name not in ranked:
            status = CONTROL
        elif exact:
            status = MATCHED
        else:
            status = AMBIGUOUS if candidates else UNMATCHED
        shown = tuple(line for line in lines[name][:LINES_SHOWN] if line)
        found.append(NameMatch(name, status, counts[name], candidates, shown))
    return found


def _candidates(
    systems: Iterable[Any], row: files.Judgement
) -> tuple[tuple[tuple[int, str], ...], bool]:
    """The systems ``row`` may name (by id; by name but for case, in its team when it names
    one), and whether exactly one of them is exactly it."""
    if row.system_id:  # the id, under its name (alone or after its team): another board's id
        by_id = [(sid, name, team) for sid, name, team in systems if str(sid) == row.system_id]
        named = any(row.system in (name, f"{team} / {name}") for _, name, team in by_id)
        return tuple((sid, name) for sid, name, _ in by_id), named
    team = row.team.casefold()
    alike = [
        (sid, name, team_name) for sid, name, team_name in systems
        if name.casefold() == row.system.casefold()
        and (not team or (team_name or "").casefold() == team)
    ]  # fmt: skip
    candidates = tuple((sid, name) for sid, name, _ in alike)
    exact = len(alike) == 1 and alike[0][1] == row.system
    exact = exact and (not row.team or alike[0][2] == row.team)
    return candidates, exact


def parse_target(text: str) -> Target:
    """``12`` (a system id), ``references`` or ``external``."""
    cleaned = text.strip()
    if cleaned in (REFERENCES, EXTERNAL):
        return cleaned
    if cleaned.isascii() and cleaned.isdigit() and len(cleaned) < 10:  # not "²", int() fails
        return int(cleaned)
    raise DomainError(f"{text!r} is not a system id, {REFERENCES!r} or {EXTERNAL!r}")


def parse_mapping(pairs: Iterable[str]) -> dict[str, Target]:
    """``NAME=TARGET`` pairs (the CLI's ``--map``); the last ``=`` splits, so names may hold one."""
    mapping: dict[str, Target] = {}
    for pair in pairs:
        name, equals, target = pair.rpartition("=")
        if not equals or not name:
            raise DomainError(
                f"--map {pair!r}: write NAME=SYSTEM_ID, NAME={REFERENCES} or NAME={EXTERNAL}"
            )
        mapping[name] = parse_target(target)
    return mapping


def confirmed_mapping(
    names: list[NameMatch],
    explicit: Mapping[str, Target],
    confirm_matches: bool,
    unmatched_external: bool = False,
) -> dict[str, Target]:
    """The explicit mapping, plus the exact matches when the organiser confirmed them (and
    the unmatched names as external when they said so); every ranked name must be mapped, else
    nothing is stored and the error lists what is missing."""
    mapping = dict(explicit)
    for match in names:
        if confirm_matches and match.proposed is not None:
            mapping.setdefault(match.name, match.proposed)
        if unmatched_external and match.status == UNMATCHED:
            mapping.setdefault(match.name, EXTERNAL)
    missing = [m for m in names if m.status != CONTROL and m.name not in mapping]
    if missing:
        listed = "; ".join(m.described() for m in missing)
        raise DomainError(f"not mapped to a system yet: {listed}")
    return mapping


def check_mapping(
    session: Session, track: Track, names: list[NameMatch], mapping: Mapping[str, Target]
) -> None:
    """Every ranked name mapped, to a system of this track, the references, or (only when no
    system's name is like it) external."""
    by_name = {match.name: match for match in names}
    unknown = [name for name in mapping if name not in by_name]
    if unknown:
        raise DomainError(f"the file has no system named {', '.join(map(repr, unknown))}")
    confirmed_mapping(names, mapping, confirm_matches=False)
    ids = set(session.scalars(select(System.id).where(System.track_id == track.id)))
    for name, target in mapping.items():
        if isinstance(target, int) and target not in ids:
            raise DomainError(f"{name!r}: track {track.slug!r} has no system with id {target}")
        if target == EXTERNAL and by_name[name].candidates:
            like = ", ".join(
                f"{system} (id {system_id})" for system_id, system in by_name[name].candidates
            )
            raise DomainError(
                f"{name!r} cannot be external: this track has {like}; map it to a system id"
            )


def import_judgements(
    session: Session,
    track: Track,
    name: str,
    method: str,
    criterion: str,
    data: bytes,
    filename: str,
    mapping: Mapping[str, Target],
    language: str | None = None,
    quality_control: str | None = None,
    clusters: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Campaign:
    """A closed campaign holding the file's judgements, each tied to the system (or the
    references) ``mapping`` names for its system name. The whole file and the mapping are
    checked before anything is stored; a bad file or mapping stores nothing."""
    read = read_import(session, track, method, criterion, data, filename)
    procedure = cluster_procedure(protocol_of(method), clusters)
    chosen = campaign_options(protocol_of(method), options)
    controls = file_controls(read.rows, method, quality_control, filename)
    check_mapping(session, track, read.names, mapping)
    judgements = [_judgement(row, mapping.get(row.label, EXTERNAL)) for row in read.rows]
    _refuse_merged(judgements, filename)
    read.notes["mapping"] = {key: str(value) for key, value in sorted(mapping.items())}
    campaign = Campaign(
        track_id=track.id,
        language=language or default_language(track) or track.language,
        name=name,
        method=method,
        criterion=criterion,
        show_input=False,
        show_reference=False,
        hit_size=1,
        annotators_per_hit=1,
        is_open=False,
        quality_control=controls,
        clusters=procedure,
        options=chosen,
        imported=read.notes,
    )
    add_unique(session, campaign, duplicate=f"track {track.slug!r} already has {name!r}")
    for judgement in judgements:
        judgement.campaign_id = campaign.id
    add_unique(
        session,
        *judgements,
        duplicate=f"{filename}: an annotator scores the same output twice in one unit; "
        "give each ranking its own unit",
    )
    return campaign


def file_controls(
    rows: Iterable[files.Judgement], method: str, named: str | None, filename: str
) -> str:
    """The campaign's quality control: ``named`` when given, else the kinds the file holds;
    ``none`` for methods without controls."""
    held = {row.kind for row in rows} & set(RULES)
    if not protocol_of(method).quality_controls:
        return format_controls(())
    if named is None:
        return format_controls(tuple(held))
    controls = quality_controls(named)
    missing = [kind for kind in controls if kind not in held]
    if missing:
        raise DomainError(
            f"{filename} holds no {', '.join(missing)} rows (column kind), so every annotator "
            f"would fail that check; give quality control {format_controls(tuple(held))!r}"
        )
    return format_controls(controls)


def _judgement(row: files.Judgement, target: Target) -> Judgement:
    return Judgement(
        unit_key=row.unit or f"{row.item}/{row.annotator}/{row.kind}",
        item_key=row.item,
        system_name=row.label,
        system_id=target if isinstance(target, int) else None,
        is_reference=target == REFERENCES,
        annotator=row.annotator,
        criterion=row.criterion,
        score=row.score,
        kind=row.kind,
        subset=row.subset,
    )


def _refuse_merged(judgements: list[Judgement], filename: str) -> None:
    """Two names mapped to one system must not both be scored in one ranking."""
    seen: dict[tuple, str] = {}
    for j in judgements:
        key = (j.unit_key, subject_key(j.system_id, j.is_reference, j.system_name), j.annotator,
               j.criterion, j.kind)  # fmt: skip
        if key in seen and seen[key] != j.system_name:
            raise DomainError(
                f"{filename}: {seen[key]!r} and {j.system_name!r} are mapped to one system but "
                f"annotator {j.annotator} scores both in unit {j.unit_key}"
            )
        seen[key] = j.system_name


def import_judgements_by(
    session: Session, actor: User, track: Track, *args: Any, **kwargs: Any
) -> Campaign:
    """``import_judgements`` as an organiser's action, recorded in the audit log with the
    number of judgements and the confirmed mapping."""
    with action(session):
        campaign = import_judgements(session, track, *args, **kwargs)
        imported = campaign.imported or {}
        record(
            session, actor, "human import", f"{track.slug}/{campaign.name}", track.challenge_id,
            judgements=imported["judgements"], mapping=imported["mapping"],
        )  # fmt: skip
    return campaign
