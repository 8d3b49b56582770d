"""A submission's per-item results to take away: each item's input, output, attributes, what
the scorer found and every metric computed on the item alone, as CSV or JSON Lines (who may:
``Viewer.sees_item_results_of``)."""

from __future__ import annotations

import csv
import io
import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.data.models import Item, Output, Submission, SubmissionStatistics
from app.data.statistics import unpack_statistics
from app.data.testsets import load_attributes
from app.data.visibility import Viewer
from app.web.services.csv_cells import csv_cell
from scorer.metrics import get_metric


def item_results(session: Session, submission: Submission, viewer: Viewer) -> list[dict]:
    """One record per test item, in test order, with the per-item figures ``viewer`` may read;
    figures as the published tables print them but for the organisers' own copy: a team's
    file is passed on, and an item's figure to every digit could repeat a score of another
    track that is still hidden."""
    track = submission.system.track
    test_set = track.test_set_for(submission.language)
    if test_set is None:
        return []
    profile = track.scoring_profile
    exact = viewer.is_organiser
    stored = session.get(SubmissionStatistics, submission.id)
    packed = viewer.disclose(track, stored.data) if stored is not None else None
    statistics = unpack_statistics(packed) if packed is not None else {}
    scores = {
        get_metric(metric_id).name: profile.item_scores(statistics, metric_id)
        for metric_id in profile.metrics
        if metric_id in statistics
    }
    attributes = load_attributes(session, test_set)
    found = session.execute(
        select(Item.position, Item.input_text, Output.text, Output.annotations)
        .join(Output, Output.item_id == Item.id)
        .where(Output.submission_id == submission.id)
        .order_by(Item.position)
    ).all()
    return [
        {
            "item": position + 1,
            "input": text,
            "output": output,
            "attributes": attributes[position] if position < len(attributes) else {},
            "scores": {
                name: values[position] if exact else profile.published(name, values[position])
                for name, values in scores.items()
            },
            "findings": findings or [],
        }
        for position, text, output, findings in found
    ]


def as_jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def as_csv(records: list[dict]) -> str:
    """Attributes and metrics in columns of their own; findings joined by " | "."""
    attributes = sorted({name for record in records for name in record["attributes"]})
    metrics = list(dict.fromkeys(name for record in records for name in record["scores"]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["item", "input", "output", *attributes, *metrics, "findings"])
    for record in records:
        writer.writerow(
            [
                record["item"],
                csv_cell(record["input"]),
                csv_cell(record["output"]),
                *(csv_cell(record["attributes"].get(name, "")) for name in attributes),
                *(record["scores"].get(name, "") for name in metrics),
                csv_cell(" | ".join(record["findings"])),
            ]
        )
    return out.getvalue()
