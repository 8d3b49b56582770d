"""An automatic judge beside the humans: its spec checked, its figures compared on the outputs
both scored, Krippendorff's alpha with and without it (against the krippendorff package), and
the offline command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from scorer.cli.human import main
from scorer.errors import InputError
from scorer.human.judge import JudgeSpec, compare
from scorer.human.judgements import Judgement

SPEC = {
    "model": "some-llm-8b",
    "prompt_sha256": "a" * 64,
    "decoding": {"temperature": 0, "max_tokens": 16},
    "date": "2026-11-01",
}
HUMAN = {("1", "a"): [3, 3, 2], ("1", "b"): [1, 2, 1], ("2", "a"): [2, 2, 3],
         ("2", "b"): [1, 1, 2], ("3", "a"): [3, 2, 3], ("3", "b"): [2, 1, 1],
         ("1", "c"): [2, 2, 2], ("2", "c"): [3, 2, 2], ("3", "c"): [2, 3, 2]}  # fmt: skip
MACHINE = {("1", "a"): 3, ("1", "b"): 1, ("2", "a"): 3, ("2", "b"): 2, ("3", "a"): 2,
           ("3", "b"): 1, ("1", "c"): 2, ("2", "c"): 2, ("3", "c"): 3, ("4", "a"): 1}  # fmt: skip


def _humans() -> list[Judgement]:
    return [
        Judgement(item, system, f"h{n}", "fluency", float(score))
        for (item, system), scores in HUMAN.items()
        for n, score in enumerate(scores)
    ]


def _judge() -> list[Judgement]:
    return [
        Judgement(item, system, "llm", "fluency", float(score))
        for (item, system), score in MACHINE.items()
    ]


def test_the_spec_names_what_was_run_and_refuses_what_does_not_say_it():
    assert JudgeSpec.parse(SPEC, "spec.json").to_dict() == SPEC
    for broken, message in (
        ({**SPEC, "prompt_sha256": "abc"}, "64 lowercase hex"),
        ({k: v for k, v in SPEC.items() if k != "date"}, "missing: date"),
        ({**SPEC, "seed": 1}, "unknown: seed"),
        ({**SPEC, "decoding": {"nested": {"x": 1}}}, "plain values"),
        ({**SPEC, "date": "yesterday"}, "YYYY-MM-DD"),
        ({**SPEC, "model": ""}, "model is a name"),
        ([1, 2], "a mapping"),
    ):
        with pytest.raises(InputError, match=message):
            JudgeSpec.parse(broken, "spec.json")


def test_the_judge_is_compared_on_the_outputs_both_scored_and_never_mixed_in():
    import krippendorff

    result = compare(_humans(), _judge(), JudgeSpec.parse(SPEC, "s"), "fluency")
    by_system = {row["system"]: row for row in result.systems}
    assert by_system["a"]["outputs"] == 3  # item 4 was never judged by people
    assert by_system["a"]["human"] == pytest.approx((8 / 3 + 7 / 3 + 8 / 3) / 3)
    assert by_system["a"]["judge"] == pytest.approx((3 + 3 + 2) / 3)
    keys = sorted(HUMAN)
    people = np.array([[HUMAN[k][n] for k in keys] for n in range(3)], dtype=float)
    alone = krippendorff.alpha(reliability_data=people, level_of_measurement="interval")
    joint = np.vstack([people, [[MACHINE[k] for k in keys]]])
    both = krippendorff.alpha(reliability_data=joint, level_of_measurement="interval")
    assert result.humans.krippendorff_alpha == pytest.approx(alone)
    assert result.with_judge.krippendorff_alpha == pytest.approx(both)
    human = [by_system[s]["human"] for s in "abc"]
    judge = [by_system[s]["judge"] for s in "abc"]
    assert result.pearson == pytest.approx(np.corrcoef(human, judge)[0, 1])


def test_a_judge_of_other_outputs_is_refused():
    other = [Judgement("9", "z", "llm", "fluency", 1.0)]
    with pytest.raises(ValueError, match="scored none of the outputs"):
        compare(_humans(), other, JudgeSpec.parse(SPEC, "s"), "fluency")


def test_the_command_prints_the_spec_and_both_alphas(tmp_path):
    humans = tmp_path / "humans.csv"
    humans.write_text(
        "item,system,annotator,criterion,score\n"
        + "".join(f"{j.item},{j.system},{j.annotator},fluency,{j.score}\n" for j in _humans())
    )
    judge = tmp_path / "judge.csv"
    judge.write_text(
        "item,system,annotator,criterion,score\n"
        + "".join(f"{j.item},{j.system},llm,fluency,{j.score}\n" for j in _judge())
    )
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    command = ["judge", "--judgements", str(humans), "--judge", str(judge), "--spec", str(spec)]
    result = CliRunner().invoke(main, [*command, "--criterion", "fluency", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["judge"] == SPEC
    assert payload["agreement"]["humans"]["level"] == "interval"
    assert set(payload["agreement"]) == {"humans", "humans_and_judge"}
    text = CliRunner().invoke(main, [*command, "--criterion", "fluency"])
    assert "judge some-llm-8b (prompt aaaaaaaaaaaa, 2026-11-01)" in text.output
    spec.write_text(json.dumps({**SPEC, "date": "soon"}))
    refused = CliRunner().invoke(main, [*command, "--criterion", "fluency"])
    assert (
        refused.exit_code == 2 and "spec.json" in refused.output and "YYYY-MM-DD" in refused.output
    )
