"""WebNLG 2017's per-judgement layout read and analysed (``nlg-human likert``), by hand.

The generated file has the organisers' shape: R's row-name column and quoted cells, CRLF and a
byte-order mark, ``mr`` texts with commas, quotes and ``<br>``, three teams (``webnlg``: the
references), three workers, outputs judged by one, two or three of them, an empty and an NA
score cell, and a golden row.
"""

import json

import pytest
from click.testing import CliRunner

from scorer.cli.human import main
from scorer.errors import InputError
from scorer.human import likert
from scorer.human.judgements import read_judgement_table

#: item -> (mr, type, category, triplesize)
MRS = {
    "A": ('Aarhus_Airport | cityServed | "Aarhus, Denmark"<br>Aarhus_Airport | elevation | 25.0',
          "seen", "Airport", "2"),
    "B": ("Alan_Bean | nationality | United_States<br>Alan_Bean | occupation | Test_pilot, "
          "astronaut<br>Alan_Bean | birthPlace | Wheeler, Texas", "seen", "Astronaut", "3"),
    "C": ("Ciudad_Ayala | populationMetro | 1777539", "unseen", "City", "1"),
}  # fmt: skip
#: (team, item, worker, semantic_adequacy, grammaticality, fluency, golden)
ROWS = [
    ("adapt", "A", "w1", "3", "2", "2", "FALSE"),
    ("adapt", "A", "w2", "3", "3", "2", "FALSE"),
    ("adapt", "A", "w3", "1", "2", "1", "FALSE"),
    ("adapt", "B", "w1", "2", "1", "1", "TRUE"),
    ("adapt", "C", "w2", "1", "3", "3", "FALSE"),
    ("adapt", "C", "w3", "2", "3", "3", "FALSE"),
    ("tilburg", "A", "w1", "2", "2", "2", "FALSE"),
    ("tilburg", "A", "w3", "2", "1", "2", "FALSE"),
    ("tilburg", "B", "w1", "3", "3", "3", "FALSE"),
    ("tilburg", "B", "w2", "3", "3", "2", "FALSE"),
    ("tilburg", "B", "w3", "3", "2", "2", "FALSE"),
    ("tilburg", "C", "w2", "1", "1", "1", "FALSE"),
    ("webnlg", "A", "w1", "3", "3", "3", "FALSE"),
    ("webnlg", "A", "w2", "3", "3", "3", "FALSE"),
    ("webnlg", "A", "w3", "3", "3", "3", "FALSE"),
    ("webnlg", "B", "w2", "3", "3", "3", "FALSE"),
    ("webnlg", "B", "w3", "2", "3", "3", "FALSE"),
    ("webnlg", "C", "w1", "3", "3", "3", "FALSE"),
    ("webnlg", "C", "w2", "3", "2", "3", "FALSE"),
    ("webnlg", "C", "w3", "", "3", "NA", "FALSE"),
]
HEADER = ("", "X_unit_id", "X_golden", "X_worker_id", "category", "type", "triplesize", "mr",
          "team", "systemtype", "text", "bleu", "meteor", "ter", "fluency", "grammaticality",
          "semantic_adequacy")  # fmt: skip
#: Lines (of the file: the header is line 1) of the empty semantics cell and the golden row.
EMPTY_LINE, GOLDEN_LINE = 21, 5


