"""Likert ratings (scorer/human/likert.py) worked by hand, and WebNLG 2017's held-back check."""

import csv
import json

import pytest
from click.testing import CliRunner

from scorer.cli.human import main
from scorer.errors import InputError
from scorer.human import likert
from scorer.human.judgements import Judgement, read_judgements, webnlg2017_criterion
from scorer.io.table import read_table
from tests.support.paths import SHARED_DATA

#: (system, item, subset) -> the judges' points on 1-3.
POINTS = {
    ("s1", "1", "seen"): [3, 3, 2],
    ("s1", "2", "seen"): [1, 2],
    ("s1", "3", "unseen"): [2, 2, 2, 3],
    ("s2", "1", "seen"): [1, 1, 1],
    ("s2", "2", "seen"): [2, 1, 1],
    ("s2", "3", "unseen"): [2, 3, 2],
}


def judgements(points=POINTS, criterion="semantics"):
    return [
        Judgement(item, system, f"judge{n}", criterion, float(point), subset=subset)
        for (system, item, subset), values in points.items()
        for n, point in enumerate(values)
    ]


def test_system_mean_is_the_mean_over_outputs_of_the_judges_mean_by_hand():
    result = likert.analyse(judgements(), "semantics", likert.Scale(1, 3))
    s1, s2 = result.systems
    # s1: outputs 8/3, 3/2, 9/4 -> (8/3 + 3/2 + 9/4) / 3 = 77/36 (all 9 points pooled: 20/9)
    assert (s1.system, s1.n, s1.judgements) == ("s1", 3, 9)
    assert s1.mean == pytest.approx(77 / 36)
    assert s1.subsets["seen"].mean == pytest.approx((8 / 3 + 3 / 2) / 2)
    assert (s1.subsets["unseen"].mean, s1.subsets["unseen"].n) == (2.25, 1)
    # s2: outputs 1, 4/3, 7/3 -> 14/9
    assert (s2.system, s2.mean) == ("s2", pytest.approx(14 / 9))
    assert result.to_dict()["systems"][0]["subsets"]["seen"] == {
        "mean": pytest.approx(25 / 12),
        "n": 2,
    }


def test_means_by_each_attribute_of_the_items_and_no_by_without_attributes():
    """Items 1, 2 seen and 3 unseen; sizes 2, 10, 2 (numbers in numeric order); item 2 has no
    category: it counts in no category's mean."""
    attributes = {
        "1": {"type": "seen", "triplesize": "2", "category": "Airport"},
        "2": {"type": "seen", "triplesize": "10", "category": ""},
        "3": {"type": "unseen", "triplesize": "2", "category": "Airport"},
    }
    result = likert.analyse(judgements(), "semantics", attributes=attributes)
    s1 = result.systems[0]
    assert s1.by is not None and list(s1.by) == ["type", "triplesize", "category"]
    assert s1.by["type"]["seen"] == likert.SubsetScore(pytest.approx((8 / 3 + 3 / 2) / 2), 2)
    assert list(s1.by["triplesize"]) == ["2", "10"]
    assert s1.by["triplesize"]["2"].mean == pytest.approx((8 / 3 + 9 / 4) / 2)
    assert s1.by["category"] == {"Airport": s1.by["triplesize"]["2"]}
    row = result.to_dict()["systems"][1]
    assert row["by"]["type"]["unseen"] == {"mean": pytest.approx(7 / 3), "n": 1}
    assert row["subsets"] == {"seen": {"mean": pytest.approx(7 / 6), "n": 2},
                              "unseen": {"mean": pytest.approx(7 / 3), "n": 1}}  # fmt: skip
    plain = likert.analyse(judgements(), "semantics").to_dict()["systems"][0]
    assert "by" not in plain and plain["subsets"]["unseen"] == {"mean": 2.25, "n": 1}
    assert likert.analyse(judgements(), "semantics", attributes={}).systems[0].by == {}


def test_the_median_of_the_judges_when_the_campaign_says_so():
    result = likert.analyse(judgements(), "semantics", aggregate="median")
    s1, s2 = result.systems
    assert s1.mean == pytest.approx((3 + 1.5 + 2) / 3)
    assert s2.mean == pytest.approx((1 + 1 + 2) / 3)
    assert result.to_dict()["aggregate"] == "median"


def test_lower_is_better_reverses_the_order_and_the_tests():
    higher = likert.analyse(judgements(), "semantics")
    lower = likert.analyse(judgements(), "semantics", higher_is_better=False)
    assert [row.system for row in lower.systems] == ["s2", "s1"]
    assert lower.systems[0].mean == pytest.approx(14 / 9)  # the means stay as rated
    assert lower.p_values[0, 1] == pytest.approx(higher.p_values[0, 1])
    assert lower.to_dict()["direction"] == "lower"


