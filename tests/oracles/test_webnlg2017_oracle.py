"""The ``webnlg2017`` profile against the WebNLG Challenge 2017 evaluation itself
(``../shared/oracles/webnlg-2017-eval``), on a generated test-like benchmark.

One run of the organisers' evaluation.py (unchanged) writes, for 9 generated submissions, the
normalised files of the 25 subsets it scores (all, seen, unseen, 15 categories, 7 sizes); then
the metric tools run on them as the shell scripts run them and ``nlg-score``'s readers,
normalisation and metrics score the raw XML and submissions:

* BLEU: ``multi-bleu.perl -lc`` on every team and subset (225 runs): the printed line equal
  character for character, and the figure itself equal to 17 digits (a copy of the script with
  a wider ``printf``) for all / seen / unseen;
* METEOR: the jar in its plain-text mode (``-l en -norm -r 3``) on every team's outputs at once
  with ``-ssOut``: each item's 23 statistics equal; and its "Final score" as meteor_eval.sh
  prints it, for one team's all / seen / unseen, equal;
* TER: sacreBLEU's tercom port with tercom's defaults (ter_eval.sh passes no option) on the
  ``(idN)`` files: each item's edits and average reference length equal for two teams (the
  shift search is slow in Python), and every subset file holding the items ours puts in it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import TER

from scorer.io.items import subsets_by
from scorer.kinds import get_profile
from scorer.meteor.jar import additive_row, meteor_from_totals
from scorer.metrics import get_metric
from scorer.metrics.multibleu import HYP_LENGTH, ORDER, REF_LENGTH, bleu_from_totals
from scorer.references import ReferenceSet
from tests.support.paths import require_binary, shared_file
from tests.support.webnlg_cases import ORACLE_2017
from tests.support.webnlg_oracle import (
    CATEGORIES,
    PARAMS,
    EvaluationRun,
    bleu_of,
    meteor_final_score,
    meteor_segment_statistics,
    multi_bleu,
    read_tercom_file,
    run_evaluation,
    widened_copy,
)

pytestmark = pytest.mark.oracle

SEED = 2017


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> EvaluationRun:
    shared_file(ORACLE_2017)
    require_binary("perl")
    return run_evaluation(tmp_path_factory.mktemp("webnlg2017"), SEED)


@functools.cache
def ours(xml: bytes) -> tuple[list, ReferenceSet, dict[str, list[int]]]:
    """Items, references and the subsets as nlg-score reads the benchmark."""
    profile = get_profile("webnlg2017")
    items = profile.read_references(xml, "testdata_with_lex.xml")
    groups = {"all-cat": list(range(len(items)))}
    groups["old-cat"] = subsets_by(items, "seen")["seen"]
    groups["new-cat"] = subsets_by(items, "seen")["unseen"]
    groups |= subsets_by(items, "category")
    groups |= {f"{size}size": positions for size, positions in subsets_by(items, "size").items()}
    assert set(groups) == set(PARAMS)
    return items, ReferenceSet.from_items(items), groups


def our_outputs(run: EvaluationRun, team: str) -> list[str]:
    profile = get_profile("webnlg2017")
    items, _, _ = ours(run.xml)
    data = "".join(f"{text}\n" for text in run.outputs[team]).encode()
    return profile.read_outputs(data, [item.input for item in items], f"{team}.txt")


def bleu_line(totals: np.ndarray) -> str:
    """multi-bleu.perl's output line, from our statistics."""
    precisions = [totals[n] / totals[ORDER + n] if totals[ORDER + n] else 0.0 for n in range(ORDER)]
    hyp_length, ref_length = totals[HYP_LENGTH], totals[REF_LENGTH]
    brevity = np.exp(1 - ref_length / hyp_length) if hyp_length < ref_length else 1.0
    return "BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)" % (  # noqa: UP031 (the script's format)
        bleu_from_totals(totals),
        *(100 * p for p in precisions),
        brevity,
        hyp_length / ref_length,
        hyp_length,
        ref_length,
    )


def test_the_generated_benchmark_covers_every_subset_of_the_2017_evaluation(run):
    _, references, groups = ours(run.xml)
    assert all(groups[param] for param in PARAMS)
    assert len(groups["old-cat"]) + len(groups["new-cat"]) == len(references)
    assert {len(refs) for refs in references} == {1, 2, 3}  # the first 3 of up to 8
    assert set(CATEGORIES) == {param for param in PARAMS if param in CATEGORIES}


def test_bleu_equals_multi_bleu_perl_on_every_team_and_subset(run):
    _, references, groups = ours(run.xml)
    script = run.folder / "multi-bleu.perl"
    wide = widened_copy(script, run.folder)
    metric = get_metric("BLEU-webnlg2017")
    compared = 0
    for team in run.outputs:
        statistics = metric.segment_statistics(our_outputs(run, team), references)
        for param in PARAMS:
            refs = [run.reference(param, f"reference{k}.lex") for k in range(3)]
            hyp = run.team_file(team, param)
            totals = statistics[groups[param]].sum(axis=0)
            assert multi_bleu(script, refs, hyp) == bleu_line(totals), (team, param)
            if param in ("all-cat", "old-cat", "new-cat"):
                assert bleu_of(multi_bleu(wide, refs, hyp)) == bleu_from_totals(totals)
            compared += 1
    assert compared == 9 * 25


