"""Direct Assessment, ROSE and metric correlation checked by hand and against scipy."""

import math

import numpy as np
import pytest
from scipy import stats

from scorer.errors import InputError
from scorer.human import correlation, direct_assessment, rose
from scorer.human.judgements import Judgement
from tests.support.human import da_hit

QUALITY = {"adapt": 80, "osu": 70, "tilburg": 55, "axe": 35}


def judge(annotator, item, system, score, kind="genuine", criterion="readability", subset=""):
    return Judgement(item, system, annotator, criterion, score, kind, subset)


def test_z_scores_are_scipys_population_z_scores():
    scores = [80, 60, 70, 50, 100, 0]
    assert direct_assessment.z_scores(scores) == pytest.approx(stats.zscore(scores))
    assert direct_assessment.z_scores([90, 90]) == [0.0, 0.0]


def test_system_scores_average_outputs_then_items_by_hand():
    data = [
        judge("A", "i1", "s1", 80),
        judge("A", "i1", "s2", 60),
        judge("A", "i2", "s1", 70),
        judge("A", "i2", "s2", 50),
        judge("B", "i1", "s1", 90),
        judge("B", "i1", "s2", 90),
    ]
    result = direct_assessment.analyse(data, "readability", required=())
    z_a = stats.zscore([80, 60, 70, 50])
    s1 = result.systems[0]
    assert s1.system == "s1" and (s1.n, s1.assessments) == (2, 3)
    assert s1.raw == pytest.approx(((80 + 90) / 2 + 70) / 2)
    assert s1.z == pytest.approx(((z_a[0] + 0) / 2 + z_a[2]) / 2)
    s2 = result.systems[1]
    assert s2.raw == pytest.approx(((60 + 90) / 2 + 50) / 2)


def test_quality_control_keeps_careful_annotators_and_drops_careless_ones():
    judgements = []
    for number in range(3):
        judgements += da_hit(f"careful{number}", QUALITY, 20, careful=True, seed=number)
    for number in range(2):
        judgements += da_hit(f"random{number}", QUALITY, 20, careful=False, seed=10 + number)
    result = direct_assessment.analyse(judgements, "readability")
    kept = {check.annotator: check.kept for check in result.annotators}
    assert kept == {
        "careful0": True,
        "careful1": True,
        "careful2": True,
        "random0": False,
        "random1": False,
    }
    assert [row.system for row in result.systems] == list(QUALITY)
    assert all(row.n == 20 and row.assessments == 60 for row in result.systems)
    assert result.p_values[0, 3] < 0.001 and result.p_values[3, 0] > 0.5


def test_each_quality_control_rule_on_its_own():
    base = [judge("A", f"i{n}", "s", 50 + n) for n in range(8)]
    damaged = [judge("A", f"i{n}", "s", 10 + n, "damaged") for n in range(6)]
    check = direct_assessment.check_annotator("A", base + damaged)
    assert check.passed == {"damaged": True, "repeat": True, "reference": True} and check.kept
    assert check.damaged_p == pytest.approx(1 / 64)
    not_lower = [judge("A", f"i{n}", "s", 50 + n, "damaged") for n in range(6)]
    assert not direct_assessment.check_annotator("A", base + not_lower).passed["damaged"]
    low_reference = [judge("A", "i0", "reference", 20, "reference")]
    check = direct_assessment.check_annotator("A", base + damaged + low_reference)
    assert not check.passed["reference"] and not check.kept
    repeats = [judge("A", f"i{n}", "s", 100, "repeat") for n in range(8)]
    check = direct_assessment.check_annotator("A", base + damaged + repeats)
    assert not check.passed["repeat"] and check.kept
    assert not direct_assessment.check_annotator("A", base + damaged + repeats, ["repeat"]).kept


def test_rose_by_hand_on_wang_et_al_table_5():
    semantics = [0, 0, 0, 0, 0, 1, 1, 1]
    grammaticality = [0, 1, 1, 1, 0, 1, 1, 1]
    phenomenon = [1, 1, 0, 0, 1, 1, 1, 1]
    data = []
    for number, answers in enumerate(zip(semantics, grammaticality, phenomenon, strict=True)):
        for dimension, answer in zip(rose.DIMENSIONS, answers, strict=True):
            data.append(
                judge("expert", f"{number}", "char", answer, criterion=dimension, subset="tense")
            )
    [row] = rose.analyse(data)
    assert (row.system, row.subset, row.outputs) == ("char", "tense", 8)
    assert (row.semantics, row.grammaticality, row.phenomenon, row.rose) == (37.5, 75, 75, 37.5)


def test_rose_needs_all_three_answers_and_yes_or_no():
    partial = [judge("expert", "1", "char", 1, criterion="semantics")]
    with pytest.raises(InputError, match="without grammaticality, phenomenon"):
        rose.analyse(partial)
    with pytest.raises(InputError, match="not yes/no"):
        rose.analyse([judge("expert", "1", "char", 0.5, criterion="semantics")])


