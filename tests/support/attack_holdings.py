"""What a board holds that somebody must not see, read from its database for the attack
(``tests/support/attack.py``): tracks and their phases, systems and whether they are
anonymised or withdrawn, every score, the hidden references, per-item findings, join codes,
e-mail addresses and the instance's secrets."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import create_engine, text


@dataclass(frozen=True)
class TrackState:
    id: int
    challenge_id: int
    challenge: str
    slug: str
    profile: str
    test: bool
    published: bool
    hide_own: bool
    deadline_passed: bool

    @property
    def scores_public(self) -> bool:
        return not self.test or self.published


@dataclass(frozen=True)
class SystemState:
    id: int
    name: str
    track: TrackState
    team_id: int | None
    anonymous: bool
    withdrawn: bool
    """Every submission withdrawn: the system is gone from public views."""
    in_published_campaign: bool


@dataclass(frozen=True)
class ScoreState:
    system: SystemState
    metric: str
    value: float
    subset: str


@dataclass
class Holdings:
    """Everything hidden somewhere, read from the database."""

    tracks: dict[int, TrackState]
    systems: dict[int, SystemState]
    scores: list[ScoreState]
    references: dict[int, list[str]]
    """Track id -> reference texts that are not also an input or an output."""
    annotations: dict[int, list[str]]
    """Track id -> per-item slot findings."""
    item_metrics: dict[int, list[str]]
    """Track id -> names of its per-item figures."""
    join_codes: dict[int, str]
    emails: dict[str, tuple[int | None, str]]
    """E-mail -> (team id, role)."""
    secrets: list[str]
    organisers: dict[str, set[int]]
    """E-mail -> challenge ids organised (annotated, for annotators)."""
    reference_campaign_tracks: set[int]
    """Tracks with a campaign that shows references to its annotators (deadline passed)."""
    submission_ids: list[int]
    campaign_ids: list[int]
    campaigns: dict[int, list[str]]
    """Track id -> its campaigns' names."""
    track_submissions: dict[int, frozenset[int]]
    subset_items: dict[tuple[int, str], int]
    """(track id, stored subset name) -> the items it is computed on."""
    submission_systems: dict[int, int]
    """Submission id -> its system's id."""


Rows = Callable[[str], Sequence[Any]]
"""Run one SELECT, get its rows."""


def read_holdings(database_url: str, secret_key: str, instance_path: str) -> Holdings:
    engine = create_engine(database_url)
    with engine.connect() as db:

        def rows(query: str) -> Sequence[Any]:
            return db.execute(text(query)).all()

        tracks = _tracks(rows)
        systems = _systems(rows, tracks)
        submissions = rows(
            "SELECT b.id, b.system_id, s.track_id FROM submissions b"
            " JOIN systems s ON s.id = b.system_id ORDER BY b.id"
        )
        by_track: dict[int, set[int]] = {}
        for r in submissions:
            by_track.setdefault(r.track_id, set()).add(r.id)
        campaigns: dict[int, list[str]] = {}
        for r in rows("SELECT track_id, name FROM campaigns"):
            campaigns.setdefault(r.track_id, []).append(r.name)
        buckets, bucket_items = _bucket_scores(db, systems)
        analyses = _analysis_scores(db, systems)
        found = Holdings(
            tracks=tracks,
            systems=systems,
            scores=_scores(rows, systems) + buckets + analyses,
            references=_references(rows),
            annotations=_annotations(rows),
            item_metrics={track.id: _item_metric_names(track.profile) for track in tracks.values()},
            join_codes={r.id: r.join_code for r in rows("SELECT id, join_code FROM teams")},
            emails={
                r.email: (r.team_id, r.role)
                for r in rows(
                    "SELECT u.email, u.role, m.team_id FROM users u"
                    " LEFT JOIN memberships m ON m.user_id = u.id"
                )
            },
            secrets=_secrets(rows, secret_key, instance_path),
            organisers=_staff(rows),
            reference_campaign_tracks=_reference_campaign_tracks(rows, tracks),
            submission_ids=[r.id for r in submissions],
            campaign_ids=[r.id for r in rows("SELECT id FROM campaigns ORDER BY id")],
            campaigns=campaigns,
            track_submissions={track: frozenset(ids) for track, ids in by_track.items()},
            subset_items=_subset_items(rows) | bucket_items,
            submission_systems={r.id: r.system_id for r in submissions},
        )
    engine.dispose()
    return found