@pytest.fixture(scope="module")
def meteor_jar() -> Path:
    require_binary("java")
    from scorer.java.jars import coco_file

    return coco_file("meteor/meteor-1.5.jar")


@pytest.mark.parametrize(
    "teams", [3, pytest.param(None, marks=pytest.mark.exhaustive)], ids=["3-teams", "every-team"]
)
def test_meteor_statistics_equal_the_jar_on_every_output_of_every_team(
    run, meteor_jar, tmp_path, teams
):
    _, references, _ = ours(run.xml)
    metric = get_metric("METEOR-webnlg2017")
    gold = run.reference("all-cat", "reference-3ref.meteor").read_text(encoding="utf-8")
    hyps, refs, expected_rows = [], [], []
    for team in list(run.outputs)[:teams]:
        hyps.append(run.team_file(team, "all-cat").read_text(encoding="utf-8"))
        refs.append(gold)
        expected_rows.append(metric.segment_statistics(our_outputs(run, team), references))
    (tmp_path / "hyp").write_text("".join(hyps), encoding="utf-8")
    (tmp_path / "ref").write_text("".join(refs), encoding="utf-8")
    jar_rows = meteor_segment_statistics(meteor_jar, tmp_path / "hyp", tmp_path / "ref", 3)
    expected = np.concatenate(expected_rows)
    assert len(jar_rows) == len(expected) == len(expected_rows) * len(references)
    differing = [i for i, row in enumerate(jar_rows) if additive_row(row) != list(expected[i])]
    assert not differing, [(i, jar_rows[i], list(expected[i])) for i in differing[:3]]


@pytest.mark.parametrize(
    "params",
    [("all-cat",), pytest.param(("all-cat", "old-cat", "new-cat"), marks=pytest.mark.exhaustive)],
    ids=["all", "all-seen-unseen"],
)
def test_meteor_final_score_equals_the_jar_as_meteor_eval_sh_runs_it(run, meteor_jar, params):
    _, references, groups = ours(run.xml)
    team = "PKUWriter"
    statistics = get_metric("METEOR-webnlg2017").segment_statistics(
        our_outputs(run, team), references
    )
    for param in params:
        jar = meteor_final_score(
            meteor_jar,
            run.team_file(team, param),
            run.reference(param, "reference-3ref.meteor"),
            3,
        )
        assert meteor_from_totals(statistics[groups[param]].sum(axis=0)) == jar, param


@pytest.mark.parametrize(
    ("team", "every"),
    [
        ("ADAPT_Centre", 4),  # every 4th item: sacreBLEU's tercom takes ~3 min for all of them
        pytest.param("Tilburg_University-3", 1, marks=pytest.mark.exhaustive),
    ],
)
def test_ter_equals_sacrebleus_tercom_on_the_scripts_files(run, team, every):
    _, references, groups = ours(run.xml)
    metric = get_metric("TER")
    tercom = TER()  # tercom's defaults: ter_eval.sh passes no option
    statistics = metric.segment_statistics(our_outputs(run, team), references)
    hyps = read_tercom_file(run.team_file(team, "all-cat", "_ter"))
    refs = read_tercom_file(run.reference("all-cat", "reference-3ref.ter"))
    assert list(hyps) == list(refs) == [f"id{k + 1}" for k in range(len(references))]
    oracle = {}
    for position in range(0, len(references), every):
        score = tercom.sentence_score(hyps[f"id{position + 1}"][0], refs[f"id{position + 1}"])
        oracle[position] = [score.num_edits, score.ref_length]
    differing = [i for i, row in oracle.items() if row != list(statistics[i])]
    assert not differing, [(team, i, oracle[i], list(statistics[i])) for i in differing[:3]]
    for param in PARAMS:
        # Each subset file holds the items ours puts in the subset, in the same order...
        positions = groups[param]
        subset_hyps = read_tercom_file(run.team_file(team, param, "_ter"))
        subset_refs = read_tercom_file(run.reference(param, "reference-3ref.ter"))
        assert [hyps[f"id{p + 1}"] for p in positions] == list(subset_hyps.values())
        assert [refs[f"id{p + 1}"] for p in positions] == list(subset_refs.values())
        # ... so its TER is tercom's total edits over total average reference length.
        checked = [p for p in positions if p in oracle]
        edits, length = np.asarray([oracle[p] for p in checked]).sum(axis=0)
        ours_value = metric.score_from_totals(statistics[checked].sum(axis=0))
        assert ours_value == edits / length, (team, param)
