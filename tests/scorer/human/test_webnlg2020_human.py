"""Held-back check: WebNLG+ 2020's published human evaluation (English, 16 systems and the
references, 5 criteria on 0-100 sliders, 3 raters per sample) analysed as the board analyses a
Direct Assessment campaign without quality control reproduces the organisers' raw and z means
(17 x 5) and their Wilcoxon rank-sum clusters.

The ratings are not in the project; the test reads them from ``../shared/data/webnlg/2020/
human-evaluation``: ``ratings.csv`` in the long layout ``nlg-human`` reads (``item, system,
team, annotator, criterion, score``: the organisers' file with one row per rating and criterion)
and ``expected.csv`` (``system, criterion, raw, z, cluster``: the organisers' tables, as their
README prints them). It skips, saying so, when they are absent.
"""

from __future__ import annotations

import csv
import io

import pytest

from scorer.human import direct_assessment
from scorer.human.judgements import read_judgements
from tests.support.paths import SHARED_DATA, shared_file

HUMAN = SHARED_DATA / "webnlg" / "2020" / "human-evaluation"
CRITERIA = ("data_coverage", "relevance", "correctness", "text_structure", "fluency")


def test_the_organisers_tables_and_clusters_are_reproduced():
    ratings = shared_file(HUMAN / "ratings.csv")
    expected_rows = list(
        csv.DictReader(io.StringIO(shared_file(HUMAN / "expected.csv").read_text("utf-8")))
    )
    judgements = read_judgements(ratings.read_bytes(), ratings.name)
    by_label = [
        type(j)(j.item, j.label, j.annotator, j.criterion, j.score, j.kind, j.subset, j.unit)
        for j in judgements
    ]
    expected = {(row["system"], row["criterion"]): row for row in expected_rows}
    assert {criterion for _, criterion in expected} == set(CRITERIA)
    assert len({system for system, _ in expected}) == 17
    for criterion in CRITERIA:
        result = direct_assessment.analyse(by_label, criterion, required=())
        assert sum(check.kept for check in result.annotators) == len(result.annotators)
        for row, cluster in zip(result.systems, result.clusters, strict=True):
            want = expected[(row.system, criterion)]
            assert round(row.raw, 3) == pytest.approx(float(want["raw"]), abs=1e-3), want
            assert round(row.z, 3) == pytest.approx(float(want["z"]), abs=1e-3), want
            assert cluster == int(want["cluster"]), want
        assert len(result.systems) == 17
