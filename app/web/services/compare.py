"""Why does system A beat system B: two leaderboard rows compared on every metric (paired
bootstrap, as ``nlg-score --compare``), on each bucket of an item attribute, and item by item.

Visibility is the leaderboard's (``leaderboard``: phases, anonymity, withdrawal): a system the
viewer's leaderboard does not list cannot be compared. On top of it, buckets follow the rule of
subsets and reference statistics (``breakdowns``), intervals are shown where scores are shown
exactly, and the per-item table (item-level figures, both outputs, the references) only to
whom ``Viewer.sees_item_figures_of`` allows: the organisers, and everyone once the results are
published (each figure is an oracle on its reference).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

import numpy as np
from sqlalchemy.orm import Session

from app.data.disclosure import Figure, Hidden
from app.data.models import Track
from app.data.statistics import unpack_statistics
from app.data.testsets import LoadedTestSet, load_attributes, load_test_set
from app.web.errors import DomainError
from app.web.services.access import Viewer
from app.web.services.breakdowns import breakdown_choices, stored_statistics
from app.web.services.columns import columns
from app.web.services.file_cache import FileCache
from app.web.services.leaderboard import (
    LeaderboardRow,
    default_language,
    leaderboard,
    outputs_by_item,
)
from scorer.compare.breakdown import buckets
from scorer.compare.significance import SAMPLES, SEED, Comparison, paired_bootstrap
from scorer.kinds import Profile
from scorer.metrics import get_metric
from scorer.references import ReferenceSet

FILTERS = {
    "all": "every item",
    "only-a": "only A wrong",
    "only-b": "only B wrong",
    "both": "both wrong",
}
"""Which items the per-item table lists. An output is wrong when the scorer found errors in it
(``FINDINGS``); a kind without per-item findings offers no filter: "none of the references" is
every item of a multi-reference set (WebNLG's), which filters nothing out."""

FINDINGS = "SER"
"""The item metric whose value counts errors found in one output (slot errors): above 0 is
wrong."""

ITEM_LIMIT = 100
"""Items listed by default, the largest differences first."""

SENTENCE_METRIC = "chrF"
"""The item-level figure of kinds without one of their own: sentence chrF (sacreBLEU's)."""


@dataclass(frozen=True)
class Difference:
    """A - B on one column, over some items."""

    metric: str
    a: float
    b: float
    difference: float | None
    """None, like ``p_value``, where the viewer may not see significance (a team's own
    systems before publication: the exact difference of two rounded scores is a probe)."""
    p_value: float | None
    low: float | None = None
    high: float | None = None

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < 0.05


@dataclass(frozen=True)
class ItemRow:
    position: int
    input: str
    output_a: str
    output_b: str
    figure_a: float
    figure_b: float
    difference: float
    """Figure A - figure B, signed so that positive means A is better."""
    wrong_a: bool | None
    wrong_b: bool | None
    """None: the kind finds no errors per item (``FINDINGS``), so no output is called wrong."""
    references: list[str]
    attributes: dict[str, str]


@dataclass
class SystemComparison:
    a: LeaderboardRow
    b: LeaderboardRow
    metrics: list[Difference]
    intervals: bool
    significance: bool = True
    """Whether the viewer sees differences and p-values (``Viewer.sees_significance_of``)."""
    attribute: str | None = None
    choices: list[str] = field(default_factory=list)
    buckets: list[tuple[str, int, list[Difference]]] = field(default_factory=list)
    hidden_buckets: list[str] = field(default_factory=list)
    item_metric: str | None = None
    items: list[ItemRow] | None = None
    """None: this viewer may not see per-item figures (yet)."""
    items_matching: int = 0
    which: str = "all"
    filters: dict[str, str] = field(default_factory=dict)
    """The filters of the per-item table (``FILTERS``), none where the kind finds no errors."""
    systems: list[LeaderboardRow] = field(default_factory=list)
    """Every row the viewer's leaderboard lists, secondary systems too: what A and B may be."""


def compare_systems(
    session: Session,
    track: Track,
    system_a: int,
    system_b: int,
    viewer: Viewer,
    *,
    language: str | None = None,
    attribute: str | None = None,
    which: str = "all",
    limit: int | None = ITEM_LIMIT,
    cache: FileCache | None = None,
) -> SystemComparison:
    """System ``system_a`` against ``system_b`` as ``viewer`` may see them."""
    if which not in FILTERS:
        raise DomainError(f"filter must be one of {', '.join(FILTERS)}, got {which!r}")
    language = language or default_language(track)
    test_set = track.test_set_for(language) if language else None
    if test_set is None:
        raise DomainError(f"track {track.slug!r} has no {language!r} test set")
    metrics, rows = leaderboard(
        session, track, viewer=viewer, language=language, include_secondary=True
    )
    by_id = {row.system_id: row for row in rows}
    missing = [str(i) for i in (system_a, system_b) if i not in by_id]
    if missing:
        raise DomainError(f"no system {', '.join(missing)} on this leaderboard")
    a, b = by_id[system_a], by_id[system_b]
    stored = stored_statistics(session, [a.submission_id, b.submission_id])
    if a.submission_id not in stored or b.submission_id not in stored:
        raise DomainError("the per-item statistics of one of the two systems are not stored")
    profile = track.scoring_profile
    packed_a, packed_b = stored[a.submission_id], stored[b.submission_id]
    statistics_a, statistics_b = unpack_statistics(packed_a), unpack_statistics(packed_b)
    loaded = load_test_set(session, test_set.id)
    shown = [m for m in leaderboard_order(metrics, rows, profile) if m in a.scores]
    intervals = viewer.sees_exact_scores_of(track)
    result = SystemComparison(
        a, b, [], intervals, significance=viewer.sees_significance_of(track), which=which,
        systems=rows,
    )  # fmt: skip
    headline = {"": loaded.subsets[""]}
    found = _cached_comparisons(
        profile, (packed_a, packed_b), headline, cache, statistics_a, statistics_b
    )
    teams = (a.team_id, b.team_id)
    result.metrics = _shown(viewer, track, found[""], shown, teams)
    result.choices = breakdown_choices(track, viewer)
    attributes = load_attributes(session, test_set, loaded)
    if attribute:
        if attribute not in result.choices:
            raise DomainError(
                f"track {track.slug!r} breaks down by {', '.join(result.choices) or 'nothing'}, "
                f"not {attribute!r}"
            )
        groups = buckets(attributes, attribute)
        visible = {v: p for v, p in groups.items() if viewer.sees_subset_scores_of(track, len(p))}
        by_bucket = _cached_comparisons(
            profile, (packed_a, packed_b), visible, cache, statistics_a, statistics_b
        )
        result.attribute = attribute
        result.buckets = [
            (
                value,
                len(positions),
                _shown(viewer, track, by_bucket[value], shown, teams, positions),
            )
            for value, positions in visible.items()
        ]
        result.hidden_buckets = [value for value in groups if value not in visible]
    if viewer.sees_item_figures_of(track):
        _add_items(
            session, result, profile, loaded, attributes, (statistics_a, statistics_b), cache
        )
        if not result.filters:
            result.which = "all"  # nothing is known wrong: a filter would not apply
        matching = [item for item in result.items or [] if _matches(item, result.which)]
        result.items_matching = len(matching)
        result.items = matching[:limit] if limit else matching
    return result


def _shown(
    viewer: Viewer,
    track: Track,
    found: list[Comparison],
    shown: list[str],
    teams: tuple[int | None, int | None],
    positions: list[int] | None = None,
) -> list[Difference]:
    """The comparisons of the columns the leaderboard shows, each figure as the disclosure
    rule lets ``viewer`` read it (on the whole test set, or on a bucket's ``positions``)."""
    figure = Figure.HEADLINE if positions is None else Figure.SUBSET
    items = None if positions is None else len(positions)
    differences = []
    for c in sorted((c for c in found if c.metric in shown), key=lambda c: shown.index(c.metric)):
        a = viewer.disclose(track, Hidden(c.score_a, figure, c.metric, teams[0], items))
        b = viewer.disclose(track, Hidden(c.score_b, figure, c.metric, teams[1], items))
        if a is None or b is None:
            continue
        opened = [
            viewer.disclose(track, Hidden(value, kind, c.metric, None, items))
            for value, kind in (
                (c.difference, Figure.SIGNIFICANCE),
                (c.p_value, Figure.SIGNIFICANCE),
                (c.low, Figure.INTERVAL),
                (c.high, Figure.INTERVAL),
            )
        ]
        differences.append(Difference(c.metric, a, b, *opened))
    return differences


def leaderboard_order(
    metrics: list[str], rows: list[LeaderboardRow], profile: Profile
) -> list[str]:
    """The metric columns left to right as the leaderboard prints them (grouped as
    ``columns``): the comparison reads in the order the reader met the numbers in."""
    grouped = columns(metrics, rows, profile)
    return [column.name for _, group in grouped for column in group if column.source == "scores"]


def _cached_comparisons(
    profile: Profile,
    packed: tuple[bytes, bytes],
    groups: dict[str, list[int]],
    cache: FileCache | None,
    statistics_a: dict[str, np.ndarray],
    statistics_b: dict[str, np.ndarray],
) -> dict[str, list[Comparison]]:
    """``paired_bootstrap`` on each group of item positions, kept in the file cache."""

    def compute() -> bytes:
        found = {}
        for value, positions in groups.items():
            index = np.asarray(positions, dtype=int)
            found[value] = [
                asdict(c)
                for c in paired_bootstrap(
                    profile,
                    {m: rows[index] for m, rows in statistics_a.items() if m in statistics_b},
                    {m: rows[index] for m, rows in statistics_b.items() if m in statistics_a},
                )
            ]
        return json.dumps(found).encode()

    key = [
        *(hashlib.sha256(data).hexdigest() for data in packed),
        profile.name,
        hashlib.sha256(json.dumps(groups, sort_keys=True).encode()).hexdigest(),
        SAMPLES,
        SEED,
    ]
    data = cache.get_or_make("comparisons", key, ".json", compute) if cache else compute()
    return {value: [Comparison(**c) for c in found] for value, found in json.loads(data).items()}


def _add_items(
    session: Session,
    result: SystemComparison,
    profile: Profile,
    loaded: LoadedTestSet,
    attributes: list[dict[str, str]],
    statistics: tuple[dict[str, np.ndarray], dict[str, np.ndarray]],
    cache: FileCache | None,
) -> None:
    """Every item with both outputs, their item-level figures, the references, sorted by the
    difference (largest first)."""
    position = {item_id: k for k, item_id in enumerate(loaded.item_ids)}
    outputs = []
    for row in (result.a, result.b):
        texts = [""] * len(loaded.item_ids)
        for item_id, text in outputs_by_item(session, row.submission_id).items():
            texts[position[item_id]] = text
        outputs.append(texts)
    references: ReferenceSet = loaded.references
    metric, figures, rising, wrong = item_figures(profile, references, outputs, statistics, cache)
    sign = 1.0 if rising else -1.0
    inputs = references.inputs or [""] * len(outputs[0])
    items = [
        ItemRow(
            k + 1,
            inputs[k],
            outputs[0][k],
            outputs[1][k],
            figures[0][k],
            figures[1][k],
            sign * (figures[0][k] - figures[1][k]),
            wrong[0][k] if wrong else None,
            wrong[1][k] if wrong else None,
            list(references[k]),
            attributes[k],
        )
        for k in range(len(outputs[0]))
    ]
    items.sort(key=lambda item: (-abs(item.difference), item.position))
    result.item_metric, result.items = metric, items
    result.filters = FILTERS if wrong else {}


def item_figures(
    profile: Profile,
    references: ReferenceSet,
    outputs: list[list[str]],
    statistics: tuple[dict[str, np.ndarray], ...],
    cache: FileCache | None = None,
) -> tuple[str, list[list[float]], bool, list[list[bool]] | None]:
    """The item-level figure of each system's outputs (the kind's own item metric, else SER,
    else sentence chrF), whether higher is better, and which outputs are wrong (None: the
    kind finds no errors per item)."""
    metric_id = next(iter(profile.item_metrics), None) or (
        "SER" if "SER" in profile.metrics else None
    )
    if metric_id is not None and all(metric_id in s for s in statistics):
        metric = get_metric(metric_id)
        figures = [profile.item_scores(s, metric_id) for s in statistics]
    else:
        metric = get_metric(SENTENCE_METRIC)
        figures = [sentence_scores(texts, references, cache) for texts in outputs]
    wrong = [[value > 0 for value in values] for values in figures]
    return metric.name, figures, metric.higher_is_better, wrong if metric.name == FINDINGS else None


def sentence_scores(
    texts: list[str], references: ReferenceSet, cache: FileCache | None = None
) -> list[float]:
    """Sentence chrF of each output, kept in the file cache under the texts' hash."""
    metric = get_metric(SENTENCE_METRIC)

    def compute() -> bytes:
        rows = metric.segment_statistics(texts, references)
        return json.dumps([float(metric.score_from_totals(row)) for row in rows]).encode()

    key = [
        metric.signature,
        hashlib.sha256(json.dumps(texts).encode()).hexdigest(),
        hashlib.sha256(json.dumps([list(refs) for refs in references]).encode()).hexdigest(),
    ]
    data = cache.get_or_make("item-figures", key, ".json", compute) if cache else compute()
    return json.loads(data)


def _matches(item: ItemRow, which: str) -> bool:
    a, b = bool(item.wrong_a), bool(item.wrong_b)
    if which == "only-a":
        return a and not b
    if which == "only-b":
        return b and not a
    if which == "both":
        return a and b
    return True


WITHHELD = ("low", "high", "difference", "p_value")
"""Keys the API leaves out where the viewer may not see them (before publication)."""


def comparison_json(found: SystemComparison) -> dict:
    """The comparison as the API gives it (``items`` null while per-item figures are hidden)."""

    def side(row: LeaderboardRow) -> dict:
        return {"system_id": row.system_id, "system": row.system, "team": row.team,
                "label": row.label, "baseline": row.is_baseline}  # fmt: skip

    def differences(rows: list[Difference]) -> list[dict]:
        return [
            {k: v for k, v in asdict(d).items() if v is not None or k not in WITHHELD} for d in rows
        ]

    return {
        "a": side(found.a),
        "b": side(found.b),
        "metrics": differences(found.metrics),
        "attribute": found.attribute,
        "attributes": found.choices,
        "buckets": [
            {"value": value, "items": items, "metrics": differences(rows)}
            for value, items, rows in found.buckets
        ],
        "hidden_buckets": found.hidden_buckets,
        "item_metric": found.item_metric,
        "filter": found.which,
        "items_matching": found.items_matching if found.items is not None else None,
        "items": None if found.items is None else [asdict(item) for item in found.items],
    }
