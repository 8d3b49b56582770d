"""The protocol registry: each protocol carries what a board asks of it."""

from __future__ import annotations

import pytest

from scorer.human.protocols import PROTOCOLS, Settings, protocol
from scorer.human.protocols.pairwise import CRITERION

LEVELS = {"rankme": "interval", "da": "interval", "rose": "nominal", "likert": "interval",
          "pairwise": "nominal"}  # fmt: skip


def test_every_protocol_names_its_agreement_level_and_allows_its_default_clusters():
    assert {name: p.agreement_level for name, p in PROTOCOLS.items()} == LEVELS
    for found in PROTOCOLS.values():
        assert found.check_clusters(found.default_clusters) == found.default_clusters
    assert PROTOCOLS["da"].default_clusters == "wmt"
    assert PROTOCOLS["da"].clusters == ("wmt", "webnlg2020")
    assert PROTOCOLS["rankme"].clusters == ("trueskill",)


def test_a_procedure_the_protocol_does_not_allow_is_refused_naming_those_it_does():
    with pytest.raises(ValueError, match="wmt, webnlg2020"):
        PROTOCOLS["likert"].check_clusters("trueskill")
    with pytest.raises(ValueError, match="not one of rankme, da, rose, likert, pairwise"):
        protocol("bws")


def test_likert_page_answers_each_criterion_on_its_scale():
    likert = PROTOCOLS["likert"]
    form = {"likert-semantics": "3", "likert-grammar": "1", "likert-fluency": "2"}
    settings = Settings("semantics", "wmt")
    assert likert.answers([0], settings, form) == {
        (0, "semantics"): 3.0, (0, "grammar"): 1.0, (0, "fluency"): 2.0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="from 1-3 for grammar"):
        likert.answers([0], settings, {**form, "likert-grammar": "4"})


def test_a_likert_campaign_asks_its_own_criteria_on_their_scales_and_directions():
    likert = PROTOCOLS["likert"]
    options = likert.read_options(
        {
            "criteria": "fluency 1-5\nadequacy 1-7 lower; clarity bad, fair, good",
            "aggregate": "median",
        }
    )
    assert options == {
        "criteria": [
            {"name": "fluency", "scale": "1-5", "direction": "higher"},
            {"name": "adequacy", "scale": "1-7", "direction": "lower"},
            {"name": "clarity", "scale": "bad,fair,good", "direction": "higher"},
        ],
        "aggregate": "median",
    }
    assert likert.read_options(options) == options, "the stored form reads back as itself"
    asked = likert.questions(options)
    assert [(c.name, c.scale, c.direction) for c in asked] == [
        ("fluency", "1-5", "higher"), ("adequacy", "1-7", "lower"), ("clarity", "bad,fair,good", "higher"),
    ]  # fmt: skip
    assert likert.points(asked[2]) == ["bad", "fair", "good"]
    settings = Settings("fluency", "wmt", options=options)
    form = {"likert-fluency": "5", "likert-adequacy": "7", "likert-clarity": "fair"}
    assert likert.answers([0], settings, form) == {
        (0, "fluency"): 5.0, (0, "adequacy"): 7.0, (0, "clarity"): 2.0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="from 1-5 for fluency"):
        likert.answers([0], settings, {**form, "likert-fluency": "6"})
    assert "adequacy 1-7 (lower is better)" in likert.describe_options(options)
    assert "median" in likert.describe_options(options)
    assert likert.read_options({"criteria": "semantics 1-3; grammar 1-3; fluency 1-3"}) == {}


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"criteria": "fluency"}, "give NAME SCALE"),
        ({"criteria": "fluency 5-1"}, "give LOW-HIGH"),
        ({"criteria": "fluency 1-5; fluency 1-7"}, "given twice"),
        ({"criteria": "9lives 1-5"}, "a letter, then"),
        ({"aggregate": "mode"}, "one of mean, median"),
        ({"ties": "half"}, "takes criteria and aggregate"),
    ],
)
def test_bad_likert_options_are_refused_saying_what_to_give(given, says):
    with pytest.raises(ValueError, match=says):
        PROTOCOLS["likert"].read_options(given)


def test_a_likert_campaigns_direction_and_aggregate_reach_its_analysis():
    from scorer.human.judgements import Judgement

    judgements = [
        Judgement(str(item), system, f"r{k}", "effort", float(point))
        for item in range(6)
        for system, points in (("low", (1, 1, 7)), ("high", (6, 6, 1)))
        for k, point in enumerate(points)
    ]
    likert = PROTOCOLS["likert"]
    options = likert.read_options({"criteria": "effort 1-7 lower", "aggregate": "median"})
    results = likert.analyse(judgements, Settings("effort", "wmt", options=options))
    assert [row["system"] for row in results["systems"]] == ["low", "high"]
    assert [row["mean"] for row in results["systems"]] == [1.0, 6.0], "the median of 3 judges"
    assert results["criteria"]["effort"]["direction"] == "lower"
    assert results["criteria"]["effort"]["aggregate"] == "median"
    by_mean = likert.analyse(judgements, Settings("effort", "wmt"))
    assert [row["mean"] for row in by_mean["systems"]] == [pytest.approx(13 / 3), 3.0]


