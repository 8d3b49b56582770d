"""SER against the official E2E slot-error script, output by output (the figures it computed
for 47,280 outputs: ``../shared/data/e2e/ser_oracle``).

Every output must get exactly the script's added / missing / valerr / repeated counts
(``KNOWN_DIFFERENCES`` is empty), so our whole-file SER is the script's: on the script's own
texts, and on the files it read (``dev_loo_output.tsv``; ``devset.csv`` and ``trainset.csv``, the
references as outputs) read as users' files are, by the profile's output reader, and scored by
the profile (``nlg-score`` and the board's worker take that path). The per-file definitions
(SER = errors / MR slots; OK, A, M, A+M) are checked on the script's own counts too.
"""

from __future__ import annotations

import csv
import dataclasses
from collections import Counter

import numpy as np
import pytest

from scorer.kinds import get_profile
from scorer.metrics.ser import CATEGORIES, KINDS, SER, CategoryShare
from scorer.references import ReferenceSet
from scorer.semantics.e2e_slots import check_output, slot_error_rate
from tests.support.paths import E2E_DATA, shared_file

pytestmark = pytest.mark.oracle

KNOWN_DIFFERENCES: dict[tuple[str, int], str] = {}
"""(file, output number from 1) -> why our counts would differ from the script's: none, every
one of the 47,280 outputs gets exactly its counts."""

ORACLE_SER = {"dev_loo_output": 11.47, "devset": 11.42, "trainset": 17.69}
"""Whole-file SER from the oracle README."""

SCRIPT_INPUT = {
    "dev_loo_output": "dev_loo_output.tsv",
    "devset": "devset.csv",
    "trainset": "trainset.csv",
}
"""The file the script read for each fixture (outputs, or references as outputs)."""

PER_OUTPUT = [
    pytest.param(name, marks=pytest.mark.exhaustive) if name == "trainset" else name
    for name in sorted(ORACLE_SER)
]
"""The per-output sweeps: make test checks the dev outputs and the dev references, make test-all
the training set's 42,061 references too."""


def oracle_rows(name: str) -> list[dict[str, str]]:
    path = shared_file(E2E_DATA / "ser_oracle" / f"{name}.ser.tsv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [{key.lower(): value for key, value in row.items()} for row in rows]


def oracle_counts(row: dict[str, str]) -> tuple[int, int, int, int]:
    return tuple(int(row[kind]) for kind in ("added", "missing", "valerr", "repeated"))


@pytest.mark.parametrize("name", PER_OUTPUT)
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


def as_table_lines_are(text: str) -> str:
    """A text as the E2E table reader gives it (``measure_scores.py`` strips every line of a
    table file): the script kept a trailing space (1 reference of devset.csv, 3 of trainset.csv)
    and, in the 2 training references that run over two lines, the line break and the next
    line's indent. Neither moves a slot count (checked below, output by output)."""
    return "".join(line.strip() for line in text.splitlines())


def read_as_users_files_are(name: str) -> tuple[list[str], ReferenceSet, list[str]]:
    """The file the script read, through the e2e profile's output reader as an upload or
    ``nlg-score --hyp`` is: (outputs, the test set, the texts as read). The test MRs are the
    fixture's, row by row (the reader checks each row's MR against them)."""
    profile = get_profile("e2e")
    path = shared_file(E2E_DATA / SCRIPT_INPUT[name])
    mrs = [row["mr"] for row in oracle_rows(name)]
    if name == "dev_loo_output":
        refs = shared_file(E2E_DATA / "dev_loo_refs.csv")
        items = profile.read_references(refs.read_bytes(), refs.name)
        references = ReferenceSet.from_items(items)
        assert list(references.inputs or ()) == mrs
    else:
        references = ReferenceSet([["-"]] * len(mrs), inputs=mrs)
    outputs = profile.read_outputs(path.read_bytes(), mrs, path.name)
    return outputs, references, list(outputs.as_read)


@pytest.mark.parametrize("name", PER_OUTPUT)
def test_the_files_the_script_read_score_as_it_scored_them_through_the_profile(name):
    """The slot check gets each output as the script got it (double spaces kept: "less than  £20"
    is no price for the script; collapsed first, dev LOO gave 11.35), and SER, its shares and
    each output's findings are the script's."""
    rows = oracle_rows(name)
    outputs, references, read = read_as_users_files_are(name)
    assert len(read) == len(rows)
    texts = [row.get("ref", row.get("output", "")) for row in rows]
    assert [as_table_lines_are(text) for text in texts] == read
    if name == "dev_loo_output":
        assert read == texts
    profile = get_profile("e2e")
    ser_only = dataclasses.replace(profile, metrics=("SER", "OK%", "A%", "M%", "A+M%"))
    statistics = ser_only.statistics(outputs, references)
    ours = statistics["SER"][:, 1 : 1 + len(KINDS)].astype(int)
    expected = [oracle_counts(row) for row in rows]
    order = [KINDS.index(kind) for kind in ("added", "missed", "wrong", "repeated")]
    differing = [
        (number, tuple(found[order]), counts)
        for number, (found, counts) in enumerate(zip(ours, expected, strict=True), start=1)
        if tuple(found[order]) != counts and (name, number) not in KNOWN_DIFFERENCES
    ]
    assert not differing, differing[:10]
    scores = {score.metric: score.value for score in ser_only.score(outputs, references)}
    assert round(scores["SER"], 2) == ORACLE_SER[name]
    annotations = profile.annotate(outputs, references) if profile.annotate else None
    assert annotations is not None
    assert [bool(found) for found in annotations] == [any(counts) for counts in expected]


def test_nlg_score_prints_the_scripts_ser_for_the_dev_loo_files():
    """The figure users get from ``nlg-score`` on the raw files: the script's 11.47 (395 slot
    errors in 3,445 slots)."""
    import json

    from click.testing import CliRunner

    from scorer.cli.score import main

    refs = shared_file(E2E_DATA / "dev_loo_refs.csv")
    hyp = shared_file(E2E_DATA / "dev_loo_output.tsv")
    args = ["--profile", "e2e", "--refs", str(refs), "--hyp", str(hyp), "--metrics", "SER"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    value = json.loads(result.stdout)["SER"]
    assert value == pytest.approx(100 * 395 / 3445)
    assert round(value, 2) == ORACLE_SER["dev_loo_output"]


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