def quoted(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"'


def organisers_file(path, rows=ROWS):
    """The rows as R's write.csv writes them, with a BOM and CRLF line ends."""
    lines = [",".join(quoted(name) for name in HEADER)]
    for number, (team, item, worker, semantics, grammar, fluency, golden) in enumerate(rows, 1):
        mr, kind, category, size = MRS[item]
        text = f"The {team} text for {item}, with a comma."
        cells = [str(number), str(1000 + number), golden, worker, category, kind, size, mr, team,
                 "neural", text, "NA", "0.3", "0.6", fluency, grammar, semantics]  # fmt: skip
        lines.append(",".join(quoted(cell) for cell in cells))
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


#: semantics by hand: output = mean of its judges, system = mean over its outputs.
ADAPT = {"A": 7 / 3, "B": 2, "C": 3 / 2}  # 35/18 = 1.944; the 6 points pooled: 12/6 = 2
TILBURG = {"A": 2, "B": 3, "C": 1}  # 2; pooled: 14/6 = 2.333
WEBNLG = {"A": 3, "B": 5 / 2, "C": 3}  # 17/6; C's third cell is empty


def test_each_row_gives_a_judgement_per_criterion_column_under_the_boards_names(tmp_path):
    path = organisers_file(tmp_path / "all_data_final_scores_anonymised.csv")
    table = read_judgement_table(path.read_bytes(), path.name, likert.read_number)
    assert table.layout == "webnlg2017"
    assert table.columns == {
        "semantics": "semantic_adequacy",
        "grammar": "grammaticality",
        "fluency": "fluency",
    }
    assert len(table.judgements) == 3 * len(ROWS) - 2
    first = table.judgements[0]
    assert (first.item, first.system, first.annotator, first.line) == (
        MRS["A"][0],
        "adapt",
        "w1",
        2,
    )
    assert table.missing == {"semantics": [EMPTY_LINE], "grammar": [], "fluency": [EMPTY_LINE]}
    assert table.golden == [GOLDEN_LINE]
    assert table.attributes[MRS["B"][0]] == {"type": "seen", "category": "Astronaut",
                                              "triplesize": "3"}  # fmt: skip
    for name in ("semantics", "semantic_adequacy"):
        assert table.criterion(name) == "semantics"
    assert (table.criterion("grammaticality"), table.criterion("other")) == ("grammar", "other")


def test_system_means_are_over_outputs_of_the_judges_mean_and_by_attribute(tmp_path):
    path = organisers_file(tmp_path / "scores.csv")
    table = read_judgement_table(path.read_bytes(), path.name, likert.read_number)
    result = likert.analyse(
        table.judgements, "semantics", likert.Scale(1, 3), attributes=table.attributes
    )
    rows = {row.system: row for row in result.systems}
    assert [row.system for row in result.systems] == ["webnlg", "tilburg", "adapt"]
    for system, outputs in (("adapt", ADAPT), ("tilburg", TILBURG), ("webnlg", WEBNLG)):
        assert rows[system].mean == pytest.approx(sum(outputs.values()) / 3), system
        assert rows[system].n == 3
    assert rows["adapt"].mean == pytest.approx(35 / 18) and rows["adapt"].judgements == 6
    adapt = rows["adapt"].by
    assert adapt is not None and list(adapt) == ["type", "category", "triplesize"]
    assert adapt["type"]["seen"] == likert.SubsetScore(pytest.approx(13 / 6), 2)
    assert adapt["type"]["unseen"] == likert.SubsetScore(1.5, 1)
    assert list(adapt["triplesize"]) == ["1", "2", "3"]
    assert adapt["category"]["Astronaut"] == likert.SubsetScore(2.0, 1)
    assert rows["webnlg"].by["type"]["seen"].mean == pytest.approx(2.75)


def test_likert_command_json_on_the_organisers_file(tmp_path):
    import krippendorff
    import numpy as np

    path = organisers_file(tmp_path / "all_data_final_scores_anonymised.csv")
    command = ["likert", "--judgements", str(path), "--json"]
    result = CliRunner().invoke(main, [*command, "--criterion", "semantic_adequacy"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["criterion"] == "semantics" and payload["scale"] == "1-3"
    systems = payload["systems"]
    assert [(row["system"], row["n"]) for row in systems] == [
        ("webnlg", 3),
        ("tilburg", 3),
        ("adapt", 3),
    ]
    assert [row["mean"] for row in systems] == pytest.approx([17 / 6, 2, 35 / 18])
    assert all(isinstance(row["cluster"], int) for row in systems)
    assert systems[2]["by"]["type"] == {
        "seen": {"mean": pytest.approx(13 / 6), "n": 2},
        "unseen": {"mean": 1.5, "n": 1},
    }
    assert systems[2]["subsets"] == {}
    assert payload["read"] == {
        "layout": "webnlg2017",
        "column": "semantic_adequacy",
        "missing_cells": 1,
        "missing_lines": [EMPTY_LINE],
        "golden_rows": 1,
        "golden_lines": [GOLDEN_LINE],
        "split": {},
    }
    assert result.stderr.splitlines() == [
        f"note: empty (or NA) semantic_adequacy cells, no judgement: 1 (lines {EMPTY_LINE})",
        "note: rows marked golden (CrowdFlower's test questions), kept as judgements: 1 "
        f"(lines {GOLDEN_LINE})",
    ]
    # annotator = worker, unit = one team's output for one mr
    workers = {"w1": 0, "w2": 1, "w3": 2}
    units = list(dict.fromkeys((team, item) for team, item, *_ in ROWS))
    matrix = np.full((3, len(units)), np.nan)
    for team, item, worker, semantics, *_ in ROWS:
        if semantics:
            matrix[workers[worker], units.index((team, item))] = float(semantics)
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    assert payload["agreement"]["level"] == "interval"
    assert payload["agreement"]["krippendorff_alpha"] == pytest.approx(expected, abs=1e-6)
    grammar = json.loads(CliRunner().invoke(main, [*command, "--criterion", "grammar"]).stdout)
    assert grammar["read"]["column"] == "grammaticality" and grammar["read"]["missing_cells"] == 0
    adapt = next(row for row in grammar["systems"] if row["system"] == "adapt")
    assert adapt["mean"] == pytest.approx((7 / 3 + 1 + 3) / 3)


def test_likert_command_prints_the_first_attributes_columns_and_the_column_read(tmp_path):
    path = organisers_file(tmp_path / "scores.csv")
    command = ["likert", "--judgements", str(path), "--criterion", "fluency"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fluency (column fluency): scale 1-3 (from the data)")
    assert "means by type beside n (the JSON has by type, category, triplesize)" in lines[0]
    assert lines[1].split() == ["#", "mean", "n", "seen", "unseen", "System"]
    # webnlg's fluency: A 3, B 3, C 3 (the NA cell left out)
    assert lines[2].split() == ["1", "3.000", "3", "3.000", "3.000", "webnlg"]
    by_size = CliRunner().invoke(main, [*command, "--by", "triplesize", "--json"])
    row = json.loads(by_size.stdout)["systems"][0]
    assert list(row["by"]) == ["triplesize"]


def test_attributes_of_the_long_layout_are_the_columns_named_an_item_with_two_values_left_out(
    tmp_path,
):
    path = tmp_path / "long.csv"
    path.write_text(
        "item,system,annotator,criterion,score,domain,text\n"
        "1,a,x,fluency,3,sports,one\n1,b,x,fluency,1,sports,two\n2,a,x,fluency,2,music,three\n"
    )
    command = ["likert", "--judgements", str(path), "--criterion", "fluency", "--json"]
    plain = json.loads(CliRunner().invoke(main, command).stdout)
    assert plain["systems"][0]["by"] == {} and plain["read"]["layout"] == "long"
    found = json.loads(CliRunner().invoke(main, [*command, "--by", "domain"]).stdout)
    assert found["systems"][0]["by"] == {
        "domain": {"music": {"mean": 2.0, "n": 1}, "sports": {"mean": 3.0, "n": 1}}
    }
    varying = CliRunner().invoke(main, [*command, "--by", "text", "--by", "domain"])
    assert varying.exit_code == 0, varying.stderr
    split = json.loads(varying.stdout)
    assert split["read"]["split"] == {"text": 1}, "item 1 has two texts: left out of text's means"
    assert split["systems"][0]["by"]["text"] == {"three": {"mean": 2.0, "n": 1}}
    assert split["systems"][0]["by"]["domain"] == found["systems"][0]["by"]["domain"]
    assert "text: 1 item(s) with two values left out" in varying.stderr
    absent = CliRunner().invoke(main, [*command, "--by", "genre"])
    assert absent.exit_code == 2 and "lacks the column(s) genre" in absent.stderr


def test_the_organisers_layout_refuses_what_it_cannot_read_naming_the_line(tmp_path):
    bad_score = [*ROWS[:3], ("adapt", "B", "w1", "good", "1", "1", "FALSE")]
    path = organisers_file(tmp_path / "bad.csv", bad_score)
    with pytest.raises(
        InputError, match=r"bad.csv, line 5: semantic_adequacy: score 'good' is not"
    ):
        read_judgement_table(path.read_bytes(), path.name, likert.read_number)
    no_worker = [*ROWS[:1], ("adapt", "B", "", "1", "1", "1", "FALSE")]
    path = organisers_file(tmp_path / "worker.csv", no_worker)
    with pytest.raises(InputError, match=r"worker.csv, line 3: empty X_worker_id"):
        read_judgement_table(path.read_bytes(), path.name)
    no_criteria = b"team,mr,_worker_id,text\nadapt,m,w1,t\n"
    with pytest.raises(InputError, match=r"line 1: has team, mr and _worker_id .* no criterion"):
        read_judgement_table(no_criteria, "none.csv")
    averaged = b"team,mr,_worker_id,semantics\nadapt,m,w1,3\n"
    table = read_judgement_table(averaged, "avg.csv", likert.read_number)
    assert table.columns == {"semantics": "semantics"} and table.attributes == {"m": {}}
