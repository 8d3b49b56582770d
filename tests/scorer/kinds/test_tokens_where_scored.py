"""A kind's per-metric tokens for the slow metrics (pyter's TER and METEOR on NLTK tokens, the
example bundle's WebNLG+ 2020 kind) are made where those metrics score: in the scoring
processes for a large batch, each on its own share of the outputs. The rows are the metrics'
own on tokens made beforehand, through the processes or in this one, and with a tokeniser that
cannot be sent to them by name (made here)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorer import parallel
from scorer.kinds import build_profile, read_kinds
from scorer.metrics import get_metric
from scorer.references import ReferenceSet
from tests.support.paths import DEMO_DATA

SLOW = ("TER-pyter", "METEOR-files")


@pytest.fixture(scope="module")
def profile():
    kinds = read_kinds((DEMO_DATA / "webnlg" / "challenge.yaml").read_bytes(), "challenge.yaml")
    return build_profile(kinds["webnlg2020-en"])


def batch(count: int) -> tuple[list[str], ReferenceSet]:
    words = [
        "The",
        "11th",
        "Mississippi",
        "Infantry",
        "Monument,",
        "in",
        "Adams",
        "County,",
        "isn't",
        "Pennsylvania's.",
    ]
    outputs = [
        " ".join(words[k % 7 :]) + ("." if k % 3 else " (1,234.5 km).") for k in range(count)
    ]
    references = ReferenceSet(
        [" ".join(words[: 5 + k % 6]) + ".", " ".join(words[2:])] for k in range(count)
    )
    return outputs, references


def expected(profile, outputs: list[str], references: ReferenceSet) -> dict[str, np.ndarray]:
    rows = {}
    for metric_id in profile.metrics:
        if not metric_id.endswith(SLOW):
            continue
        tokenise = profile.tokenisers[metric_id]
        tokens = ReferenceSet([tokenise(text) for text in refs] for refs in references)
        rows[metric_id] = get_metric(metric_id).segment_statistics(
            [tokenise(text) for text in outputs], tokens
        )
    assert len(rows) == len(SLOW)
    return rows


@pytest.mark.parametrize("count", [12, parallel.PARALLEL_FROM + 30])
def test_the_slow_metrics_rows_are_those_of_tokens_made_beforehand(profile, count):
    outputs, references = batch(count)
    statistics = profile.statistics(outputs, references)
    for metric_id, rows in expected(profile, outputs, references).items():
        assert np.array_equal(statistics[metric_id], rows), metric_id


def test_a_tokeniser_not_sent_by_name_tokenises_here(profile):
    outputs, references = batch(parallel.PARALLEL_FROM + 30)
    tokenisers = {
        metric_id: (lambda text, tokenise=tokenise: tokenise(text))
        for metric_id, tokenise in profile.tokenisers.items()
    }
    local = replace(profile, tokenisers=tokenisers)
    statistics = local.statistics(outputs, references)
    for metric_id, rows in expected(profile, outputs, references).items():
        assert np.array_equal(statistics[metric_id], rows), metric_id