def test_clusters_by_the_campaigns_procedure_on_output_scores():
    """Output means 6..10 (A), 1.5 4.5 5.5 6.5 9.5 (B), 1..5 (C) on 1-10, two judges each:
    A beats C, neither A-B nor B-C differ (tests/scorer/human/test_clusters.py's example)."""
    means = {"A": [6, 7, 8, 9, 10], "B": [1.5, 4.5, 5.5, 6.5, 9.5], "C": [1, 2, 3, 4, 5]}
    points = {
        (system, str(n), ""): [int(mean), int(mean + 0.5)]
        for system, values in means.items()
        for n, mean in enumerate(values)
    }
    data = judgements(points, "fluency")
    for procedure, expected in (("wmt", (1, 1, 1)), ("webnlg2020", (1, 1, 2))):
        result = likert.analyse(data, "fluency", likert.Scale(1, 10), clusters=procedure)
        assert [row.system for row in result.systems] == ["A", "B", "C"]
        assert [row.mean for row in result.systems] == [8, 5.5, 3]
        assert result.clusters == expected
        assert result.to_dict()["clusters"] == procedure


def test_the_scale_is_read_from_the_data_or_given_and_a_point_off_it_is_refused():
    assert str(likert.analyse(judgements(), "semantics").scale) == "1-3"
    assert likert.analyse(judgements(), "semantics").to_dict()["scale_from"] == "data"
    header = "item,system,annotator,criterion,score\n"
    off = read_judgements((header + "1,a,x,fluency,2\n1,a,y,fluency,4\n").encode(), "l.csv")
    with pytest.raises(InputError, match=r"l.csv, line 3: score 4 is off the scale 1-3 of fluency"):
        likert.analyse(off, "fluency", likert.Scale.parse("1-3"), filename="l.csv")
    half = read_judgements((header + "1,a,x,fluency,2.5\n").encode(), "l.csv")
    with pytest.raises(InputError, match=r"line 2: score 2.5 is not a point"):
        likert.analyse(half, "fluency", filename="l.csv")
    with pytest.raises(InputError, match=r"no judgements for criterion 'grammar' \(criteria: flu"):
        likert.analyse(half, "grammar", filename="l.csv")


def test_named_points_are_valued_in_the_order_given():
    scale = likert.Scale.parse("bad, fair ,good")
    assert (scale.low, scale.high, str(scale)) == (1, 3, "bad,fair,good")
    data = b"item,system,annotator,criterion,score\n1,a,x,q,good\n1,a,y,q,fair\n2,a,x,q,bad\n"
    result = likert.analyse(read_judgements(data, "n.csv", scale.read), "q", scale)
    assert result.systems[0].mean == pytest.approx((2.5 + 1) / 2)
    with pytest.raises(InputError, match=r"n.csv, line 2: score 'good' is not a number; name"):
        read_judgements(data, "n.csv", likert.read_number)
    for bad in ("3-1", "good", "a,a", "1,2,3", ""):
        with pytest.raises(ValueError, match="give LOW-HIGH"):
            likert.Scale.parse(bad)


WEBNLG2017 = SHARED_DATA / "webnlg" / "2017" / "human-evaluation"
JUDGEMENTS = "all_data_final_scores_anonymised.csv"


def likert_json(path, criterion):
    """``nlg-human likert --json`` on ``path``, the check as the organisers' figures are made."""
    command = ["likert", "--judgements", str(path), "--criterion", criterion, "--scale", "1-3"]
    result = CliRunner().invoke(main, [*command, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_webnlg2017_per_system_averages_are_the_organisers():
    """Held back: the organisers' per-judgement file ``all_data_final_scores_anonymised.csv``
    in ../shared/data/webnlg/2017/human-evaluation/ and, beside it where someone copied them,
    their averages as ``published.csv`` (``criterion,system,mean``, and optionally a column per
    value of an item attribute, e.g. ``seen,unseen``), each figure compared at its own decimals.
    Without ``published.csv``: every team has a mean within 1..3 on each of the 3 criteria."""
    path = WEBNLG2017 / JUDGEMENTS
    if not path.is_file():
        pytest.skip(
            f"WebNLG 2017's per-judgement file is held back: put the organisers' {JUDGEMENTS} "
            f"in {WEBNLG2017} (their averages beside it as published.csv) to run this check"
        )
    published = _published(WEBNLG2017 / "published.csv")
    _, records = read_table(path.read_bytes(), path.name)
    teams = {record.values["team"].strip() for record in records}
    compared = 0
    for criterion in ("semantics", "grammar", "fluency"):
        payload = likert_json(path, criterion)
        ours = {row["system"]: row for row in payload["systems"]}
        assert set(ours) == teams, criterion
        assert all(1 <= row["mean"] <= 3 for row in ours.values()), criterion
        for row in published.get(criterion, []):
            compared += _compare(criterion, row, ours[row["system"]])
    assert compared >= sum(len(rows) for rows in published.values())


def _published(path):
    """criterion (the board's name) -> the organisers' rows, or nothing without the file."""
    if not path.is_file():
        return {}
    rows = {}
    with path.open(encoding="utf-8-sig", newline="") as published:
        for row in csv.DictReader(published):
            rows.setdefault(webnlg2017_criterion(row["criterion"].strip()), []).append(row)
    return rows


def _compare(criterion, row, ours):
    """Each figure of the organisers' row against ours at its decimals; how many compared."""
    compared = 0
    for column, text in row.items():
        if column in ("criterion", "system") or not text.strip():
            continue
        if column == "mean":
            value = ours["mean"]
        else:
            value = next(v[column]["mean"] for v in ours["by"].values() if column in v)
        decimals = len(text.strip().partition(".")[2])
        assert f"{value:.{decimals}f}" == text.strip(), (criterion, row["system"], column)
        compared += 1
    return compared
