"""Significance heatmaps of pairwise human-score tests (SR'18 Figures 4-6), drawn as SVG.

A cell is green when the system of its row scores significantly higher than the system of its
column (p < 0.05), darker for smaller p (shade by -log10 p, full at p <= 0.0001); other cells are
left light grey.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np

from scorer.extras import require

ALPHA = 0.05
DARKEST_P = 1e-4


def shade(p: float) -> float:
    """0 for no significance, up to 1 at p <= 0.0001."""
    if math.isnan(p) or p >= ALPHA:
        return 0.0
    low, high = -math.log10(ALPHA), -math.log10(DARKEST_P)
    return 0.25 + 0.75 * min(1.0, (-math.log10(max(p, 1e-300)) - low) / (high - low))


def heatmap_svg(systems: Sequence[str], p_values: np.ndarray, title: str = "") -> str:
    matplotlib = require("matplotlib", "human", "the significance heatmap")
    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False  # system names are plain text
    pyplot = require("matplotlib.pyplot", "human", "the significance heatmap")
    colormap = require("matplotlib.colors", "human", "the significance heatmap")

    size = len(systems)
    shades = np.array([[shade(p_values[i, j]) for j in range(size)] for i in range(size)])
    colours = colormap.LinearSegmentedColormap.from_list(
        "significance", ["#eeeeee", "#a6dba0", "#00441b"]
    )
    figure, axes = pyplot.subplots(figsize=(1.2 + 0.45 * size, 1.0 + 0.45 * size))
    try:
        axes.imshow(shades, cmap=colours, vmin=0, vmax=1)
        axes.set_xticks(range(size), systems, rotation=90)
        axes.set_yticks(range(size), systems)
        axes.tick_params(length=0)
        if title:
            axes.set_title(title)
        figure.tight_layout()
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
        return buffer.getvalue()
    finally:
        pyplot.close(figure)
