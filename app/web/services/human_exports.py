"""A published human evaluation as files to pass on: CSV, JSON and LaTeX of the one table the
page and the API show (``human_results.campaign_table``), row for row: each system named
"team / system", its human figures as the table prints them, and the automatic metrics beside
as the track's kind prints them (and, in CSV and JSON, as stored); with the cluster procedure
the campaign names and the annotators' agreement (Krippendorff's alpha and its level)."""

from __future__ import annotations

import csv
import io

from app.web.services.csv_cells import csv_cell
from app.web.services.exports import latex_escape
from app.web.services.human_results import HumanRow, HumanTable, cell_number, table_json

CONTEXT_FIELDS = (
    "challenge", "track", "language", "campaign", "method", "criterion", "clusters", "options",
    "krippendorff_alpha", "agreement_level",
)  # fmt: skip
ROW_FIELDS = ("system_id", "team", "system", "label", "references", "cluster")


def _agreement(table: HumanTable) -> dict:
    return (table.campaign.results or {}).get("agreement") or {}


def _context(table: HumanTable) -> list:
    campaign = table.campaign
    agreement = _agreement(table)
    return [
        campaign.track.challenge.slug,
        campaign.track.slug,
        campaign.language,
        campaign.name,
        campaign.method,
        campaign.criterion,
        campaign.clusters,
        campaign.options_text,
        agreement.get("krippendorff_alpha"),
        agreement.get("level"),
    ]


def _fields(row: HumanRow) -> list:
    subject = row.subject
    return [
        subject.system_id,
        subject.team,
        subject.system,
        subject.label,
        subject.is_reference,
        row.cluster,
    ]


def human_csv(table: HumanTable) -> str:
    """One header row and one row per system, as spreadsheets read it: the human columns
    (numbers where they are), each metric as stored and as printed ("BLEU printed")."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            *CONTEXT_FIELDS,
            *ROW_FIELDS,
            *table.columns,
            *table.metrics,
            *(f"{metric} printed" for metric in table.metrics),
        ]
    )
    for row in table.rows:
        writer.writerow(
            [csv_cell(v) for v in (*_context(table), *_fields(row))]
            + [csv_cell(cell_number(value)) for value in row.values]
            + [row.scores.get(metric, "") for metric in table.metrics]
            + [row.printed.get(metric, "") for metric in table.metrics]
        )
    return out.getvalue()


def human_json(table: HumanTable) -> dict:
    """The API's table (``table_json``) with the challenge and track it belongs to."""
    campaign = table.campaign
    return {
        "challenge": campaign.track.challenge.slug,
        "track": campaign.track.slug,
        **table_json(table),
    }


def _latex_cell(value: object) -> str:
    return latex_escape(str(value)).replace("–", "--")


def human_latex(table: HumanTable) -> str:
    """E2E Table 11's layout: one row per system in the campaign's ranking, a rule between
    significance clusters, the automatic metrics beside as printed ("--" where absent)."""
    campaign = table.campaign
    profile = campaign.track.scoring_profile
    lines = [
        f"% {campaign.track.challenge.slug}/{campaign.track.slug} ({campaign.language}): "
        f"{campaign.name}, {campaign.protocol.title}, "
        f"{campaign.criterion}, {(campaign.results or {}).get('judgements')} judgements",
        *([f"% {campaign.options_text}"] if campaign.options_text else []),
        f"% significance clusters: {campaign.clusters}; Krippendorff's alpha "
        f"({_agreement(table).get('level')}): {_agreement(table).get('krippendorff_alpha')}",
    ]
    lines += [f"% {m} printed {profile.printing(m)}" for m in table.metrics]
    headers = ["System", *table.columns, *table.metrics]
    lines += [
        r"\begin{tabular}{l" + "r" * (len(headers) - 1) + "}",
        r"\hline",
        " & ".join(latex_escape(header) for header in headers) + r" \\",
        r"\hline",
    ]
    previous = None
    for row in table.rows:
        if previous is not None and row.cluster != previous:
            lines.append(r"\hline")
        previous = row.cluster
        cells = [_latex_cell(value) for value in row.values]
        cells += [row.printed.get(metric, "--") for metric in table.metrics]
        lines.append(" & ".join([latex_escape(row.subject.label), *cells]) + r" \\")
    lines += [r"\hline", r"\end{tabular}", ""]
    return "\n".join(lines)
