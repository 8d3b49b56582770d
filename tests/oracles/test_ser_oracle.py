"""SER against the official E2E slot-error script, output by output (the figures it computed
for 47,280 outputs: ``../shared/data/e2e/ser_oracle``).

Every output must get exactly the script's added / missing / valerr / repeated counts
(``KNOWN_DIFFERENCES`` is empty), so our whole-file SER is the script's. The per-file definitions
(SER = errors / MR slots; OK, A, M, A+M) are checked on the script's own counts too.
"""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest

from scorer.metrics.ser import CATEGORIES, KINDS, SER, CategoryShare
from scorer.semantics.e2e_slots import check_output, slot_error_rate
from tests.support.paths import E2E_DATA, shared_file

pytestmark = pytest.mark.oracle

KNOWN_DIFFERENCES: dict[tuple[str, int], str] = {}
"""(file, output number from 1) -> why our counts would differ from the script's: none, every
one of the 47,280 outputs gets exactly its counts."""

ORACLE_SER = {"dev_loo_output": 11.47, "devset": 11.42, "trainset": 17.69}
"""Whole-file SER from the oracle README."""


def oracle_rows(name: str) -> list[dict[str, str]]:
    path = shared_file(E2E_DATA / "ser_oracle" / f"{name}.ser.tsv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [{key.lower(): value for key, value in row.items()} for row in rows]


def oracle_counts(row: dict[str, str]) -> tuple[int, int, int, int]:
    return tuple(int(row[kind]) for kind in ("added", "missing", "valerr", "repeated"))


@pytest.mark.parametrize("name", sorted(ORACLE_SER))
def test_every_output_gets_the_scripts_slot_error_counts(name):
    rows = oracle_rows(name)
    differing, checks = {}, []
    for number, row in enumerate(rows, start=1):
        check = check_output(row["mr"], row.get("ref", row.get("output", "")))
        checks.append(check)
        kinds = Counter(error.kind for error in check.errors)
        ours = (kinds["added"], kinds["missed"], kinds["wrong"], kinds["repeated"])
        assert check.slots == int(row["mr_len"])
        if ours != oracle_counts(row):
            differing[(name, number)] = (
                ours,
                oracle_counts(row),
                row.get("ref", row.get("output")),
            )
    unexplained = {key: value for key, value in differing.items() if key not in KNOWN_DIFFERENCES}
    assert not unexplained, list(unexplained.items())[:10]
    assert round(slot_error_rate(checks), 2) == ORACLE_SER[name]


@pytest.mark.parametrize("name", sorted(ORACLE_SER))
def test_file_figures_follow_the_scripts_definitions(name):
    """Our SER and category shares, fed the script's own per-output counts, give its figures."""
    rows = oracle_rows(name)
    statistics = []
    for row in rows:
        added, missing, valerr, repeated = oracle_counts(row)
        category = (
            "A+M"
            if valerr or (added and missing)
            else "A"
            if added or repeated
            else "M"
            if missing
            else "OK"
        )
        by_kind = {"missed": missing, "added": added, "wrong": valerr, "repeated": repeated}
        statistics.append(
            [int(row["mr_len"]), *(by_kind[k] for k in KINDS), *(category == c for c in CATEGORIES)]
        )
    totals = np.asarray(statistics, dtype=float).sum(axis=0)
    assert round(SER().score_from_totals(totals), 2) == ORACLE_SER[name]
    shares = [CategoryShare(c).score_from_totals(totals) for c in CATEGORIES]
    assert sum(shares) == pytest.approx(100.0)
