"""SER against the official E2E slot-error script, output by output (the figures it computed
for 47,280 outputs: ``../shared/data/e2e/ser_oracle``).

Not yet equal: our slot patterns are our own, the script's are not here, and its counting rules
(e.g. a repetition counts only for the customer rating) differ from ours. This test measures how
many outputs get exactly the script's added/missing/valerr/repeated counts and holds that figure
as a floor, so a change that moves us away from the script fails; the agreement rises as the
script's patterns are reproduced. The per-file definitions (SER = errors / MR slots; OK, A, M,
A+M) are the script's and are checked on the script's own counts.
"""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest

from scorer.metrics.ser import CATEGORIES, KINDS, SER, CategoryShare
from scorer.semantics.e2e_slots import check_output
from tests.support.paths import E2E_DATA, shared_file

pytestmark = pytest.mark.oracle

AGREEING_AT_LEAST = {"dev_loo_output": 443, "devset": 3960, "trainset": 33896}
"""Outputs whose four counts equal the script's, measured 2026-11-23 (of 547, 4,672, 42,061)."""

ORACLE_SER = {"dev_loo_output": 11.47, "devset": 11.42, "trainset": 17.69}
"""Whole-file SER from the oracle README."""


def oracle_rows(name: str) -> list[dict[str, str]]:
    path = shared_file(E2E_DATA / "ser_oracle" / f"{name}.ser.tsv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [{key.lower(): value for key, value in row.items()} for row in rows]


def oracle_counts(row: dict[str, str]) -> tuple[int, int, int, int]:
    return tuple(int(row[kind]) for kind in ("added", "missing", "valerr", "repeated"))


@pytest.mark.parametrize("name", sorted(AGREEING_AT_LEAST))
def test_outputs_with_the_scripts_slot_error_counts(name):
    rows = oracle_rows(name)
    agreeing = 0
    for row in rows:
        check = check_output(row["mr"], row.get("ref", row.get("output", "")))
        kinds = Counter(error.kind for error in check.errors)
        ours = (kinds["added"], kinds["missed"], kinds["wrong"], kinds["repeated"])
        agreeing += ours == oracle_counts(row)
        assert check.slots == int(row["mr_len"])
    assert agreeing >= AGREEING_AT_LEAST[name], f"{agreeing} of {len(rows)} agree"


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