def test_pairwise_ties_are_the_campaigns_choice():
    pairwise = PROTOCOLS["pairwise"]
    assert pairwise.read_options({"ties": "drop"}) == {"ties": "drop"}
    assert pairwise.read_options({"ties": "half"}) == {}
    with pytest.raises(ValueError, match="ties 'both'"):
        pairwise.read_options({"ties": "both"})
    with pytest.raises(ValueError, match="takes only ties"):
        pairwise.read_options({"criteria": "fluency 1-5"})
    with pytest.raises(ValueError, match="takes no options"):
        PROTOCOLS["da"].read_options({"ties": "drop"})


def test_pairwise_page_gives_each_side_its_share_and_reads_back_as_a_verdict():
    pairwise = PROTOCOLS["pairwise"]
    settings = Settings(CRITERION, "rank-ranges")
    assert pairwise.answers([0, 1], settings, {"winner": "b"}) == {
        (0, CRITERION): 0.0, (1, CRITERION): 1.0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="A, B or tie"):
        pairwise.answers([0, 1], settings, {"winner": "both"})


def test_a_pairwise_file_is_read_as_two_sides_per_verdict_and_analysed():
    rows = "item,system_a,system_b,winner,annotator,team_a,team_b\n" + "".join(
        f"{item},x,y,{winner},r{k},A,B\n"
        for item in range(1, 7)
        for k, winner in enumerate(("a", "a", "tie"))
    )
    pairwise = PROTOCOLS["pairwise"]
    judgements, notes = pairwise.read(rows.encode(), "p.csv", CRITERION)
    assert notes == {"verdicts": 18} and len(judgements) == 36
    assert (judgements[0].label, judgements[0].score) == ("A / x", 1.0)
    assert (judgements[1].label, judgements[1].score) == ("B / y", 0.0)
    settings = Settings(CRITERION, "rank-ranges", runs=40)
    results = pairwise.analyse(judgements, settings)
    assert [row["system"] for row in results["systems"]] == ["x", "y"]
    assert pairwise.agreement(judgements, settings).level == "nominal"
    table = pairwise.table(results)
    assert table.columns[:2] == ["#", "Score"] and table.rows[0][0] == "x"
    assert results["ties"] == "half" and results["systems"][0]["comparisons"] == 18
    dropped = pairwise.analyse(
        judgements, Settings(CRITERION, "rank-ranges", runs=40, options={"ties": "drop"})
    )
    assert dropped["ties"] == "drop" and dropped["systems"][0]["comparisons"] == 12


def test_likert_analyses_every_criterion_ranked_by_the_campaigns_own():
    rows = "item,system,annotator,criterion,score,subset\n" + "".join(
        f"{item},{system},r{k},{criterion},{score},{'seen' if item < 3 else 'unseen'}\n"
        for item in range(1, 5)
        for k in range(2)
        for system, score in (("x", 3), ("y", 1))
        for criterion in ("semantics", "fluency")
    )
    likert = PROTOCOLS["likert"]
    judgements, _ = likert.read(rows.encode(), "l.csv", "fluency")
    results = likert.analyse(judgements, Settings("fluency", "wmt"))
    assert results["criterion"] == "fluency" and set(results["criteria"]) == {
        "fluency",
        "semantics",
    }
    top = results["systems"][0]
    assert (top["system"], top["mean"], top["n"]) == ("x", 3.0, 4)
    assert top["criteria"]["semantics"]["mean"] == 3.0
    table = likert.table(results)
    assert table.columns == ["#", "fluency", "n", "semantics", "fluency (seen)", "fluency (unseen)"]
    found = likert.agreement(judgements, Settings("fluency", "wmt"))
    outputs = {(j.item, j.system) for j in judgements if j.criterion == "fluency"}
    assert found.level == "interval"
    assert found.units == len(outputs), "the campaign's criterion only, not every criterion's"


def test_a_judges_score_is_kept_where_some_layout_of_its_protocols_import_keeps_it():
    """What a bundle's judge may carry: DA's slider range; RankME's values outside 0-100, which
    E2E's layout keeps; a Likert judge's mean between the points."""
    assert protocol("da").judge_score_error(100.0) is None
    assert protocol("da").judge_score_error(100.5) == " is not from 0 to 100"
    assert protocol("rankme").judge_score_error(120.0) is None
    assert protocol("likert").judge_score_error(4.5) is None
    assert protocol("likert").score_error(4.5, imported=True)  # a human's is a point
