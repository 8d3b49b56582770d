"""Pairwise preference: the file layout, win rates, Bradley-Terry ranks, clusters, agreement."""

import numpy as np
import pytest

from scorer.errors import InputError
from scorer.human import bradley_terry, pairwise
from scorer.human.pairwise import PairwiseJudgement

HEADER = "item,system_a,system_b,winner,annotator\n"


def read(text: str) -> list[PairwiseJudgement]:
    return pairwise.read_pairwise(text.encode(), "pairs.csv")


def judged(*rows: tuple[str, str, str, str, str]) -> list[PairwiseJudgement]:
    return [PairwiseJudgement(*row) for row in rows]


def generated(strengths: dict[str, float], judgements: int, seed: int, annotators: int = 3):
    """A campaign under the Bradley-Terry model: random pairs, 10% ties."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    rows = []
    for number in range(judgements):
        a, b = rng.choice(names, size=2, replace=False)
        p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
        winner = "tie" if rng.random() < 0.1 else ("a" if rng.random() < p else "b")
        rows.append(PairwiseJudgement(f"i{number}", a, b, winner, f"r{number % annotators}"))
    return rows


def test_the_file_is_read_as_every_judgement_file_bom_crlf_quotes_and_other_columns():
    data = (
        "\ufeffitem,system_a,system_b,winner,annotator,note\r\n"
        '1,"tgen, v2",slug,A,w1,"said ""better"""\r\n'
        "1,slug,tgen,Tie,w2,\r\n"
    ).encode()
    first, second = pairwise.read_pairwise(data, "pairs.csv")
    assert (first.system_a, first.winner, first.line) == ("tgen, v2", "a", 2)
    assert (second.winner, second.share_a, second.line) == ("tie", 0.5, 3)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("1,a,b,c,w", r"pairs.csv, line 3: winner 'c' is not one of a, b, tie"),
        ("1,a,a,a,w", r"line 3: system_a and system_b are both 'a': a system is not compared"),
        ("1,a,b,,w", r"line 3: empty winner"),
        ("2,b,a,b,w", r"line 3: annotator w judges b v a on item 2 again \(first on line 2\)"),
    ],
)
def test_a_bad_row_is_refused_naming_its_line(row, message):
    with pytest.raises(InputError, match=message):
        read(HEADER + "2,a,b,a,w\n" + row + "\n")


def test_a_missing_column_is_refused():
    with pytest.raises(InputError, match=r"line 1: lacks the column\(s\) winner"):
        read("item,system_a,system_b,annotator\n1,a,b,w\n")


def test_win_rates_count_a_tie_as_half_or_leave_it_out():
    """A v B: a, a, tie; B v C: a; C v A: a (C preferred). Half: A 2.5 of 4, B 1.5 of 4,
    C 1 of 2; drop: A 2 of 3, B 1 of 3, C 1 of 2."""
    rows = judged(
        ("1", "A", "B", "a", "x"), ("2", "A", "B", "a", "x"), ("3", "A", "B", "tie", "x"),
        ("4", "B", "C", "a", "x"), ("5", "C", "A", "a", "x"),
    )  # fmt: skip
    half = pairwise.analyse(rows, runs=40)
    rates = {row.system: (row.win_rate, row.comparisons) for row in half.rows}
    assert rates == {"A": (2.5 / 4, 4), "B": (1.5 / 4, 4), "C": (0.5, 2)}
    order = [row.system for row in half.rows]
    matrix = dict(zip(order, half.win_rates, strict=True))
    assert matrix["A"][order.index("B")] == pytest.approx(2.5 / 3)
    assert matrix["B"][order.index("A")] == pytest.approx(0.5 / 3)
    assert matrix["A"][order.index("C")] == 0 and matrix["A"][order.index("A")] is None
    drop = pairwise.analyse(rows, ties="drop", runs=40)
    rates = {row.system: (row.win_rate, row.comparisons) for row in drop.rows}
    assert rates == {"A": (2 / 3, 3), "B": (1 / 3, 3), "C": (0.5, 2)}
    assert (drop.judgements, drop.counted) == (5, 4)


