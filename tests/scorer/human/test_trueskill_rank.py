"""TrueSkill over RankME: the update against the trueskill package, rank ranges, clusters."""

import itertools

import numpy as np
import pytest
import trueskill

from scorer.human import trueskill_rank
from scorer.human.judgements import read_ratings
from tests.support.human import rankme_campaign
from tests.support.paths import e2e_file

# E2E Table 11 (quality): rank ranges in TrueSkill order, and the clusters printed there.
TABLE_11_RANGES = [
    (1, 1), (2, 4), (2, 5), (3, 5), (3, 6), (5, 7), (6, 8), (7, 10), (8, 10), (8, 12), (10, 13),
    (10, 14), (11, 14), (11, 14), (15, 16), (15, 16), (17, 19), (17, 19), (17, 19), (20, 21),
    (20, 21),
]  # fmt: skip
TABLE_11_CLUSTERS = [1] + [2] * 13 + [3] * 2 + [4] * 3 + [5] * 2


@pytest.mark.parametrize("draw_probability", [0.05, 0.45])
def test_each_update_is_trueskills_own_two_player_rule(draw_probability):
    rng = np.random.default_rng(7)
    env = trueskill_rank.environment(draw_probability)
    systems = 5
    ratings = [env.create_rating() for _ in range(systems)]
    mu = np.full((1, systems), env.mu)
    var = np.full((1, systems), env.sigma**2)
    for _ in range(400):
        a, b = rng.choice(systems, size=2, replace=False)
        tied = bool(rng.random() < 0.3)
        ratings[a], ratings[b] = trueskill.rate_1vs1(ratings[a], ratings[b], tied, env=env)
        trueskill_rank.rate(mu, var, np.array([a]), np.array([b]), np.array([tied]), env)
    # The package's erfc is a 1e-7 approximation; ours is scipy's.
    assert mu[0] == pytest.approx([r.mu for r in ratings], abs=1e-6)
    assert np.sqrt(var[0]) == pytest.approx([r.sigma for r in ratings], abs=1e-6)


def test_pairwise_turns_one_ranking_into_ten_comparisons_with_ties():
    comparisons = trueskill_rank.pairwise([{"a": 90, "b": 100, "c": 90, "d": 10, "e": 50}])
    assert len(comparisons) == 10
    names = comparisons.systems
    outcomes = {
        (names[f], names[s], bool(t))
        for f, s, t in zip(comparisons.first, comparisons.second, comparisons.tied, strict=True)
    }
    assert ("b", "a", False) in outcomes and ("a", "c", True) in outcomes
    assert ("e", "d", False) in outcomes
    assert comparisons.tie_share == pytest.approx(0.1)


def test_rank_range_drops_five_of_200_ranks_at_each_end():
    ranks = np.array([1] * 5 + [2] * 190 + [3] * 5)
    assert trueskill_rank.rank_range(ranks) == (2, 2)
    assert trueskill_rank.rank_range(np.array([1] * 6 + [2] * 188 + [3] * 6)) == (1, 3)


@pytest.mark.parametrize("procedure", ["wmt", "bootstrap"])
@pytest.mark.parametrize("runs", [1, 2, 39])
def test_too_few_runs_for_a_95_percent_range_are_refused_before_any_is_run(procedure, runs):
    """(1 and 2 runs had no central range at all: an IndexError, or a best rank below the
    worst.)"""
    comparisons = trueskill_rank.pairwise([{"a": 90, "b": 100, "c": 90}])
    with pytest.raises(ValueError, match=r"^runs \d+: a 95% range needs 40 runs or more$"):
        trueskill_rank.rank(comparisons, procedure=procedure, runs=runs)


def test_a_cluster_ends_after_a_system_whose_worst_rank_beats_every_best_rank_below():
    # (2, 2) ends a cluster although (1, 3) above it overlaps the system below
    assert trueskill_rank.clusters([(1, 3), (2, 2), (3, 4)]) == [1, 1, 2]
    assert trueskill_rank.clusters([(1, 1), (2, 3), (2, 3), (4, 4)]) == [1, 2, 2, 3]


def test_the_wmt_environment_is_the_e2e_one():
    env = trueskill_rank.wmt_environment(42_390)
    assert (env.mu, env.sigma, env.tau, env.draw_probability) == (0.0, 0.5, 0.0, 0.25)
    assert env.beta == pytest.approx(0.5 * 42_391 / 40)


def test_a_wmt_run_is_n_plus_one_actively_chosen_updates(monkeypatch):
    """N comparisons -> N + 1 updates; each update's first player is the one with the largest
    sigma in its run, its opponent one it was compared with."""
    rows = [{"a": 90, "b": 50, "c": 10}, {"a": 70, "b": 70}, {"c": 80, "d": 20}]
    comparisons = trueskill_rank.pairwise(rows)
    compared = trueskill_rank.PairOutcomes.of(comparisons).total > 0
    real_rate = trueskill_rank.rate
    calls = []

    def checked_rate(mu, var, first, second, tied, env, margin=None):
        players = {tuple(pair) for pair in zip(first, second, strict=True)}
        assert all(compared[a, b] for a, b in players)
        largest = var.max(axis=1)
        chosen = np.maximum(var[np.arange(len(first)), first], var[np.arange(len(first)), second])
        assert np.allclose(chosen, largest)
        calls.append(len(first))
        real_rate(mu, var, first, second, tied, env, margin)

    monkeypatch.setattr(trueskill_rank, "rate", checked_rate)
    result = trueskill_rank.rank(comparisons, runs=40, seed=1)
    assert len(calls) == len(comparisons) + 1 == 6 and set(calls) == {40}
    assert result.procedure == "wmt" and result.draw_probability == 0.25


