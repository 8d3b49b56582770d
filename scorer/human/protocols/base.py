"""What a human-evaluation protocol is: everything a board or a script needs to run one.

A protocol (RankME, Direct Assessment, ROSE, Likert, pairwise preference) is the human side's
plug-in, as a track kind is the metrics': it carries how its judgements are laid out in a file
and on an annotator's page, its criteria and their scales, its analysis (over the modules of
``scorer.human``), the columns of its results table, its level of agreement and the cluster
procedures it allows. Whoever runs a campaign asks the protocol instead of naming it, so a new
protocol is one module here and one unit template, not a branch in every caller.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorer.human.agreement import Agreement, of_judgements
from scorer.human.judgements import Judgement

NO_CLUSTERS = "none"
"""The cluster procedure of a protocol whose tables have none (ROSE's percentages)."""

Answers = dict[tuple[int, str], float]
"""(slot of the text on the page, criterion) -> the score an annotator gave."""


@dataclass(frozen=True)
class Criterion:
    """One question a campaign asks, and what its page shows by default."""

    name: str
    shows_input: bool = True
    shows_reference: bool = False
    scale: str = "0-100"
    """The points a judge picks from: ``0-100`` (a slider), ``0-1`` (yes/no), ``1-3``..."""
    direction: str = "higher"
    """Which end of the scale is better, as the annotators' page says."""


@dataclass(frozen=True)
class Settings:
    """What a campaign says about its own analysis."""

    criterion: str
    clusters: str
    quality_control: str = "none"
    runs: int | None = None
    """Resamples for protocols that bootstrap (RankME, pairwise); None: the protocol's own."""
    judges: int | None = None
    """Annotators each unit was meant to have (agreement's completeness)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The protocol's own choices, as ``Protocol.read_options`` returns them (Likert: its
    criteria's scales and directions, the judges' aggregate; pairwise: ties); empty: its
    defaults."""
    attributes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Item -> its attributes (category, size, seen / unseen): what a protocol that reports
    means by attribute splits them by."""


@dataclass(frozen=True)
class Table:
    """A results table as its paper prints it: columns and, per system best first, its subject
    key, its cells as printed and its significance cluster (None without clusters)."""

    columns: list[str]
    rows: list[tuple[str, list, int | None]] = field(default_factory=list)


class Protocol(ABC):
    """The registry's entries (``scorer.human.protocols.PROTOCOLS``); one instance each."""

    name: ClassVar[str]
    title: ClassVar[str]
    caption: ClassVar[str]
    """What a results table's columns are, printed above it."""
    criteria: ClassVar[dict[str, Criterion]]
    """The criteria a campaign collected on a board may ask (imports may bring others)."""
    asks_all_criteria: ClassVar[bool] = False
    """One page asks every criterion (ROSE, Likert) rather than the campaign's one."""
    layout: ClassVar[str] = "single"
    """How outputs are put on pages: ``single`` (one output), ``ranking`` (several systems'
    outputs of one input), ``controlled`` (single, with quality-control copies), ``pair``."""
    hit_size: ClassVar[int] = 20
    minimum_systems: ClassVar[int] = 1
    import_columns: ClassVar[tuple[str, ...]] = (
        "item",
        "system",
        "annotator",
        "criterion",
        "score",
    )
    import_note: ClassVar[str] = ""
    agreement_level: ClassVar[str] = "interval"
    clusters: ClassVar[tuple[str, ...]] = (NO_CLUSTERS,)
    """The cluster procedures a campaign of this protocol may name, its default first."""
    scored: ClassVar[bool] = True
    """Whether a judgement is a score of one output (DA, Likert, RankME), so an automatic
    judge's scores can be set beside the humans' (``scorer.human.judge``); not a preference
    between two outputs (pairwise) or a yes/no answer (ROSE)."""
    quality_controls: ClassVar[bool] = False
    """Whether campaigns carry Direct Assessment's quality control units."""
    one_criterion: ClassVar[bool] = False
    """Whether the analysis reads only the campaign's criterion (judgements of another one are
    refused in a bundle and left out of an import)."""

    option_fields: ClassVar[tuple[str, ...]] = ()
    """The options a campaign of this protocol may set (``read_options``), by name; a form or
    command line offers every protocol's and hands this one only its own."""

    def read_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The campaign's options as stored (normalised; the defaults left out), read from a
        form's or command line's text or from stored JSON alike; a ValueError says what is
        wrong. A protocol without options refuses any."""
        if given:
            raise ValueError(f"{self.title} takes no options (given: {', '.join(sorted(given))})")
        return {}

    def questions(self, options: Mapping[str, Any]) -> list[Criterion]:
        """The criteria a campaign with ``options`` asks on one annotator's page."""
        return list(self.criteria.values())

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """The options in a line a results page, an export's header or a CLI prints."""
        return ""

    @property
    def default_clusters(self) -> str:
        return self.clusters[0]

    def check_clusters(self, name: str) -> str:
        """``name`` if this protocol allows it, else a ValueError saying which it does."""
        if name not in self.clusters:
            raise ValueError(
                f"cluster procedure {name!r} is not one {self.title} allows "
                f"({', '.join(self.clusters)})"
            )
        return name

    @abstractmethod
    def read(self, data: bytes, filename: str, criterion: str) -> tuple[list[Judgement], dict]:
        """A file of judgements in this protocol's layout, as rows of the long layout, and
        notes on what reading it changed; InputError names the line that is refused."""

    @abstractmethod
    def analyse(self, judgements: Sequence[Judgement], settings: Settings) -> dict:
        """The results (JSON), systems keyed as the judgements name them; ValueError or
        InputError when they cannot be analysed."""

    def agreement(self, judgements: Sequence[Judgement], settings: Settings) -> Agreement:
        """Krippendorff's alpha at this protocol's level: a unit is one output under one
        criterion, its coders the annotators."""
        return of_judgements(judgements, self.agreement_level, judges=settings.judges)

    @abstractmethod
    def headline(self, criterion: str) -> tuple[str, str]:
        """(the leaderboard column's name, the results rows' key of its value)."""

    @abstractmethod
    def values(self, results: Mapping) -> dict[str, float]:
        """System -> the figure set against the automatic metrics (correlation, plots)."""

    def headline_rows(self, results: Mapping) -> list[dict]:
        """The results rows holding the headline figure, one per system."""
        return list(results.get("systems", []))

    @abstractmethod
    def table(self, results: Mapping) -> Table:
        """The results table, as the protocol's paper prints it."""

    @abstractmethod
    def answers(self, slots: Sequence[int], settings: Settings, form: Mapping[str, str]) -> Answers:
        """An annotator's page (form fields) as scores; ValueError says what to fix."""

    @abstractmethod
    def score_error(self, score: float, imported: bool) -> str | None:
        """Why ``score`` is not one of this protocol's values (a bundle's judgement), as the
        rest of the sentence "score '5'...", or None."""

    def judge_score_error(self, score: float) -> str | None:
        """Why ``score`` (finite) cannot be an automatic judge's score of this protocol's
        outputs (a bundle's judge), as ``score_error`` says it, or None: what no layout the
        judge's import reads would store. A judge's scores always come from a file, so the
        values a file's judgements keep are kept (RankME's outside 0-100, read from E2E's
        layout)."""
        return self.score_error(score, imported=True)


def cell(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def rank_range(ranks: Sequence[int]) -> str:
    return f"{ranks[0]}–{ranks[1]}"
