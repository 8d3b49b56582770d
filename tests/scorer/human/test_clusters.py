"""Significance-cluster procedures (scorer/human/clusters.py), by hand and against scipy."""

import math

import numpy as np
import pytest
from scipy import stats

from scorer.human import clusters, trueskill_rank
from scorer.human.clusters import WEBNLG2020, WMT

#: Three systems' per-output scores, best first (means 8, 5.5, 3), five items each.
#: Rank sums, n = 5 a side: mean 5 * 11 / 2 = 27.5, sd sqrt(5 * 5 * 11 / 12) = 4.787.
#: A v C: A holds ranks 6-10, sum 40, z = 12.5 / 4.787 = 2.611: one-sided p 0.0045, two 0.0090.
#: A v B: A at ranks 4, 6, 7, 8, 10 of (1.5 4.5 5.5 6 6.5 7 8 9 9.5 10), sum 35, z = 1.567:
#: one-sided p 0.0586, two-sided 0.117. B v C: B at ranks 2, 6, 8, 9, 10, sum 35: the same.
A = {"i1": 6.0, "i2": 7.0, "i3": 8.0, "i4": 9.0, "i5": 10.0}
B = {"i1": 1.5, "i2": 4.5, "i3": 5.5, "i4": 6.5, "i5": 9.5}
C = {"i1": 1.0, "i2": 2.0, "i3": 3.0, "i4": 4.0, "i5": 5.0}


def test_the_hand_worked_p_values_are_scipys():
    one_sided = WMT.p_values([A, B, C])
    two_sided = WEBNLG2020.p_values([A, B, C])
    z = 7.5 / math.sqrt(5 * 5 * 11 / 12)
    assert one_sided[0, 1] == pytest.approx(stats.norm.sf(z)) == pytest.approx(0.0586, abs=1e-4)
    assert one_sided[1, 2] == pytest.approx(0.0586, abs=1e-4)
    assert one_sided[0, 2] == pytest.approx(stats.norm.sf(12.5 / math.sqrt(275 / 12)))
    assert two_sided[0, 2] == pytest.approx(2 * one_sided[0, 2])
    assert two_sided[0, 1] == pytest.approx(two_sided[1, 0]) == pytest.approx(0.1172, abs=1e-4)


def test_one_significant_difference_splits_webnlg2020_clusters_but_not_wmts():
    """A beats C, but neither A-B nor B-C differ: WMT needs everything above a cut to beat
    everything below, so no cut; the notebook puts C one below A."""
    assert WMT.clusters([A, B, C]) == [1, 1, 1]
    assert WEBNLG2020.clusters([A, B, C]) == [1, 1, 2]


def test_wmt_clusters_end_only_where_everything_above_beats_everything_below():
    p = np.array(
        [
            [np.nan, 0.30, 0.01, 0.01],
            [0.70, np.nan, 0.02, 0.01],
            [0.99, 0.98, np.nan, 0.20],
            [0.99, 0.99, 0.80, np.nan],
        ]
    )
    assert clusters.rank_sum_clusters(p) == [1, 1, 2, 2]
    p[0, 1] = 0.01  # the first now beats everything below it: a cluster of its own
    assert clusters.rank_sum_clusters(p) == [1, 2, 3, 3]
    p[1, 3] = 0.06  # the second does not beat the last: no cut below it or the third
    assert clusters.rank_sum_clusters(p) == [1, 2, 2, 2]


def significant(size, *pairs):
    """A symmetric p matrix: 0.01 for the pairs given, 0.5 elsewhere."""
    p = np.full((size, size), 0.5)
    for a, b in pairs:
        p[a, b] = p[b, a] = 0.01
    return p


def test_webnlg2020_update_rule_by_hand():
    # 0 v 2 differ: 2 -> cluster 2; 3 differs from nobody but sits below 2: it takes 2's cluster.
    assert clusters.sequential_clusters(significant(4, (0, 2))) == [1, 1, 2, 2]
    assert clusters.rank_sum_clusters(significant(4, (0, 2))) == [1, 1, 1, 1]
    # 0 v 1 -> 1 in 2; 0 v 2 -> 2 in 2; then 1 v 2 -> 2 in 3: the last test sets it.
    assert clusters.sequential_clusters(significant(3, (0, 1), (0, 2), (1, 2))) == [1, 2, 3]
    # 1 v 2 only: 2 goes one below 1, which is still in cluster 1.
    assert clusters.sequential_clusters(significant(3, (1, 2))) == [1, 1, 2]
    assert clusters.rank_sum_clusters(significant(3, (1, 2))) == [1, 1, 1]


def test_webnlg2020_tests_two_sided_so_a_one_sided_difference_may_not_count():
    p_one_sided = np.array([[np.nan, 0.03], [0.97, np.nan]])
    assert clusters.rank_sum_clusters(p_one_sided) == [1, 2]
    p_two_sided = np.array([[np.nan, 0.06], [0.06, np.nan]])
    assert clusters.sequential_clusters(p_two_sided) == [1, 1]


def test_an_item_a_system_was_not_rated_on_counts_as_0_only_for_webnlg2020():
    rated = [{"i1": 1.0, "i2": 2.0}, {"i2": 3.0, "i3": -1.0}]
    assert WMT.samples(rated) == [[1.0, 2.0], [3.0, -1.0]]
    assert WEBNLG2020.samples(rated) == [[1.0, 2.0, 0.0], [0.0, 3.0, -1.0]]


def test_rank_sum_matrix_is_scipys_test_either_way():
    samples = [[0.9, 0.8, 1.2, 0.7, 1.1], [0.1, -0.2, 0.3, 0.0, 0.2, -0.1], [0.5, 0.4]]
    for alternative in ("greater", "two-sided"):
        p = clusters.rank_sum_p_values(samples, alternative)
        for i in range(3):
            assert math.isnan(p[i, i])
            for j in range(3):
                if i != j:
                    expected = stats.ranksums(samples[i], samples[j], alternative=alternative)
                    assert p[i, j] == pytest.approx(expected.pvalue)
    p = clusters.rank_sum_p_values(samples)
    assert p[0, 1] < 0.05 < p[1, 0]


def test_trueskill_procedure_is_the_rank_range_rule():
    ranges = [(1, 3), (2, 2), (3, 4)]
    assert clusters.TRUESKILL.clusters(ranges) == trueskill_rank.clusters(ranges) == [1, 1, 2]
    assert clusters.PROCEDURES["trueskill"] is clusters.TRUESKILL


def test_only_procedures_over_outputs_are_offered_for_per_output_scores():
    assert clusters.over_outputs("webnlg2020") is WEBNLG2020
    assert clusters.DEFAULT == "wmt" and clusters.over_outputs(clusters.DEFAULT) is WMT
    with pytest.raises(
        ValueError, match=r"'trueskill' groups systems by their rank ranges.*one of wmt, webnlg2020"
    ):
        clusters.over_outputs("trueskill")
    with pytest.raises(ValueError, match="unknown cluster procedure 'wtm'"):
        clusters.over_outputs("wtm")