def test_raw_scores_above_the_slider_still_win(tmp_path):
    data = (
        b"mr_id,sys1,sys2,sys3,sys4,sys5,quality1,quality2,quality3,quality4,quality5\n"
        b"1,a,b,c,d,e,111111,100,100,20,10\n"
    )
    ratings = read_ratings(data, "q.csv")
    assert len(ratings.out_of_scale) == 1
    comparisons = trueskill_rank.pairwise(r.scores for r in ratings.rankings)
    a, b = comparisons.systems.index("a"), comparisons.systems.index("b")
    won = [
        (f, s, t)
        for f, s, t in zip(comparisons.first, comparisons.second, comparisons.tied, strict=True)
    ]
    assert (a, b, False) in won and len(comparisons) == 10 and comparisons.tied.sum() == 1


def test_rank_range_is_the_central_95_percent():
    ranks = np.array([1] * 4 + [2] * 191 + [3] * 3 + [9, 9])
    assert trueskill_rank.rank_range(ranks) == (2, 2)
    assert trueskill_rank.rank_range(np.array([1] * 6 + [2] * 188 + [3] * 6)) == (1, 3)


def test_clusters_merge_overlapping_ranges_as_table_11_does():
    assert trueskill_rank.clusters(TABLE_11_RANGES) == TABLE_11_CLUSTERS
    assert trueskill_rank.clusters([(1, 2), (2, 3), (3, 4), (5, 5)]) == [1, 1, 1, 2]


def test_a_known_ordering_is_recovered_with_its_clusters():
    quality = {"best": 95, "good1": 75, "good2": 74, "good3": 73, "poor1": 40, "poor2": 39}
    rows = rankme_campaign(quality, rankings=600, noise=10, seed=1)
    result = trueskill_rank.rank(trueskill_rank.pairwise(rows), runs=60, seed=3)
    order = [row.system for row in result.rows]
    assert order[0] == "best" and set(order[1:4]) == {"good1", "good2", "good3"}
    assert set(order[4:]) == {"poor1", "poor2"}
    clusters = {row.system: row.cluster for row in result.rows}
    assert clusters["best"] == 1
    assert clusters["good1"] == clusters["good3"] == 2
    assert clusters["poor1"] == clusters["poor2"] == 3
    assert result.rows[0].best_rank == result.rows[0].worst_rank == 1


def test_separated_systems_get_a_strict_total_order():
    quality = {f"s{rank}": 100 - 12 * rank for rank in range(6)}
    rows = rankme_campaign(quality, rankings=500, noise=5, seed=2)
    result = trueskill_rank.rank(trueskill_rank.pairwise(rows), runs=40)
    assert [row.system for row in result.rows] == list(quality)
    assert [row.cluster for row in result.rows] == [1, 2, 3, 4, 5, 6]
    assert all(row.mu > later.mu for row, later in itertools.pairwise(result.rows))


def test_the_published_e2e_sample_reads_as_forty_rankings():
    ratings = read_ratings(e2e_file("human_ratings_quality_sample.csv").read_bytes(), "q.csv")
    assert ratings.criterion == "quality" and len(ratings.rankings) == 40
    assert not ratings.out_of_scale and not ratings.skipped
    first = ratings.rankings[0]
    assert first.item == "1" and first.annotator == "w1d177704e2"
    assert list(first.scores) == ["tnt1", "tr2", "zhang", "slug", "tgen"]
    assert len(trueskill_rank.pairwise(r.scores for r in ratings.rankings)) == 400


@pytest.mark.parametrize("procedure", trueskill_rank.PROCEDURES)
def test_an_empty_campaign_is_refused(procedure):
    with pytest.raises(ValueError, match="no pairwise comparisons"):
        trueskill_rank.rank(trueskill_rank.pairwise([{"a": 50}]), procedure=procedure)


def test_the_old_bootstrap_procedure_stays_an_option():
    quality = {"x": 95, "y": 90, "z": 50, "u": 45, "v": 10}
    rows = rankme_campaign(quality, rankings=200, noise=3, seed=4)
    result = trueskill_rank.rank(trueskill_rank.pairwise(rows), procedure="bootstrap", runs=40)
    assert result.procedure == "bootstrap" and [r.system for r in result.rows] == list(quality)


def test_the_environment_is_the_trueskill_package():
    env = trueskill_rank.environment(0.3)
    assert isinstance(env, trueskill.TrueSkill)
    assert (env.mu, env.sigma, env.beta, env.tau) == (0.0, 0.5, 0.25, 0.005)
