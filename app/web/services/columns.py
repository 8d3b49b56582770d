"""What the leaderboard shows beside each metric: its group, the human-evaluation and
diversity columns, and which values beat the baseline (E2E Table 8's bold)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.data.disclosure import Figure, seal
from app.data.models import Campaign, Score, Submission, Track
from app.web.services.access import Viewer
from app.web.services.campaigns import track_campaigns
from app.web.services.human_subjects import stored_subjects
from app.web.services.leaderboard import LeaderboardRow
from scorer.kinds import Profile, described_signature

DIVERSITY = "diversity"
HUMAN = "human"
OTHER = "other"
"""The group of a column the track's kind does not list (a score of a metric it dropped)."""

DIVERSITY_COLUMNS = ("MSTTR-50", "LS2", "distinct trigrams")
"""Of the outputs' descriptive statistics (E2E Tables 9-10), those shown on the leaderboard."""


@dataclass(frozen=True)
class Column:
    name: str
    group: str
    source: str
    """Where a row keeps the value: ``scores``, ``described`` or ``human``."""
    rising: bool | None = True
    """Higher is better (True), lower is (False), or neither (None: descriptive statistics)."""
    signature: str = ""
    """How the column's values were computed (for the header's tooltip and the list below)."""

    @property
    def direction(self) -> str:
        if self.rising is None:
            return "descriptive"
        return "higher is better" if self.rising else "lower is better"

    @property
    def arrow(self) -> str:
        return "" if self.rising is None else ("↑" if self.rising else "↓")

    @property
    def anchor(self) -> str:
        """The id of the column's line in the list of signatures under the table."""
        return "sig-" + self.name.replace(" ", "-").replace("%", "pct")

    def value(self, row: LeaderboardRow) -> float | None:
        return getattr(row, self.source).get(self.name)


def columns(
    metrics: list[str], rows: list[LeaderboardRow], profile: Profile
) -> list[tuple[str, list[Column]]]:
    """The columns in groups, left to right: the metrics in the kind's order and groups
    (``Profile.column_groups``), then diversity, then human evaluation; a group is never split
    (a column joins its group where the group first comes)."""
    found = [
        Column(
            m,
            profile.group_of(m) or OTHER,
            "scores",
            profile.higher_is_better(m),
            " | ".join(sorted({row.signatures[m] for row in rows if m in row.signatures})),
        )
        for m in metrics
    ]
    found += [
        Column(name, DIVERSITY, "described", None, f"{name}: {described_signature()}")
        for name in DIVERSITY_COLUMNS
        if any(name in row.described for row in rows)
    ]
    human = {name for row in rows for name in row.human}
    found += [
        Column(name, HUMAN, "human", True, f"{name}: published human evaluation (see below)")
        for name in sorted(human)
    ]
    groups: dict[str, list[Column]] = {}
    for column in found:
        groups.setdefault(column.group, []).append(column)
    return list(groups.items())


def human_column(campaign: Campaign) -> tuple[str, str, list[dict]]:
    """(column name, key of the value, result rows) of a campaign with results, as its
    protocol names its headline figure (TrueSkill mu, DA average z, ROSE %, a Likert mean, a
    Bradley-Terry score)."""
    protocol = campaign.protocol
    name, key = protocol.headline(campaign.criterion)
    return name, key, protocol.headline_rows(campaign.results or {})


def add_human_scores(
    session: Session, track: Track, language: str, rows: list[LeaderboardRow]
) -> None:
    """Each row's system-level figure from every published campaign in ``language``, matched
    by system id (never by name: a system called "HUMAN" is not the references). Two campaigns
    whose columns would share a name are told apart by the campaign's name."""
    by_id = {row.system_id: row for row in rows}
    campaigns = [
        campaign
        for campaign in track_campaigns(session, track, published_only=True)
        if campaign.language == language and stored_subjects(campaign.results) is not None
    ]
    names = [human_column(campaign)[0] for campaign in campaigns]
    for campaign, name in zip(campaigns, names, strict=True):
        column = name if names.count(name) == 1 else f"{name} ({campaign.name})"
        subjects = stored_subjects(campaign.results) or {}
        _, key, values = human_column(campaign)
        for value in values:
            subject = subjects.get(value["system"])
            row = by_id.get(subject.system_id) if subject and subject.system_id else None
            if row is not None:
                row.human[column] = float(value[key])


def beats_baseline(
    rows: list[LeaderboardRow], metrics: list[str], profile: Profile
) -> set[tuple[int, str]]:
    """(system id, metric) where a system is better than every baseline (E2E Table 8 bold)."""
    baselines = [row for row in rows if row.is_baseline]
    marked = set()
    for metric in metrics:
        bars = [row.scores[metric] for row in baselines if metric in row.scores]
        if not bars:
            continue
        rising = profile.higher_is_better(metric)
        bar = max(bars) if rising else min(bars)
        for row in rows:
            value = row.scores.get(metric)
            if row.is_baseline or value is None:
                continue
            if (value > bar) if rising else (value < bar):
                marked.add((row.system_id, metric))
    return marked


def ordered_scores(submission: Submission) -> list[Score]:
    """A submission's headline scores in its track's column order (the papers' order: BLEU,
    NIST, METEOR, ROUGE_L, CIDEr, norm_avg, SER...), not the alphabet; unknown names last."""
    profile = submission.system.track.scoring_profile
    order = {name: k for k, name in enumerate(profile.columns)}
    return sorted(
        (s for s in submission.scores if not s.subset),
        key=lambda s: (order.get(s.metric, len(order)), s.metric),
    )


def headline_scores(submission: Submission, viewer: Viewer) -> list[tuple[str, float, bool]]:
    """(metric, value as ``viewer`` may read it, higher is better) of ``ordered_scores``, for
    the pages."""
    track = submission.system.track
    profile = track.scoring_profile
    scores = ordered_scores(submission)
    sealed = seal({s.metric: s.value for s in scores}, Figure.HEADLINE, submission.system.team_id)
    values = viewer.disclosed(track, sealed)
    return [
        (s.metric, values[s.metric], profile.higher_is_better(s.metric))
        for s in scores
        if s.metric in values
    ]
