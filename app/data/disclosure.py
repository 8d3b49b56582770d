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
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NoReturn

from app.data.errors import Undisclosed


class Figure(Enum):
    """What a number computed from hidden references is, for the rule."""

    HEADLINE = "the whole-test-set value of a ranking metric"
    SUBSET = "a subset's, challenge set's or breakdown bucket's value"
    INTERVAL = "a confidence interval"
    SIGNIFICANCE = "a p-value, significance group or rank among systems"
    ITEM = "a per-item figure"
    REFERENCE = "a statistic of the references themselves"


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