def test_scores_are_the_bradley_terry_fit_of_the_counted_judgements():
    rows = generated({"a": 1.0, "b": 0.2, "c": -0.4, "d": -0.8}, 400, seed=2)
    result = pairwise.analyse(rows, runs=40)
    systems = sorted({"a", "b", "c", "d"})
    wins = np.zeros((4, 4))
    for row in rows:
        i, j = systems.index(row.system_a), systems.index(row.system_b)
        wins[i, j] += row.share_a
        wins[j, i] += 1 - row.share_a
    expected = dict(zip(systems, bradley_terry.fit(wins), strict=True))
    assert {row.system: row.score for row in result.rows} == pytest.approx(expected, abs=1e-12)
    assert sum(row.score for row in result.rows) == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_the_known_order_and_its_clusters_are_recovered(seed):
    """Three tiers far apart (2 log odds), close within: the tiers are the clusters."""
    strengths = {"top": 2.0, "mid1": 0.05, "mid2": 0.0, "mid3": -0.05, "low": -2.0}
    result = pairwise.analyse(generated(strengths, 3000, seed), runs=200, seed=seed)
    systems = [row.system for row in result.rows]
    assert systems[0] == "top" and systems[-1] == "low"
    assert [row.cluster for row in result.rows] == [1, 2, 2, 2, 3]
    assert result.rows[0].rank_range == (1, 1) and result.rows[-1].rank_range == (5, 5)
    for row in result.rows:
        assert row.interval[0] <= row.score <= row.interval[1]
    assert result.notes == ()


def test_the_bootstrap_is_seeded():
    rows = generated({"a": 0.5, "b": 0.0, "c": -0.5}, 300, seed=4)
    once, again, other = (pairwise.analyse(rows, runs=50, seed=s) for s in (7, 7, 8))
    assert once.to_dict() == again.to_dict()
    assert [r.interval for r in once.rows] != [r.interval for r in other.rows]


def test_systems_never_compared_with_the_rest_are_refused_naming_the_groups():
    rows = judged(("1", "A", "B", "a", "x"), ("2", "B", "A", "a", "x"), ("3", "C", "D", "a", "x"))
    with pytest.raises(ValueError, match=r"2 groups of systems never compared .* \(A, B; C, D\)"):
        pairwise.analyse(rows, runs=40)


def test_a_system_that_never_lost_is_ranked_first_with_a_note_that_its_score_rests_on_the_prior():
    rows = generated({"b": 0.3, "c": 0.0, "d": -0.3}, 300, seed=5)
    rows += [PairwiseJudgement(f"w{n}", "champ", "bcd"[n % 3], "a", "x") for n in range(30)]
    result = pairwise.analyse(rows, runs=100)
    assert result.rows[0].system == "champ" and result.rows[0].win_rate == 1.0
    assert np.isfinite(result.rows[0].score) and result.rows[0].rank_range == (1, 1)
    (note,) = result.notes
    assert "does not exist" in note and "(champ; " in note and "prior" in note


def test_every_tie_dropped_leaves_nothing_to_rank_and_runs_need_a_95_percent_range():
    rows = judged(("1", "A", "B", "tie", "x"))
    with pytest.raises(ValueError, match="every judgement is a tie"):
        pairwise.analyse(rows, ties="drop")
    with pytest.raises(ValueError, match="runs 39: a 95% range needs 40"):
        pairwise.analyse(rows, runs=39)
    with pytest.raises(ValueError, match="ties 'third'"):
        pairwise.analyse(rows, ties="third")


def test_agreement_is_nominal_over_pairs_on_items_whichever_side_a_system_was_shown():
    """Units: item 1 A v B (A, A: the second shown as B v A, winner b), item 2 A v B (A, tie),
    item 3 A v B (B, B), item 4 A v B (one judgement: not pairable). Values A = 3, tie = 1,
    B = 2 (n = 6); disagreeing ordered pairs 2, expected 2 (3 * 1 + 3 * 2 + 1 * 2) = 22:
    alpha = 1 - 5 * 2 / 22."""
    rows = judged(
        ("1", "A", "B", "a", "x"), ("1", "B", "A", "b", "y"),
        ("2", "A", "B", "a", "x"), ("2", "A", "B", "tie", "y"),
        ("3", "B", "A", "a", "x"), ("3", "A", "B", "b", "y"),
        ("4", "A", "B", "a", "x"),
    )  # fmt: skip
    result = pairwise.pairwise_agreement(rows)
    assert result.krippendorff_alpha == pytest.approx(1 - 10 / 22, abs=1e-12)
    assert result.to_dict()["level"] == "nominal"
    assert (result.units, result.pairable_units, result.judges) == (4, 3, 2)
    assert result.complete_share == 0.75
    assert pairwise.analyse(rows, ties="drop", runs=40).agreement == result