def _tracks(rows: Rows) -> dict[int, TrackState]:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    return {
        r.id: TrackState(
            r.id, r.challenge_id, r.cslug, r.slug, _profile_name(r), r.phase == "test",
            bool(r.is_published), bool(r.hide_own_scores),
            r.deadline is not None and str(r.deadline) < now,
        )
        for r in rows(
            "SELECT t.*, c.slug AS cslug FROM tracks t JOIN challenges c ON c.id = t.challenge_id"
        )
    }  # fmt: skip


def _systems(rows: Rows, tracks: dict[int, TrackState]) -> dict[int, SystemState]:
    """Each system, withdrawn when every submission of it is, and whether a published human
    evaluation judged it (its name is public then, in the test phase too)."""
    judged = {
        r.system_id
        for r in rows(
            "SELECT DISTINCT j.system_id FROM judgements j JOIN campaigns c"
            " ON c.id = j.campaign_id WHERE c.is_published AND j.system_id IS NOT NULL"
        )
    }
    withdrawn = {
        r.system_id
        for r in rows(
            "SELECT system_id FROM submissions GROUP BY system_id"
            " HAVING count(*) = count(withdrawn_at)"
        )
    }
    return {
        r.id: SystemState(
            r.id, r.name, tracks[r.track_id], r.team_id, bool(r.is_anonymous),
            r.id in withdrawn, r.id in judged,
        )
        for r in rows("SELECT * FROM systems")
    }  # fmt: skip


def _scores(rows: Rows, systems: dict[int, SystemState]) -> list[ScoreState]:
    return [
        ScoreState(systems[r.system_id], r.metric, float(r.value), r.subset or "")
        for r in rows(
            "SELECT s.metric, s.value, s.subset, b.system_id FROM scores s"
            " JOIN submissions b ON b.id = s.submission_id"
        )
    ]


def _references(rows: Rows) -> dict[int, list[str]]:
    """Track id -> its reference texts, but those that are also an input or some system's
    output (which its team may read) and those too short to tell apart."""
    public = {
        t.strip()
        for q in ("SELECT text FROM outputs", "SELECT input_text AS text FROM items")
        for (t,) in rows(q)
    }
    references: dict[int, list[str]] = {}
    for r in rows(
        "SELECT ts.track_id, r.text FROM item_references r JOIN items i ON i.id = r.item_id"
        " JOIN test_sets ts ON ts.id = i.test_set_id"
    ):
        if r.text.strip() not in public and len(r.text.strip()) >= 8:
            references.setdefault(r.track_id, []).append(r.text.strip())
    return references


def _annotations(rows: Rows) -> dict[int, list[str]]:
    annotations: dict[int, list[str]] = {}
    for r in rows(
        "SELECT s.track_id, o.annotations FROM outputs o JOIN submissions b"
        " ON b.id = o.submission_id JOIN systems s ON s.id = b.system_id"
        " WHERE o.annotations IS NOT NULL"
    ):
        notes = json.loads(r.annotations) if isinstance(r.annotations, str) else r.annotations
        annotations.setdefault(r.track_id, []).extend(notes or [])
    return annotations


def _secrets(rows: Rows, secret_key: str, instance_path: str) -> list[str]:
    """The secret key, the instance path, password and token hashes, stored file names, and
    what a stack trace prints."""
    found = [secret_key, instance_path, "Traceback", 'File "/']
    found += [v for r in rows("SELECT password_hash, api_token_hash FROM users") for v in r if v]
    found += [r.file_sha256 for r in rows("SELECT DISTINCT file_sha256 FROM submissions")]
    return [secret for secret in found if secret and len(secret) >= 8]


def _staff(rows: Rows) -> dict[str, set[int]]:
    staff: dict[str, set[int]] = {}
    for table in ("challenge_organisers", "challenge_annotators"):
        for r in rows(
            f"SELECT u.email, o.challenge_id FROM {table} o JOIN users u ON u.id = o.user_id"
        ):
            staff.setdefault(r.email, set()).add(r.challenge_id)
    return staff


def _reference_campaign_tracks(rows: Rows, tracks: dict[int, TrackState]) -> set[int]:
    return {
        r.track_id
        for r in rows(
            "SELECT track_id FROM campaigns WHERE show_reference OR method = 'da'"
            " OR id IN (SELECT campaign_id FROM campaign_units u JOIN unit_entries e"
            " ON e.unit_id = u.id WHERE e.is_reference)"
        )
        if tracks[r.track_id].deadline_passed
    }


