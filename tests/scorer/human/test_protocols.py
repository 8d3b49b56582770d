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
    assert likert.answers([0], "semantics", form) == {
        (0, "semantics"): 3.0, (0, "grammar"): 1.0, (0, "fluency"): 2.0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="from 1-3 for grammar"):
        likert.answers([0], "semantics", {**form, "likert-grammar": "4"})


def test_pairwise_page_gives_each_side_its_share_and_reads_back_as_a_verdict():
    pairwise = PROTOCOLS["pairwise"]
    assert pairwise.answers([0, 1], CRITERION, {"winner": "b"}) == {
        (0, CRITERION): 0.0, (1, CRITERION): 1.0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="A, B or tie"):
        pairwise.answers([0, 1], CRITERION, {"winner": "both"})


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
    assert likert.agreement(judgements, Settings("fluency", "wmt")).level == "interval"
