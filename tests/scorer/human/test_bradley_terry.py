"""Bradley-Terry maximum likelihood: choix as oracle, a hand-worked case, the prior's bounds."""

import math

import choix
import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components

from scorer.human import bradley_terry


def campaign(seed: int, systems: int, per_system: int, tie_share: float = 0.2):
    """Judgements of random pairs under the Bradley-Terry model with known strengths (system 0
    the strongest), a share of them ties: (first, second, first's share of the win). Drawn
    again until the maximum likelihood exists without ties (every group of systems lost to
    another at least once: "beat" is strongly connected)."""
    rng = np.random.default_rng(seed)
    strengths = np.linspace(1.5, -1.5, systems)
    size = systems * per_system
    while True:
        first = rng.integers(0, systems, size)
        second = (first + rng.integers(1, systems, size)) % systems
        preferred = rng.random(size) < 1 / (1 + np.exp(strengths[second] - strengths[first]))
        share = np.where(rng.random(size) < tie_share, 0.5, preferred.astype(float))
        decisive = share != 0.5
        beat = wins_of(first[decisive], second[decisive], share[decisive], systems) > 0
        if connected_components(beat, directed=True, connection="strong")[0] == 1:
            return first, second, share


def choix_data(first, second, share):
    """The same judgements for choix, whose comparisons are whole wins: every judgement twice,
    a tie as one win each way (the likelihood doubles; the maximum stays)."""
    data = []
    for a, b, s in zip(first.tolist(), second.tolist(), share.tolist(), strict=True):
        data += {1.0: [(a, b), (a, b)], 0.0: [(b, a), (b, a)], 0.5: [(a, b), (b, a)]}[s]
    return data


def wins_of(first, second, share, systems):
    return bradley_terry.win_matrix(first, second, share, np.ones(len(first)), systems)


SIZES = [(3, 30), (5, 40), (8, 60), (12, 25), (20, 50)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("systems", "per_system"), SIZES)
@pytest.mark.parametrize("ties", ["half", "drop"])
def test_the_maximum_likelihood_equals_choix(seed, systems, per_system, ties):
    """choix's I-LSR without regularisation is the plain maximum; ours with a prior too weak to
    matter (1e-9) equals it once both are centred."""
    first, second, share = campaign(seed, systems, per_system)
    if ties == "drop":
        kept = share != 0.5
        first, second, share = first[kept], second[kept], share[kept]
    expected = choix.ilsr_pairwise(
        systems, choix_data(first, second, share), alpha=0.0, tol=1e-12, max_iter=10_000
    )
    ours = bradley_terry.fit(wins_of(first, second, share, systems), regularisation=1e-9)
    assert ours.mean() == pytest.approx(0, abs=1e-12)
    assert ours == pytest.approx(expected - expected.mean(), abs=1e-6)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("systems", "per_system"), SIZES[:3])
def test_the_default_prior_is_choix_map_estimate_and_moves_scores_by_under_one_percent(
    seed, systems, per_system
):
    """choix's penalty is alpha * sum(theta^2), ours lambda / 2 * sum(theta^2) on half the
    (doubled) data: alpha = lambda."""
    first, second, share = campaign(seed, systems, per_system)
    data = choix_data(first, second, share)
    wins = wins_of(first, second, share, systems)
    ours = bradley_terry.fit(wins)
    expected = choix.opt_pairwise(systems, data, alpha=bradley_terry.REGULARISATION, tol=1e-10)
    assert ours == pytest.approx(expected - expected.mean(), abs=1e-6)
    plain = bradley_terry.fit(wins, regularisation=1e-9)
    assert np.abs(ours - plain).max() < 0.01 * np.ptp(plain)


@pytest.mark.parametrize("seed", range(3))
def test_the_known_order_is_recovered(seed):
    first, second, share = campaign(seed, systems=8, per_system=400)
    scores = bradley_terry.fit(wins_of(first, second, share, 8))
    assert list(np.argsort(-scores)) == list(range(8))


def test_two_systems_worked_by_hand():
    """a preferred 3 times, b once: the maximum has exp(theta_a - theta_b) = 3, so with mean 0
    theta_a = ln(3) / 2; a tie each way adds half a win to both: 3.5 to 1.5."""
    wins = np.array([[0, 3], [1, 0]], dtype=float)
    assert bradley_terry.fit(wins, 1e-12) == pytest.approx([math.log(3) / 2, -math.log(3) / 2])
    tied = bradley_terry.win_matrix(
        np.array([0, 1, 0]), np.array([1, 0, 1]), np.array([1.0, 1.0, 0.5]), [3, 1, 1], 2
    )
    assert tied.tolist() == [[0, 3.5], [1.5, 0]]


def test_a_system_that_always_wins_stays_finite_and_first():
    """Unregularised, its score would be infinite; the prior holds it (a Gaussian of sd 10), and
    the gradient of the penalised likelihood is 0 there."""
    wins = np.array([[0, 30, 20], [0, 0, 5], [0, 4, 0]], dtype=float)
    scores = bradley_terry.fit(wins)
    assert np.isfinite(scores).all() and scores.argmax() == 0
    assert 3 < scores[0] - scores[1:].max() < 20
    p = 1 / (1 + np.exp(scores[None, :] - scores[:, None]))
    gradient = ((wins + wins.T) * p - wins).sum(axis=1) + bradley_terry.REGULARISATION * scores
    assert np.abs(gradient).max() < 1e-8


def test_the_bootstrap_is_seeded_and_centred_on_the_fit():
    first, second, share = campaign(5, systems=6, per_system=80)
    counts = np.ones(len(first))
    runs = [
        bradley_terry.bootstrap(first, second, share, counts, 6, 200, np.random.default_rng(seed))
        for seed in (1, 1, 2)
    ]
    assert np.array_equal(runs[0], runs[1]) and not np.array_equal(runs[0], runs[2])
    assert runs[0].shape == (200, 6)
    point = bradley_terry.fit(wins_of(first, second, share, 6))
    assert np.abs(runs[0].mean(axis=0) - point).max() < 0.1
    assert np.abs(runs[0].sum(axis=1)).max() < 1e-9
