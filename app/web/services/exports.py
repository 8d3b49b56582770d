"""A track's results as files to pass on: CSV, JSON and LaTeX in the papers' layouts (E2E
Table 8; SR'18 Tables 3-5). Built from the publication view, so anonymised systems are
"anonymous" and withdrawn ones absent whoever downloads them; every file names its signatures."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import System, Track
from app.web.services.access import Viewer
from app.web.services.columns import beats_baseline
from app.web.services.csv_cells import csv_cell
from app.web.services.leaderboard import LeaderboardRow, default_language, leaderboard
from app.web.services.names import printable
from app.web.services.overview import Overview
from scorer.kinds import Profile

CONTEXT_FIELDS = ("challenge", "track", "language", "phase", "values")
ROW_FIELDS = ("rank", "group", "system", "team", "baseline", "primary", "late", "architecture")


@dataclass(frozen=True)
class TrackTable:
    challenge: str
    track: str
    language: str | None
    phase: str
    published: bool
    metrics: list[str]
    rows: list[LeaderboardRow]
    signatures: dict[str, list[str]]
    beats: set[tuple[int, str]]
    notes: dict[int, str]
    """Baseline system id -> what it is (a bundled run: retrained here, not the paper's run)."""
    profile: Profile
    exact: bool
    """Whether the values are the stored ones to every digit (else as the published table
    rounds them: a team's own scores before publication)."""

    @property
    def values(self) -> str:
        """What the numbers in a CSV or JSON file are, said in the file."""
        if self.exact:
            return "full precision (as stored, on the stored scale)"
        return "rounded as the published table prints them, on the stored scale"

    def printing(self) -> dict[str, dict]:
        """Per metric: how the published table prints it (decimals, cut or rounded, factor)."""
        return {
            m: {
                "decimals": self.profile.decimals_of(m),
                "truncated": m in self.profile.truncated_columns,
                "scale": self.profile.scale.get(m, 1.0),
                "rule": self.profile.printing(m),
            }
            for m in self.metrics
        }


def track_table(
    session: Session,
    track: Track,
    viewer: Viewer,
    language: str | None = None,
    include_secondary: bool = False,
) -> TrackTable:
    from app.web.services.rank_groups import assign_rank_groups

    language = language or default_language(track)
    metrics, rows = leaderboard(
        session,
        track,
        viewer=viewer.for_publication(),
        language=language,
        include_secondary=include_secondary,
    )
    profile = track.scoring_profile
    if profile.primary_metric in metrics:
        assign_rank_groups(session, track, rows, profile.primary_metric, viewer.for_publication())
    signatures = {
        metric: sorted({row.signatures[metric] for row in rows if metric in row.signatures})
        for metric in metrics
    }
    return TrackTable(
        track.challenge.slug,
        track.slug,
        language,
        track.phase,
        track.scores_public,
        metrics,
        rows,
        signatures,
        beats_baseline(rows, metrics, profile),
        baseline_notes(session, rows),
        profile,
        viewer.for_publication().sees_exact_scores_of(track),
    )


def baseline_notes(session: Session, rows: list[LeaderboardRow]) -> dict[int, str]:
    """The organisers' descriptions of the baselines shown (teams' descriptions stay on their
    system pages: an anonymised system's could name its team)."""
    ids = [row.system_id for row in rows if row.is_baseline]
    if not ids:
        return {}
    found = session.execute(
        select(System.id, System.description).where(
            System.id.in_(ids), System.is_baseline.is_(True)
        )
    )
    return {system_id: text for system_id, text in found if text}


def _fields(row: LeaderboardRow) -> list:
    return [
        row.rank,
        row.rank_group or "",
        row.system,
        row.team or "",
        row.is_baseline,
        row.is_primary,
        row.is_late,
        row.architecture,
    ]


def _printed(table: TrackTable, row: LeaderboardRow, metric: str) -> str:
    value = row.scores.get(metric)
    return "" if value is None else table.profile.printed(metric, value)


def to_csv(table: TrackTable) -> str:
    """Plain CSV, one header row and one row per system, as ``pandas.read_csv`` and
    spreadsheets read it: each metric's value as stored (to every digit the viewer may see:
    ``values`` says which), as the published table prints it ("BLEU printed") and its
    signature ("BLEU signature") in columns of their own, the track, language and phase in
    columns too (no ``#`` comment lines)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            *CONTEXT_FIELDS,
            *ROW_FIELDS,
            *table.metrics,
            *(f"{metric} printed" for metric in table.metrics),
            *(f"{metric} signature" for metric in table.metrics),
            "note",
        ]
    )
    context = [table.challenge, table.track, table.language or "", table.phase, table.values]
    for row in table.rows:
        values = [row.scores.get(m, "") for m in table.metrics]
        signatures = [row.signatures.get(m, "") for m in table.metrics]
        note = csv_cell(table.notes.get(row.system_id, ""))
        printed = [_printed(table, row, m) for m in table.metrics]
        writer.writerow(
            [csv_cell(v) for v in (*context, *_fields(row))]
            + values
            + printed
            + signatures
            + [note]
        )
    return out.getvalue()


def to_json(table: TrackTable) -> dict:
    return {
        "challenge": table.challenge,
        "track": table.track,
        "language": table.language,
        "phase": table.phase,
        "published": table.published,
        "metrics": table.metrics,
        "signatures": table.signatures,
        "values": table.values,
        "printing": table.printing(),
        "rows": [
            {
                **dict(zip(ROW_FIELDS, _fields(row), strict=True)),
                "rank": int(row.rank.rstrip("=")) if row.rank else None,
                "tied": row.rank.endswith("="),
                "label": row.label,
                "scores": row.scores,
                "printed": {m: _printed(table, row, m) for m in table.metrics if m in row.scores},
                "beats_baseline": [m for m in table.metrics if (row.system_id, m) in table.beats],
                "note": table.notes.get(row.system_id, ""),
            }
            for row in table.rows
        ],
    }


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """Special characters escaped; control and text-direction characters (in names stored
    before they were refused) dropped: a line break would end the table row."""
    return "".join(LATEX_SPECIALS.get(c, c) for c in printable(text))


def to_latex(table: TrackTable) -> str:
    """E2E Table 8's layout: one row per system, the baseline first, values better than the
    baseline in bold, * for late submissions; the place on the sort metric (ties "1=") and the
    significance group beside each name; signatures as comments."""
    rows = sorted(table.rows, key=lambda row: not row.is_baseline)
    lines = [f"% {table.challenge}/{table.track} ({table.language}), phase {table.phase}"]
    lines += [f"% {m} printed {table.profile.printing(m)}" for m in table.metrics]
    lines += [f"% {m}: {s}" for m, sigs in table.signatures.items() for s in sigs]
    lines += [
        r"\begin{tabular}{rrl" + "r" * len(table.metrics) + "}",
        r"\hline",
        " & ".join(["Rank", "Group", "System", *(latex_escape(m) for m in table.metrics)]) + r" \\",
        r"\hline",
    ]
    for row in rows:
        name = latex_escape(row.label) + ("*" if row.is_late else "")
        if row.is_baseline:
            name = r"\textsc{" + name + "}"
        cells = []
        for metric in table.metrics:
            value = row.scores.get(metric)
            cell = "--" if value is None else table.profile.printed(metric, value)
            if (row.system_id, metric) in table.beats:
                cell = r"\textbf{" + cell + "}"
            cells.append(cell)
        group = str(row.rank_group or "")
        lines.append(" & ".join([row.rank, group, name, *cells]) + r" \\")
        if row.is_baseline:
            lines.append(r"\hline")
    lines += [r"\hline", r"\end{tabular}"]
    lines += [
        r"\par\footnotesize " + latex_escape(f"{row.label}: {table.notes[row.system_id]}")
        for row in rows
        if row.system_id in table.notes
    ]
    return "\n".join([*lines, ""])


def overview_latex(challenge: str, matrix: Overview) -> str:
    """SR'18 Tables 3-5: teams x languages for one metric, the best per column in bold."""
    lines = [f"% {challenge}: {matrix.metric} per team and language (primary systems)"]
    lines += [f"% {matrix.metric}: {signature}" for signature in matrix.signatures]
    lines += [
        r"\begin{tabular}{l" + "r" * len(matrix.columns) + "}",
        r"\hline",
        " & ".join(["", *(latex_escape(f"{c.track_title} {c.language}") for c in matrix.columns)])
        + r" \\",
        r"\hline",
    ]
    for row in matrix.rows:
        cells = []
        for column in matrix.columns:
            cell = row.cells.get(column)
            if cell is None:
                cells.append("")
                continue
            text = f"{cell.value:.2f}" + ("*" if cell.is_late else "")
            cells.append(r"\textbf{" + text + "}" if cell.is_best else text)
        label = latex_escape(row.label)
        lines.append(
            " & ".join([r"\textsc{" + label + "}" if row.is_baseline else label, *cells]) + r" \\"
        )
    lines += [r"\hline", r"\end{tabular}", ""]
    return "\n".join(lines)
