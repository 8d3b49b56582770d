"""The track page's figures, drawn with matplotlib as SVG and cached by their data.

Every plot is built from the publication view (anonymised systems are "anonymous"), so an
image saved from the page can be passed on. matplotlib's object API (``Figure``) is used, not
pyplot, whose global state is not safe under a threaded web server.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from scorer.compare.significance import SAMPLES
from scorer.describe import dlevel

if TYPE_CHECKING:
    from matplotlib.figure import Figure

STYLE = "plots-3"
"""Part of every cached plot's key: change it when a drawing changes, and old files go unused."""

BASELINE_COLOUR = "#999999"
SYSTEM_COLOUR = "#3b6ea8"


@cache
def _matplotlib() -> Any:
    """matplotlib, loaded with the first plot (half a second that pages without plots and the
    CLI need not pay). System names are labels: plain text, never mathtext (a name like
    ``$\\foo{$`` would fail every plot of its track)."""
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams["text.parse_math"] = False
    return Figure


def _figure(**options: Any) -> Figure:
    figure: Figure = _matplotlib()(**options)
    return figure


def _svg(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def metric_bars(
    column: str,
    labels: Sequence[str],
    values: Sequence[float],
    intervals: Sequence[tuple[float, float] | None],
    baselines: Sequence[bool],
) -> bytes:
    """One horizontal bar per system (best at the top) with its 95% bootstrap interval, where
    one is given."""
    count = len(labels)
    figure = _figure(figsize=(6.4, 0.9 + 0.32 * count))
    axes = figure.add_subplot()
    positions = np.arange(count)[::-1]
    axes.barh(
        positions,
        values,
        color=[BASELINE_COLOUR if b else SYSTEM_COLOUR for b in baselines],
        height=0.7,
    )
    for y, value, interval in zip(positions, values, intervals, strict=True):
        if interval is not None:
            axes.errorbar(
                value,
                y,
                xerr=[[value - interval[0]], [interval[1] - value]],
                color="black",
                capsize=3,
                linewidth=1,
            )
    axes.set_yticks(positions, labels)
    drawn = any(interval is not None for interval in intervals)
    axes.set_xlabel(
        f"{column} (bars: 95% bootstrap interval, {SAMPLES} resamples)" if drawn else column
    )
    axes.spines[["top", "right"]].set_visible(False)
    figure.tight_layout()
    return _svg(figure)


def dlevel_bars(labels: Sequence[str], shares: Sequence[Sequence[float]]) -> bytes:
    """E2E Fig. 4: each system's share of sentences at each D-level, stacked to 100%."""
    count = len(labels)
    figure = _figure(figsize=(7.0, max(2.6, 1.0 + 0.32 * count)))
    axes = figure.add_subplot()
    positions = np.arange(count)[::-1]
    left = np.zeros(count)
    colours = [
        (0.85 - 0.1 * level, 0.9 - 0.08 * level, 1.0 - 0.05 * level) for level in dlevel.LEVELS
    ]
    for level, colour in zip(dlevel.LEVELS, colours, strict=True):
        widths = np.array([row[level] for row in shares])
        axes.barh(positions, widths, left=left, color=colour, label=str(level), height=0.7)
        left += widths
    axes.set_yticks(positions, labels)
    axes.set_xlim(0, 100)
    axes.set_xlabel("% of sentences at each D-level")
    axes.legend(title="level", loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    figure.tight_layout()
    return _svg(figure)


def similarity_heatmap(
    rows: Sequence[str], tested: Sequence[str], values: Sequence[Sequence[float | None]]
) -> bytes:
    """E2E Fig. 5: how similar each tested system's outputs are to each row's (system or
    references), as the normalised average of the overlap metrics."""
    matrix = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    figure = _figure(figsize=(1.6 + 0.45 * len(tested), 1.2 + 0.45 * len(rows)))
    axes = figure.add_subplot()
    image = axes.imshow(matrix, cmap="viridis", vmin=0, vmax=max(1.0, float(np.nanmax(matrix))))
    axes.set_xticks(range(len(tested)), tested, rotation=90)
    axes.set_yticks(range(len(rows)), rows)
    axes.set_xlabel("tested system")
    axes.set_ylabel("reference")
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04)
    figure.tight_layout()
    return _svg(figure)


def human_scatter(
    metric: str, human: str, labels: Sequence[str], x: Sequence[float], y: Sequence[float]
) -> bytes:
    """A metric against a human score, one labelled point per system, with Pearson's r."""
    figure = _figure(figsize=(6.0, 4.5))
    axes = figure.add_subplot()
    axes.scatter(x, y, color=SYSTEM_COLOUR)
    for label, a, b in zip(labels, x, y, strict=True):
        axes.annotate(label, (a, b), textcoords="offset points", xytext=(4, 3), fontsize="small")
    if len(x) >= 3:
        r = float(np.corrcoef(x, y)[0, 1])
        axes.set_title(f"Pearson r = {r:.3f} over {len(x)} systems")
    axes.set_xlabel(metric)
    axes.set_ylabel(human)
    figure.tight_layout()
    return _svg(figure)
