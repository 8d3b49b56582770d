"""Krippendorff's alpha: hand-worked cases, the krippendorff package as oracle, degenerate data."""

import json

import krippendorff
import numpy as np
import pytest

from scorer.human import agreement
from scorer.human.judgements import Judgement

NAN = np.nan


def test_a_nominal_example_worked_by_hand():
    """Two coders, four units: (1, 1), (1, 2), (2, 2), (2, 2). Coincidences (each unit's two
    ordered pairs weigh 1 / (2 - 1)): o_11 = 2, o_12 = o_21 = 1, o_22 = 4; n_1 = 3, n_2 = 5,
    n = 8. alpha = 1 - (n - 1) (o_12 + o_21) / (n_1 n_2 + n_2 n_1) = 1 - 7 * 2 / 30 = 8 / 15."""
    data = np.array([[1, 1, 2, 2], [1, 2, 2, 2]], dtype=float)
    result = agreement.of_reliability_data(data, "nominal")
    assert result.krippendorff_alpha == pytest.approx(8 / 15, abs=1e-12)
    assert (result.units, result.pairable_units, result.complete_share) == (4, 4, 1.0)


def test_an_interval_example_worked_by_hand():
    """Units (1, 1), (2, 2), (3, 4): only the last disagrees, sum of ordered pairs
    (3 - 4)^2 + (4 - 3)^2 = 2; all six values 1, 1, 2, 2, 3, 4 have mean 13/6 and sum of squares
    35 - 169/6 = 41/6, so sum n_c n_k (c - k)^2 = 2 * 6 * 41/6 = 82. alpha = 1 - 5 * 2 / 82."""
    data = np.array([[1, 2, 3], [1, 2, 4]], dtype=float)
    result = agreement.of_reliability_data(data, "interval")
    assert result.krippendorff_alpha == pytest.approx(1 - 10 / 82, abs=1e-12)


def test_an_ordinal_example_worked_by_hand():
    """Units (1, 2), (2, 3), (3, 3): n_1 = 1, n_2 = 2, n_3 = 3 (n = 6); mid-ranks 0.5, 2, 4.5, so
    d_12 = 1.5^2, d_23 = 2.5^2, d_13 = 4^2. Observed: 2 (d_12 + d_23) = 17;
    expected: 2 (1 * 2 * 2.25 + 2 * 3 * 6.25 + 1 * 3 * 16) = 180. alpha = 1 - 5 * 17 / 180."""
    data = np.array([[1, 2, 3], [2, 3, 3]], dtype=float)
    result = agreement.of_reliability_data(data, "ordinal")
    assert result.krippendorff_alpha == pytest.approx(1 - 85 / 180, abs=1e-12)


def _reliability_data(seed: int, level: str) -> np.ndarray:
    """Coders x units, values from a few categories (or 0-100 scores for interval), a
    random share of the cells missing; the units agree more than chance (a true value each)."""
    rng = np.random.default_rng(seed)
    coders, units = int(rng.integers(2, 8)), int(rng.integers(3, 80))
    if level == "interval" and seed % 2:
        scores = rng.normal(50, 20, units) + rng.normal(0, 10, (coders, units))
        data = np.clip(np.round(scores), 0, 100)  # DA's 0-100 slider
    else:
        categories = int(rng.integers(2, 8))
        truth = rng.integers(0, categories, units)
        noise = rng.integers(0, categories, (coders, units))
        data = np.where(rng.random((coders, units)) < 0.6, truth, noise).astype(float)
    share = rng.uniform(0, 0.6)
    while True:  # missing cells drawn again until alpha is defined (two pairable values differ)
        missing = data.copy()
        missing[rng.random(data.shape) < share] = NAN
        pairable = missing[:, (~np.isnan(missing)).sum(axis=0) >= 2]
        if len(np.unique(pairable[~np.isnan(pairable)])) > 1:
            return missing


@pytest.mark.parametrize("level", agreement.LEVELS)
@pytest.mark.parametrize("seed", range(60))
def test_alpha_equals_the_krippendorff_package(level, seed):
    data = _reliability_data(seed, level)
    ours = agreement.of_reliability_data(data, level).krippendorff_alpha
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert ours is not None
    assert ours == pytest.approx(float(expected), abs=1e-9)


def test_alpha_is_undefined_without_variation_or_without_a_pairable_unit():
    same = agreement.of_reliability_data(np.array([[3, 3, NAN], [3, NAN, 3.0]]), "interval")
    assert same.krippendorff_alpha is None
    assert "same value" in same.note and same.to_dict()["krippendorff_alpha"] is None
    alone = agreement.of_reliability_data(np.array([[1, NAN], [NAN, 2.0]]), "nominal")
    assert alone.krippendorff_alpha is None and "two annotators" in alone.note
    assert (alone.units, alone.pairable_units) == (2, 0)


def test_complete_share_counts_units_judged_by_the_campaigns_number_of_annotators():
    data = np.array([[1, 1, 2, 3], [1, 2, NAN, 3], [2, NAN, NAN, NAN]], dtype=float)
    most = agreement.of_reliability_data(data, "nominal")
    assert (most.judges, most.complete_share) == (3, 0.25)
    two = agreement.of_reliability_data(data, "nominal", judges=2)
    assert (two.judges, two.complete_share) == (2, 0.75)
    with pytest.raises(ValueError, match="judges 0"):
        agreement.of_reliability_data(data, "nominal", judges=0)


def test_the_dictionary_names_the_level():
    result = agreement.of_reliability_data(np.array([[1, 2, 3.0], [1, 2, 4.0]]), "interval")
    assert json.loads(json.dumps(result.to_dict())) == {
        "krippendorff_alpha": round(1 - 10 / 82, 6),
        "level": "interval",
        "units": 3,
        "pairable_units": 3,
        "complete_share": 1.0,
        "judges": 2,
        "note": None,
    }
    with pytest.raises(ValueError, match="level of measurement 'ratio'"):
        agreement.alpha([[1, 2]], "ratio")


def test_judgements_give_one_unit_per_output_and_leave_quality_control_out():
    rows = [
        ("i1", "sysA", "x", 70), ("i1", "sysA", "y", 80), ("i1", "sysB", "x", 20),
        ("i1", "sysB", "y", 30), ("i2", "sysA", "x", 55), ("i2", "sysA", "y", 60),
    ]  # fmt: skip
    judgements = [Judgement(i, s, a, "fluency", v) for i, s, a, v in rows]
    judgements += [
        Judgement("i1", "sysA", "x", "fluency", 5, kind="damaged"),
        Judgement("i1", "sysA", "x", "adequacy", 99),
    ]
    result = agreement.of_judgements(judgements, "interval", criterion="fluency")
    data = np.array([[70, 20, 55], [80, 30, 60]], dtype=float)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert result.krippendorff_alpha == pytest.approx(float(expected), abs=1e-12)
    assert result.units == 3
    every_criterion = agreement.of_judgements(judgements, "interval")
    assert every_criterion.units == 4 and every_criterion.pairable_units == 3
