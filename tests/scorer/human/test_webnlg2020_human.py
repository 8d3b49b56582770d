"""WebNLG+ 2020's published human evaluation, analysed as its organisers' notebook analysed it,
gives their printed tables: per criterion and system the raw and z means at the printed three
decimals and the significance clusters (the ``webnlg2020`` procedure).

The ratings are the organisers' results folders in ``../shared/data/webnlg/2020/human-evaluation/
<language>/`` (their README.txt there says how they were made): ``<system>/primary.json``
(``{sample_id: {annotator: {criterion: 0-100}}}``, read as ``nlg-human da --judgements FOLDER``
reads it), ``published.csv`` (``criterion, system, raw, z, cluster``: their printed table) and
their own per-sample z means (``<language>_humeval_data_all_teams.json``). Russian (8 systems x 5
criteria) is in the shared data; English (17 systems) is held back, and its test skips, saying
so, until it is there in the same layout.

Two printed Russian z cells (DataCoverage: cuni-ufal 0.204, med -0.470) are not what the ratings
give; the organisers' per-sample file holds what they give (0.2033, -0.4673), and those cells are
checked against it instead.
"""

from __future__ import annotations

import csv
import json
import statistics

import pytest

from scorer.human import direct_assessment
from scorer.human.judgements import read_system_folder
from tests.support.paths import SHARED_DATA

HUMAN = SHARED_DATA / "webnlg" / "2020" / "human-evaluation"
PER_SAMPLE = {
    "ru": "russian_humeval_data_all_teams.json",
    "en": "english_humeval_data_all_teams.json",
}
MISPRINTED_Z = {"ru": {("DataCoverage", "cuni-ufal"), ("DataCoverage", "med")}, "en": set()}
"""Printed z cells that differ from the ratings (the README beside the data names them)."""


def printed(value: float) -> str:
    return f"{value:.3f}"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_organisers_means_and_clusters_are_reproduced(language):
    folder = HUMAN / language
    if not (folder / "published.csv").is_file():
        pytest.skip(
            f"no WebNLG+ 2020 human evaluation at {folder} (the English ratings are held back; "
            "the shared data folder may not be beside the repo)"
        )
    with (folder / "published.csv").open(encoding="utf-8", newline="") as table:
        published = {(row["criterion"], row["system"]): row for row in csv.DictReader(table)}
    per_sample_path = folder / PER_SAMPLE[language]
    per_sample = json.loads(per_sample_path.read_text("utf-8")) if per_sample_path.is_file() else []
    assert per_sample or not MISPRINTED_Z[language], f"{per_sample_path} is needed"
    judgements = read_system_folder(folder)

    differing: list[tuple[str, str, str, str, str]] = []
    equal = {"raw": 0, "z": 0, "cluster": 0}
    for criterion in sorted({criterion for criterion, _ in published}):
        result = direct_assessment.analyse(
            judgements, criterion, required=(), clusters="webnlg2020"
        )
        assert sum(check.kept for check in result.annotators) == len(result.annotators)
        assert {row.system for row in result.systems} == {
            system for (named, system) in published if named == criterion
        }
        for row, cluster in zip(result.systems, result.clusters, strict=True):
            want = published[(criterion, row.system)]
            cells = {"raw": printed(row.raw), "z": printed(row.z), "cluster": str(cluster)}
            for column, ours in cells.items():
                if ours == want[column]:
                    equal[column] += 1
                elif column != "z" or (criterion, row.system) not in MISPRINTED_Z[language]:
                    differing.append((criterion, row.system, column, ours, want[column]))
        for sample in per_sample:
            ours = result.outputs[sample["submission_id"]][sample["sample_id"]][1]
            assert ours == pytest.approx(sample[criterion], abs=1e-9), (criterion, sample)
        for named, system in MISPRINTED_Z[language]:
            if named == criterion:
                theirs = [s[criterion] for s in per_sample if s["submission_id"] == system]
                row = next(row for row in result.systems if row.system == system)
                assert row.z == pytest.approx(statistics.fmean(theirs), abs=1e-12)
                assert printed(row.z) != published[(criterion, system)]["z"]
    assert differing == []
    rows = len(published)
    assert equal == {"raw": rows, "z": rows - len(MISPRINTED_Z[language]), "cluster": rows}
