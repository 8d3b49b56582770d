"""The ``webnlg2017`` profile through ``nlg-score``: readers, normalisation, the first three
references, all / seen / unseen, breakdowns, and the published tables' printing rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli.score import main
from scorer.kinds import get_profile, truncate
from scorer.metrics import get_metric
from scorer.references import ReferenceSet

ENTRIES = [
    (
        "Airport",
        "Aarhus | leaderName | Jacob_Bundsgaard",
        ["The leader of Aarhus is Jacob Bundsgaard."],
    ),
    (
        "Food",
        "Bakso | country | Indonesia",
        [
            "Bakso is a food from Indonesia.",
            "Bakso comes from Indonesia.",
            "Indonesia is where Bakso is from.",
            "A fourth reference, never used.",
        ],
    ),
    ("Artist", "Aaron_Turner | genre | Post-metal", ["Aaron Turner plays post-metal music."]),
    (
        "Politician",
        "Abdul_Taib_Mahmud | party | Barisan_Ra'ayat",
        ["Abdul Taib Mahmud was in Barisan Ra'ayat."],
    ),
]
OUTPUTS = [
    "The leader of Aarhus is Jacob Bundsgaard.",
    "A fourth reference, never used.",
    "AARON TURNER plays POST-METAL music!",
    "",
]


def write_benchmark(folder: Path) -> Path:
    entries = []
    for number, (category, triple, lexes) in enumerate(ENTRIES, start=1):
        lex = "".join(
            f'<lex comment="good" lid="Id{k}">{text}</lex>' for k, text in enumerate(lexes)
        )
        entries.append(
            f'<entry category="{category}" eid="Id{number}" size="1">'
            f"<modifiedtripleset><mtriple>{triple}</mtriple></modifiedtripleset>{lex}</entry>\n"
        )
    path = folder / "testdata_with_lex.xml"
    path.write_text(f"<benchmark><entries>\n{''.join(entries)}</entries></benchmark>\n")
    return path


def run(folder: Path, *options: str, outputs: list[str] = OUTPUTS):
    hyp = folder / "out.txt"
    hyp.write_text("".join(f"{line}\n" for line in outputs))
    arguments = [
        "--profile",
        "webnlg2017",
        "--refs",
        str(write_benchmark(folder)),
        "--hyp",
        str(hyp),
    ]
    return CliRunner().invoke(main, [*arguments, *options])


def test_json_has_all_items_and_seen_and_unseen_as_the_2017_evaluation(tmp_path):
    result = run(tmp_path, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == [
        *("BLEU", "METEOR", "TER", "signature", "printed", "subsets", "items", "notes")
    ]
    assert payload["notes"][0].startswith("warning: out.txt, line 4: output 4 is empty")
    assert list(payload["subsets"]) == ["seen", "unseen"]
    assert list(payload["subsets"]["seen"]) == ["BLEU", "METEOR", "TER"]
    assert payload["items"] == {"all": 4, "seen": 2, "unseen": 2}
    assert "norm:webnlg2017-v1" in payload["signature"]["BLEU"]
    # Each figure is the metric on the normalised texts of its items, first 3 references only.
    profile = get_profile("webnlg2017")
    items = profile.read_references(write_benchmark(tmp_path).read_bytes(), "x.xml")
    assert items[1].references == (
        "bakso is a food from indonesia .",
        "bakso comes from indonesia .",
        "indonesia is where bakso is from .",
    )
    outputs = [profile.normalise(text) for text in OUTPUTS]
    assert outputs[2] == "aaron turner plays post - metal music !"
    for subset, positions in (("seen", [0, 1]), ("unseen", [2, 3])):
        references = ReferenceSet([items[p].references for p in positions])
        for name, metric_id in profile.metric_ids.items():
            value = get_metric(metric_id).corpus_score([outputs[p] for p in positions], references)
            assert payload["subsets"][subset][name] == value.value, (subset, name)


def test_breakdowns_by_category_and_size(tmp_path):
    result = run(tmp_path, "--json", "--breakdown", "category", "--breakdown", "size")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload["breakdown"]["category"]) == ["Airport", "Artist", "Food", "Politician"]
    assert payload["breakdown_items"] == {
        "category": {"Airport": 1, "Artist": 1, "Food": 1, "Politician": 1},
        "size": {"1": 4},
    }
    expected = {k: payload[k] for k in ("BLEU", "METEOR", "TER")}
    assert payload["breakdown"]["size"]["1"] == expected | {"n": 4}
    assert payload["breakdown"]["category"]["Airport"]["TER"] == 0.0


def test_plain_output_lists_the_subsets(tmp_path):
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    assert "\nseen      seen                      2 items  BLEU " in result.output
    assert "\nseen      unseen                    2 items  BLEU " in result.output


def test_a_breakdown_the_profile_lacks_and_a_wrong_line_count_are_named(tmp_path):
    result = run(tmp_path, "--breakdown", "colour")
    assert result.exit_code == 2
    assert "colour: profile webnlg2017 breaks down by seen, category, size" in result.output
    result = run(tmp_path, outputs=[*OUTPUTS, "one more"])
    assert result.exit_code == 2
    assert (
        "out.txt: expected 4 lines (one output per test entry, in eid order), found 5"
        in result.output
    )


def test_blank_lines_after_the_last_output_are_ignored_as_the_script_ignores_them(tmp_path):
    """evaluation.py reads every line but takes line k for entry Idk: blank lines after the
    last entry's are scored as nothing, so a file a team ended with them is accepted."""
    plain, padded = run(tmp_path, "--json"), run(tmp_path, "--json", outputs=[*OUTPUTS, "", " "])
    assert padded.exit_code == 0, padded.output
    assert padded.output == plain.output


@pytest.mark.parametrize(
    ("column", "value", "published"),
    [
        ("BLEU", 45.125000001, 45.13),
        ("BLEU", 45.12499, 45.12),
        ("METEOR", 0.4459, 0.44),
        ("METEOR", 0.29, 0.29),  # 0.29 * 100 is 28.999... in binary: cut as written, not as stored
        ("TER", 0.4099999, 0.40),
    ],
)
def test_published_figures_round_bleu_and_cut_meteor_and_ter_to_two_decimals(
    column, value, published
):
    assert get_profile("webnlg2017").published(column, value) == published


def test_truncation_is_towards_zero_in_decimal():
    assert truncate(0.29, 2) == 0.29
    assert truncate(-0.299, 2) == -0.29
    assert truncate(12.3456, 0) == 12.0