def test_williams_test_by_hand():
    r12, r13, r23, n = 0.9, 0.8, 0.85, 10
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    t /= math.sqrt(2 * k * (n - 1) / (n - 3) + (r12 + r13) ** 2 / 4 * (1 - r23) ** 3)
    assert t == pytest.approx(1.1111, abs=1e-4)
    assert correlation.williams_p(r12, r13, r23, n) == pytest.approx(stats.t.sf(t, n - 3))
    with pytest.raises(ValueError, match="at least 4 systems"):
        correlation.williams_p(r12, r13, r23, 3)


def test_two_metrics_equal_up_to_scale_are_not_significantly_different():
    """NIST = 10 x BLEU over the systems (r23 = 1) divided 0 by 0 and failed the analysis."""
    human = {"a": 3.0, "b": 1.0, "c": 2.0, "d": 0.5}
    bleu = {"a": 0.61, "b": 0.42, "c": 0.55, "d": 0.3}
    result = correlation.correlate(
        human, {"BLEU": bleu, "NIST": {s: 10 * v for s, v in bleu.items()}}
    )
    assert result.pearson["BLEU"] == pytest.approx(result.pearson["NIST"])
    assert set(result.best) == {"BLEU", "NIST"}
    assert correlation.williams_p(0.9, 0.9, 1.0, 10) == 0.5


def test_metric_correlation_names_the_metrics_not_significantly_worse():
    rng = np.random.default_rng(0)
    human = {f"s{n}": float(n) for n in range(8)}
    metrics = {
        "BLEU": {s: v + rng.normal(0, 0.2) for s, v in human.items()},
        "NIST": {s: v + rng.normal(0, 0.3) for s, v in human.items()},
        "DIST": {s: rng.normal(0, 1) for s in human},
    }
    result = correlation.correlate(human, metrics)
    for name, scores in metrics.items():
        expected = stats.pearsonr(list(human.values()), [scores[s] for s in human]).statistic
        assert result.pearson[name] == pytest.approx(expected)
    assert result.williams["BLEU"]["DIST"] < 0.05
    assert "DIST" not in result.best and "BLEU" in result.best
    with pytest.raises(ValueError, match="DIST has no score for s7"):
        correlation.correlate(human, {"DIST": {s: 0.0 for s in list(human)[:7]}})


def test_quality_control_setting_names_the_controls_and_requires_only_those_shown():
    parse = direct_assessment.parse_controls
    assert parse("reference, damaged") == ("damaged", "reference")
    assert parse("none") == ()
    assert direct_assessment.format_controls(()) == "none"
    assert direct_assessment.format_controls(("reference", "damaged")) == "damaged,reference"
    assert direct_assessment.required_for(("damaged", "repeat")) == ("damaged",)
    with pytest.raises(ValueError, match="'damagd'"):
        parse("damagd")


def test_judgements_without_damaged_copies_keep_every_annotator_only_with_no_checks():
    plain = [judge(a, f"i{n}", s, 40 + 10 * n + (s == "s1") * 5) for a in "ABC"
             for n in range(4) for s in ("s1", "s2")]  # fmt: skip
    strict = direct_assessment.analyse(plain, "readability")
    assert not strict.systems
    assert strict.dropped() == {"damaged": 3, "reference": 0, "without_damaged_copies": 3}
    assert strict.to_dict()["annotators"]["kept"] == 0
    none = direct_assessment.analyse(plain, "readability", required=())
    assert none.to_dict()["annotators"]["kept"] == 3
    assert [row.system for row in none.systems] == ["s1", "s2"]


def test_clusters_of_a_campaign_follow_its_true_order():
    quality = {"best": 90, "good": 60, "same": 59, "bad": 20}
    judgements = []
    for number in range(3):
        judgements += da_hit(f"careful{number}", quality, 30, careful=True, seed=number)
    result = direct_assessment.analyse(judgements, "readability")
    rows = result.to_dict()["systems"]
    assert {row["system"]: row["cluster"] for row in rows} == {
        "best": 1, "good": 2, "same": 2, "bad": 3
    }  # fmt: skip


def test_a_campaign_names_its_cluster_procedure_and_gets_its_clusters():
    """A beats C but neither A-B nor B-C differ (tests/scorer/human/test_clusters.py's
    example, one annotator's scores): WMT keeps one cluster, the WebNLG+ 2020 rule two."""
    scores = {"A": [60, 70, 80, 90, 100], "B": [15, 45, 55, 65, 95], "C": [10, 20, 30, 40, 50]}
    data = [
        judge("x", f"i{n}", system, value)
        for system, values in scores.items()
        for n, value in enumerate(values)
    ]
    wmt = direct_assessment.analyse(data, "readability", required=())
    webnlg = direct_assessment.analyse(data, "readability", required=(), clusters="webnlg2020")
    assert [row.system for row in webnlg.systems] == ["A", "B", "C"]
    assert (wmt.clusters, webnlg.clusters) == ((1, 1, 1), (1, 1, 2))
    assert (wmt.to_dict()["clusters"], webnlg.to_dict()["clusters"]) == ("wmt", "webnlg2020")
    assert [row["cluster"] for row in webnlg.to_dict()["systems"]] == [1, 1, 2]
    np.testing.assert_array_equal(wmt.p_values, webnlg.p_values)  # the heatmap's one-sided tests
    with pytest.raises(ValueError, match="unknown cluster procedure 'bogus'"):
        direct_assessment.analyse(data, "readability", clusters="bogus")
