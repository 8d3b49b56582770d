"""The one disclosure rule: what anyone but a challenge's organisers may learn of a figure
computed from its hidden references, and the sealed value that carries the figure's class from
where it is computed to the one place that opens it (``Viewer.disclose``).

Before a test phase's results are published, a team learns per upload only the whole-test-set
value of each ranking metric of its own systems, rounded as the published table prints it, within
the daily limit. Nothing else computed from the hidden references: no subset or breakdown figure,
interval, p-value, significance group, rank among its own systems, per-item figure or comparison.
Any figure on fewer items than the test set, or that crafted outputs can isolate (a bucket, a
subset and its complement, a paired difference's p-value), is an oracle on the references.
In the development phase and once the results are published every figure is open, except
per-item figures (and subsets too small to be anything else), which wait for the test results.
An organiser may declare a public part of the test set (Kaggle's public leaderboard): every
team's scores on it, their intervals and significance are open to everyone in the test phase;
the headline on every item stays hidden until publication and is the final ranking.

``Hidden`` has no ``float()``, ``str()``, ``format()`` or arithmetic: a template, a JSON or CSV
writer, a plot or a mail that is handed one fails instead of printing it. Only ``reveal`` (called
by ``Viewer.disclose``, which applies the rule) gives its number.

What is computed elsewhere and stored (an organiser's similarity matrix or split report, the
references' statistics, a submission's per-item statistics) is sealed where it is stored: its
column's type (``SealedJSON``, ``SealedBytes``) hands out a ``Sealed`` analysis, never the
numbers, and ``Viewer.disclose`` opens it as it opens a ``Hidden`` figure. A service that computes
a new figure from stored statistics (a breakdown, an interval, a p-value) takes the content with
``computing_from`` and seals what it computes; ``tests/app/data/test_sealed_at_rest.py`` holds
the modules that may call it to a list.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NoReturn

from sqlalchemy import JSON, LargeBinary
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from app.data.errors import Undisclosed


class Figure(Enum):
    """What a number computed from hidden references is, for the rule."""

    HEADLINE = "the whole-test-set value of a ranking metric"
    SUBSET = "a subset's, challenge set's or breakdown bucket's value"
    INTERVAL = "a confidence interval"
    SIGNIFICANCE = "a p-value, significance group or rank among systems"
    ITEM = "a per-item figure"
    REFERENCE = "a statistic of the references themselves"
    ANALYSIS = "an organiser's analysis against the references (a similarity matrix)"
    QUOTING = "an analysis that quotes the hidden references (a split report's closest pairs)"


class Disclosure(Enum):
    NONE = "not shown"
    ROUNDED = "rounded as the published table prints it"
    EXACT = "exact"


class Hidden:
    """A number computed from hidden references, sealed with what it is (``figure``), the
    column it belongs to (for rounding), the team whose outputs it scores (None: several
    teams', or a baseline's) and the items it is computed on where fewer than the test set.
    Not a dataclass: ``dataclasses.asdict`` and Flask's JSON encoder would open those."""

    __slots__ = ("_value", "column", "figure", "items", "public_part", "team_id")

    def __init__(
        self,
        value: float,
        figure: Figure,
        column: str = "",
        team_id: int | None = None,
        items: int | None = None,
        public_part: bool = False,
    ) -> None:
        self._value = value
        self.figure = figure
        self.column = column
        self.team_id = team_id
        self.items = items
        self.public_part = public_part
        """Computed on the test set's declared public part alone (``testsets.PUBLIC_PART``)."""

    def reveal(self) -> float:
        """The number: for ``Viewer.disclose`` only (the rule is applied there)."""
        return self._value

    def _refuse(self, *_: Any) -> NoReturn:
        raise Undisclosed(
            f"{self.figure.value} ({self.column or 'a column'}) computed from hidden references "
            "reached an output without Viewer.disclose"
        )

    __float__ = __int__ = __index__ = __bool__ = __str__ = __format__ = _refuse
    __round__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __lt__ = __le__ = __gt__ = __ge__ = __neg__ = _refuse

    def __repr__(self) -> str:
        return f"<hidden {self.figure.name.lower()} {self.column}>"


def seal(
    values: dict[str, float],
    figure: Figure,
    team_id: int | None = None,
    items: int | None = None,
    public_part: bool = False,
) -> dict[str, Hidden]:
    """Column -> value, each sealed as ``figure``."""
    return {
        column: Hidden(v, figure, column, team_id, items, public_part)
        for column, v in values.items()
    }


def refuse_hidden(value: Any) -> Any:
    """The output path's guard (templates' finalize, the JSON provider, CSV cells): a hidden
    figure never leaves the board unopened."""
    if isinstance(value, Hidden):
        value._refuse()
    return value


class Sealed:
    """A stored analysis computed from hidden references, as its column hands it out: no
    item access, iteration, truth value or text, so a page, an export or a plot handed one
    fails instead of showing it. ``Viewer.disclose`` opens it (as a whole: an analysis is
    shown whole or not at all, and it is on the whole test set or it is a per-item figure)."""

    __slots__ = ("_content", "figure")

    def __init__(self, content: Any, figure: Figure) -> None:
        self._content = content
        self.figure = figure

    def reveal(self) -> Any:
        """The content: for ``Viewer.disclose`` (and ``computing_from``) only."""
        return self._content

    def _refuse(self, *_: Any) -> NoReturn:
        raise Undisclosed(
            f"{self.figure.value} stored from hidden references reached an output without "
            "Viewer.disclose"
        )

    __getitem__ = __iter__ = __len__ = __contains__ = __bool__ = __str__ = _refuse
    __format__ = __float__ = __bytes__ = _refuse

    def __repr__(self) -> str:
        return f"<sealed {self.figure.name.lower()}>"


def computing_from(sealed: Sealed) -> Any:
    """The content of a stored analysis for a service that computes a new figure from it and
    seals that figure (``seal``) before anything shows it: breakdowns, intervals, paired
    tests. Never hand what this returns to an output."""
    return sealed.reveal()


class _SealedColumn(TypeDecorator):
    """A column whose stored value is sealed as ``figure`` when it is read: what is written
    is the plain value (or a ``Sealed`` one read before)."""

    cache_ok = True

    def __init__(self, figure: Figure) -> None:
        super().__init__()
        self.figure = figure

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return value.reveal() if isinstance(value, Sealed) else value

    def process_result_value(self, value: Any, dialect: Dialect) -> Sealed | None:
        return None if value is None else Sealed(value, self.figure)


class SealedJSON(_SealedColumn):
    impl = JSON
    cache_ok = True


class SealedBytes(_SealedColumn):
    impl = LargeBinary
    cache_ok = True