def _bucket_scores(
    connection: Any, systems: dict[int, SystemState]
) -> tuple[list[ScoreState], dict[tuple[int, str], int]]:
    """Every scored submission's figures on each bucket of each attribute its kind breaks
    down by (``bucket:ATTR=VALUE``), computed from its stored per-item statistics as any
    breakdown, comparison or export would be: they are not stored, so a page that shows one
    shows a number no Score row holds. With each bucket's item count."""
    from sqlalchemy.orm import Session

    from app.data.disclosure import computing_from
    from app.data.models import Submission, SubmissionStatistics
    from app.data.statistics import unpack_statistics
    from app.data.testsets import load_attributes
    from scorer.compare.breakdown import breakdown, buckets

    scores: list[ScoreState] = []
    items: dict[tuple[int, str], int] = {}
    with Session(bind=connection) as session:
        for stored in session.query(SubmissionStatistics):
            submission = session.get(Submission, stored.submission_id)
            system = systems.get(submission.system_id) if submission else None
            track = submission.system.track if submission else None
            test_set = track.test_set_for(submission.language) if track and submission else None
            if system is None or test_set is None:
                continue
            profile = track.scoring_profile
            attributes = load_attributes(session, test_set)
            statistics = unpack_statistics(computing_from(stored.data))
            for attribute in profile.breakdown_attributes:
                groups = buckets(attributes, attribute)
                for value, bucket in breakdown(profile, statistics, groups, samples=0).items():
                    if bucket.items == len(attributes):  # the whole test set: the headline
                        continue
                    subset = f"bucket:{attribute}={value}"
                    items[(system.track.id, subset)] = bucket.items
                    scores += [ScoreState(system, m, v, subset) for m, v in bucket.values.items()]
    return scores, items


def _analysis_scores(connection: Any, systems: dict[int, SystemState]) -> list[ScoreState]:
    """Every figure of the organisers' stored analyses that names a system (a similarity
    matrix: each system's similarity to the references and to the other systems), recomputed
    from nothing but read as stored: a plot or page that shows one shows a number no Score row
    holds (``analysis:...``, looked for in the track's pages as breakdown buckets are)."""
    from sqlalchemy.orm import Session

    from app.data.disclosure import computing_from
    from app.data.models import TestSet

    scores: list[ScoreState] = []
    with Session(bind=connection) as session:
        for test_set in session.query(TestSet):
            if test_set.similarity is None:
                continue
            matrix = computing_from(test_set.similarity)
            for r, row in enumerate(matrix["rows"]):
                for t, system_id in enumerate(matrix["tested"]):
                    value = matrix["values"][r][t]
                    if value is not None and system_id in systems:
                        subset = f"analysis:similarity to {row}"
                        scores.append(ScoreState(systems[system_id], "similarity", value, subset))
    return scores


def _subset_items(rows: Rows) -> dict[tuple[int, str], int]:
    """(track id, subset as its scores are stored) -> items: a challenge set ``X`` scores
    ``X`` on its items, ``X:orig`` and ``X:chal`` on the paired ones."""
    found: dict[tuple[int, str], int] = {}
    for r in rows(
        "SELECT ts.track_id, s.name, count(*) AS items, count(i.original_id) AS paired"
        " FROM item_subsets s JOIN items i ON i.id = s.item_id"
        " JOIN test_sets ts ON ts.id = i.test_set_id GROUP BY ts.track_id, s.name"
    ):
        found[(r.track_id, r.name)] = r.items
        found[(r.track_id, f"{r.name}:orig")] = r.paired
        found[(r.track_id, f"{r.name}:chal")] = r.paired
    return found


def _profile_name(row: Any) -> str:
    """The profile a stored track row derives (the kind and its definition, as the board)."""
    from app.data.track_kinds import profile_name

    definition = row.kind_definition
    return profile_name(
        row.kind, json.loads(definition) if isinstance(definition, str) else definition
    )


def _item_metric_names(profile_name: str) -> list[str]:
    from scorer.kinds import get_profile
    from scorer.metrics import get_metric

    profile = get_profile(profile_name)
    return [get_metric(m).name for m in profile.item_metrics]


def decimals_of(profile_name: str, column: str) -> int:
    from scorer.kinds import get_profile

    profile = get_profile(profile_name)
    return profile.column_decimals.get(column, profile.decimals)
