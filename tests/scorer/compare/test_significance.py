"""Paired bootstrap on statistics: deterministic, symmetric, and it separates real differences."""

import dataclasses

import numpy as np
import pytest

from scorer.compare.significance import paired_bootstrap, resample_weights
from scorer.kinds import get_profile


def test_resample_weights_draw_n_items_per_sample():
    weights = resample_weights(items=50, samples=200, seed=1)
    assert weights.shape == (200, 50)
    assert (weights.sum(axis=1) == 50).all()
    assert np.array_equal(weights, resample_weights(items=50, samples=200, seed=1))


@pytest.fixture
def bleu_profile():
    return dataclasses.replace(get_profile("e2e"), metrics=("BLEU", "NIST"))


REFS = [(f"the restaurant number {i} serves cheap food near the river",) for i in range(60)]
GOOD = [f"the restaurant number {i} serves cheap food near the river" for i in range(60)]
BAD = [f"restaurant {i} is a place" for i in range(60)]


def test_clear_difference_is_significant_and_identical_systems_are_not(bleu_profile):
    good = bleu_profile.statistics(GOOD, REFS)
    bad = bleu_profile.statistics(BAD, REFS)
    (bleu, nist) = paired_bootstrap(bleu_profile, good, bad, samples=200)
    assert bleu.metric == "BLEU" and bleu.difference > 0.5 and bleu.significant
    assert bleu.low <= bleu.difference <= bleu.high
    assert nist.metric == "NIST" and nist.significant
    same = paired_bootstrap(bleu_profile, good, good, samples=200)
    assert all(c.difference == 0 and not c.significant for c in same)


def test_swapping_systems_flips_the_interval(bleu_profile):
    good = bleu_profile.statistics(GOOD, REFS)
    bad = bleu_profile.statistics(BAD, REFS)
    forward = paired_bootstrap(bleu_profile, good, bad, samples=100)[0]
    backward = paired_bootstrap(bleu_profile, bad, good, samples=100)[0]
    assert forward.difference == pytest.approx(-backward.difference)
    assert forward.low == pytest.approx(-backward.high)
    assert forward.p_value == backward.p_value
