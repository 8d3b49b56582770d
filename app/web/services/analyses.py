"""Organisers' stored analyses of a test set (the system-similarity matrix, the train/test split
report), opened for one viewer through the one disclosure rule and named as that viewer names
the systems.

Both are computed from the hidden references, so they are stored sealed (``SealedJSON``). The
matrix's "test set all" / "test set rand" rows are each system's similarity to them: only the
organisers see it before a test phase's results are published, and it is keyed by system id (a
name says nothing about whose system it is, and two teams may both call theirs "primary"). The
split report quotes references beside their nearest training texts: its organisers' alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from app.data.disclosure import Figure
from app.data.models import TEST, TestSet, Track
from app.data.visibility import Viewer
from app.web.services.leaderboard import default_language, leaderboard
from scorer.compare.similarity import REFERENCE_ROWS, SimilarityMatrix


@dataclass(frozen=True)
class SimilarityView:
    """The matrix as one viewer may see it: rows (the references' two rows, then systems) and
    tested systems labelled "team / system" as that viewer's leaderboard labels them."""

    rows: list[str]
    tested: list[str]
    values: list[list[float | None]]


def _test_set(track: Track, language: str | None) -> TestSet | None:
    return track.test_set_for(language or default_language(track))


def split_report(track: Track, language: str | None, viewer: Viewer) -> dict | None:
    """The train/test overlap report, when one is stored and ``viewer`` may read it."""
    test_set = _test_set(track, language)
    if test_set is None or test_set.split_report is None:
        return None
    report: dict | None = viewer.disclose(track, test_set.split_report)
    return report


def has_similarity(track: Track, language: str | None, viewer: Viewer) -> bool:
    test_set = _test_set(track, language)
    return (
        test_set is not None and test_set.similarity is not None and viewer.sees_analyses_of(track)
    )


def similarity_view(
    session: Session, track: Track, language: str | None, viewer: Viewer
) -> SimilarityView | None:
    """The stored matrix restricted to the systems ``viewer``'s leaderboard lists (two at
    least), or None."""
    test_set = _test_set(track, language)
    if test_set is None or test_set.similarity is None:
        return None
    matrix: dict[str, Any] | None = viewer.disclose(track, test_set.similarity)
    if matrix is None:
        return None
    _, rows = leaderboard(
        session, track, viewer=viewer, language=test_set.language, include_secondary=True
    )
    label = {row.system_id: row.label for row in rows}
    tested = [k for k, system_id in enumerate(matrix["tested"]) if system_id in label]
    if len(tested) < 2:
        return None
    kept = [r for r, name in enumerate(matrix["rows"]) if name in REFERENCE_ROWS or name in label]
    return SimilarityView(
        rows=[_row_label(matrix["rows"][r], label) for r in kept],
        tested=[label[matrix["tested"][k]] for k in tested],
        values=[[matrix["values"][r][k] for k in tested] for r in kept],
    )


def _row_label(name: str | int, label: dict[int, str]) -> str:
    return name if isinstance(name, str) else label[name]


def stored_similarity(matrix: SimilarityMatrix) -> dict[str, Any]:
    """What is stored of a matrix computed on systems named by their ids (as strings, the
    scorer's names): the ids as numbers, the reference rows by name."""

    def key(name: str) -> str | int:
        return name if name in REFERENCE_ROWS else int(name)

    return {
        "rows": [key(name) for name in matrix.rows],
        "tested": [int(name) for name in matrix.tested],
        "values": matrix.values,
        "signature": matrix.signature,
        "means": {name: matrix.mean(name) for name in matrix.tested},
    }


def when_public(track: Track, figure: Figure = Figure.ANALYSIS) -> str:
    """What the organiser CLI says after storing an analysis: who sees it, and from when."""
    if figure is Figure.QUOTING:
        return "it quotes the hidden references, so the track's organisers alone ever see it"
    if track.phase == TEST and not track.is_published:
        return (
            "organisers alone see it (the track page and its plot) until the test results are "
            "published; then everyone whose leaderboard lists its systems does"
        )
    if track.phase == TEST:
        return "the test results are published: everyone whose leaderboard lists its systems sees it now"
    return (
        "development phase: everyone whose leaderboard lists its systems sees it now; when the "
        "track's test phase opens it is organisers-only until the results are published"
    )
