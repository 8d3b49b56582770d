"""Breakdowns from per-item statistics (``scorer/compare/breakdown.py``) and ``nlg-score --breakdown``
for attributes a kind computes, alone and with ``--compare``."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from scorer.cli.score import main
from scorer.compare.breakdown import breakdown, buckets, item_attributes
from scorer.compare.significance import paired_bootstrap
from scorer.kinds import get_profile
from scorer.references import ReferenceSet
from tests.support.paths import DEMO_DATA

REFS = DEMO_DATA / "references.csv"
BASELINE = DEMO_DATA / "baseline.txt"
TEAM = DEMO_DATA / "team_output.tsv"


def _e2e():
    profile = get_profile("e2e")
    items = profile.read_references(REFS.read_bytes(), REFS.name)
    inputs = [item.input for item in items]
    outputs = profile.read_outputs(BASELINE.read_bytes(), inputs, BASELINE.name)
    return profile, items, profile.statistics(outputs, ReferenceSet.from_items(items))


def test_a_buckets_figures_are_those_of_its_items_scored_alone_with_an_interval():
    profile, items, statistics = _e2e()
    groups = buckets(item_attributes(profile, items), "slots")
    found = breakdown(profile, statistics, groups)
    assert sum(bucket.items for bucket in found.values()) == len(items)
    for value, positions in groups.items():
        alone = profile.subset_scores(statistics, {"": positions})[""]
        assert found[value].values == {score.metric: score.value for score in alone}
        for name, (low, high) in found[value].intervals.items():
            assert low <= high, (value, name)
    assert breakdown(profile, statistics, groups, samples=0)[value].intervals == {}


def _run(*args: str):
    result = CliRunner().invoke(
        main, ["--profile", "e2e", "--refs", str(REFS), "--hyp", str(BASELINE), "--json", *args]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_nlg_score_breaks_down_by_a_computed_attribute_with_item_counts():
    payload = _run("--metrics", "BLEU,SER", "--breakdown", "slot:near")
    near = payload["breakdown"]["slot:near"]
    assert set(near) <= {"present", "absent"}
    assert sum(bucket["n"] for bucket in near.values()) == 10
    assert payload["breakdown_items"]["slot:near"] == {v: b["n"] for v, b in near.items()}


def test_nlg_score_compare_per_bucket_gives_the_paired_bootstrap_of_the_buckets_items():
    payload = _run("--metrics", "BLEU", "--compare", str(TEAM), "--breakdown", "slots")
    profile, items, statistics_a = _e2e()
    profile_b = get_profile("e2e")
    inputs = [item.input for item in items]
    other = profile_b.read_outputs(TEAM.read_bytes(), inputs, TEAM.name)
    statistics_b = profile.statistics(other, ReferenceSet.from_items(items))
    only = {"BLEU": statistics_a["BLEU"]}, {"BLEU": statistics_b["BLEU"]}
    assert payload["comparisons"][0]["p_value"] == paired_bootstrap(profile, *only)[0].p_value
    for value, positions in buckets(item_attributes(profile, items), "slots").items():
        index = np.asarray(positions)
        expected = paired_bootstrap(profile, *({"BLEU": s["BLEU"][index]} for s in only))
        bucket = payload["breakdown"]["slots"][value]
        assert bucket["n"] == len(positions)
        assert bucket["comparisons"][0]["p_value"] == expected[0].p_value
