"""Track kinds as data: the built-in kinds are definitions of the same mechanism as an
organiser's (their signatures, columns and printing rules as before kinds were data), and the
generic readers (lines, JSON Lines, CSV/TSV) read what a new shared task publishes."""

from __future__ import annotations

import copy
import json

import pytest
import yaml

from scorer.errors import InputError, KindError
from scorer.io import records
from scorer.kinds import BUILT_IN, PROFILES, TRACK_KINDS, build_profile, get_profile
from scorer.kinds.definitions import MAX_DEPTH, read_kinds
from scorer.kinds.parts import READERS
from scorer.metrics import get_metric
from tests.support.paths import DEMO_DATA

SIGNATURE_ENDS = {
    "e2e": "|profile:e2e|norm:e2e-v2:ws+quotes|tables:e2e-metrics-fixes",
    "sr18": "|profile:sr18|norm:sr18-v1:lc+ws",
    "drs": "|profile:drs|norm:drs-v1:ws",
    "webnlg2017": "|profile:webnlg2017|norm:webnlg2017-v1:unidecode+lc+split-nonword|refs:first-3",
}
"""What every stored score of a built-in kind ends with: a change would orphan stored scores."""


@pytest.mark.parametrize("name", sorted(SIGNATURE_ENDS))
def test_built_in_kinds_keep_the_signatures_of_their_stored_scores(name):
    profile = get_profile(name)
    for column in profile.columns:
        if column in profile.absent_metrics:  # the embedding model's signature needs it
            continue
        assert profile.column_signature(column).endswith(SIGNATURE_ENDS[name]), column


def test_built_in_kinds_keep_their_columns_and_printing_rules():
    e2e, sr18, drs, webnlg = (get_profile(n) for n in ("e2e", "sr18", "drs", "webnlg2017"))
    assert e2e.columns == (
        "BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "norm_avg",
        "SER", "OK%", "A%", "M%", "A+M%",
    )  # fmt: skip
    assert e2e.primary_metric == "norm_avg" and e2e.annotate and e2e.describe
    assert e2e.published("SER", 3.14159) == 3.14 and e2e.published("BLEU", 0.659349) == 0.6593
    assert sr18.columns == ("BLEU", "NIST", "DIST", "DIST_char", "coverage")
    assert sr18.item_metrics == ("DIST",) and sr18.decimals == 2
    assert drs.item_metrics == ("chrF",) and drs.published("F_BERT", 0.912345) == 0.9123
    assert webnlg.subsets == ("seen",) and webnlg.breakdowns == ("category", "size")
    assert webnlg.published("METEOR", 0.4459) == 0.44 and webnlg.published("BLEU", 44.579) == 44.58


def test_track_kinds_name_the_built_in_profile_that_scores_them():
    assert TRACK_KINDS == {
        "e2e": "e2e", "sr-shallow": "sr18", "sr-deep": "sr18", "drs": "drs",
        "webnlg": "webnlg2017",
    }  # fmt: skip
    assert {"e2e", "sr18", "drs", "webnlg2017"} <= set(BUILT_IN)
    assert PROFILES["sr-deep"] is PROFILES["sr18"]


def test_the_webnlg_2017_kind_keeps_the_first_three_references_normalised():
    items = get_profile("webnlg2017").read_references(
        (DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml").read_bytes(), "refs.xml"
    )
    assert all(1 <= len(item.references) <= 3 for item in items)
    assert all(ref == ref.lower() and ref.isascii() for item in items for ref in item.references)
    assert {item.attributes["seen"] for item in items} <= {"seen", "unseen"}


def test_an_organisers_kind_cannot_take_a_built_in_name_or_its_keys():
    with pytest.raises(KindError, match="taken by a built-in kind"):
        build_profile({"name": "webnlg", "reader": "lines", "metrics": ["chrF"]})
    with pytest.raises(KindError, match=r"kind\.signature: unknown key"):
        build_profile(
            {"name": "mine", "reader": "lines", "metrics": ["chrF"], "signature": "e2e-v2"}
        )


def test_a_kind_may_use_the_e2e_analyses_and_derived_column_by_name():
    profile = build_profile(
        {
            "name": "e2e-again",
            "reader": "e2e-csv",
            "normalisation": "e2e",
            "metrics": ["BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "SER"],
            "derived": ["norm_avg"],
            "derived_after": "CIDEr",
            "annotate": "e2e-slot-errors",
        }
    )
    assert profile.columns[5] == "norm_avg" and profile.annotate is get_profile("e2e").annotate
    with pytest.raises(KindError, match=r"kind\.describe: unknown 'statistics'"):
        build_profile(
            {"name": "x", "reader": "lines", "metrics": ["chrF"], "describe": "statistics"}
        )


# The generic readers


JSONL = (
    b'{"id": 1, "input": {"table": [["name", "Aromi"]]}, "refs": ["Aromi is a coffee shop.", ""],'
    b' "domain": "food", "length": 2}\n'
    b'{"id": 2, "input": "name[Blue Spice]", "refs": "Blue Spice serves wine.", '
    b'"domain": "pubs", "length": 7}\n'
)


def test_json_lines_give_inputs_references_and_attributes():
    items = records.jsonl_items(
        JSONL, "test.jsonl", references="refs", attributes=["domain", "length"]
    )
    assert [item.input for item in items] == ['{"table": [["name", "Aromi"]]}', "name[Blue Spice]"]
    assert [item.references for item in items] == [
        ("Aromi is a coffee shop.",),
        ("Blue Spice serves wine.",),
    ]
    assert [dict(item.attributes) for item in items] == [
        {"domain": "food", "length": "2"},
        {"domain": "pubs", "length": "7"},
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"input": "a", "refs": ["x"], "domain": 1}\n\n', "test.jsonl, line 2: is empty"),
        (b'{"input": "a", "refs": "x", "domain": 1}\n{"input": "b"}\n', "line 2: has no field"),
        (b'{"input": "a", "refs": [1]}\n', "line 1: field 'refs' is not a reference string"),
        (b'{"input": "a", "refs": ["x"], "domain": null}\n', "line 1: field 'domain' is not"),
        (b'{"input": "a", "refs": ["x"]\n', "line 1: is not JSON"),
    ],
)
def test_bad_json_lines_are_refused_naming_the_line(data, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        records.jsonl_items(data, "test.jsonl", references="refs", attributes=["domain"])


TSV = (
    "\ufeffsource\ttarget\tlanguage\r\n"
    "das Haus\tthe house\tde\r\n"
    '"ein ""Test"""\ta test\tde\r\n'
    "das Haus\tthe home\tde\r\n"
).encode()


def test_a_tsv_table_groups_the_rows_of_one_input_with_quotes_bom_and_crlf():
    items = records.csv_items(
        TSV, "t.tsv", input="source", references="target", attributes=["language"], delimiter="tab"
    )
    assert [(i.input, i.references) for i in items] == [
        ("das Haus", ("the house", "the home")),
        ('ein "Test"', ("a test",)),
    ]
    assert records.csv_inputs(TSV, "t.tsv", input="source", delimiter="tab") == [
        "das Haus",
        'ein "Test"',
        "das Haus",
    ]


def test_a_table_without_the_named_column_is_refused_naming_the_columns():
    with pytest.raises(
        InputError, match=r"t.csv, line 1: has no column 'ref' \(columns: mr, text\)"
    ):
        records.csv_items(b"mr,text\na,b\n", "t.csv", input="mr", references="ref")
    with pytest.raises(InputError, match=r"t\.csv, line 3: has an empty 'text'"):
        records.csv_items(b"mr,text\na,b\nc,\n", "t.csv", input="mr", references="text")


def test_a_lines_file_refuses_an_empty_line_that_would_shift_every_later_item():
    with pytest.raises(InputError, match=r"r\.txt, line 2: is empty"):
        records.line_items(b"one\n\nthree\n", "r.txt")


def test_every_reader_writes_inputs_its_own_inputs_reader_reads_back():
    texts = ["name[Aromi], food[Italian]", 'a "quoted", text']
    for name in ("lines", "jsonl", "csv"):
        reader = READERS[name]
        written = reader.inputs_file(texts)
        assert reader.inputs is not None
        assert reader.inputs(written.body.encode(), f"inputs.{written.suffix}") == texts, name
    e2e = READERS["e2e-csv"].inputs_file(texts)
    assert e2e.body.startswith("mr\n") and e2e.mimetype == "text/csv"


def test_a_kind_defined_on_json_lines_scores_its_subsets(tmp_path):
    profile = build_profile(
        {
            "name": "table-to-text",
            "reader": {"name": "jsonl", "references": "refs", "attributes": ["domain"]},
            "metrics": ["chrF"],
            "subsets": ["domain"],
        }
    )
    items = profile.read_references(JSONL, "test.jsonl")
    outputs = profile.read_outputs(
        b"Aromi is a coffee shop.\nBlue Spice serves beer.\n\n",
        [item.input for item in items],
        "out.txt",
    )
    scores = profile.score_subsets(
        outputs, [list(i.references) for i in items], {"": [0, 1], "food": [0]}
    )
    chrf = get_metric("chrF")
    assert scores["food"][0].value == pytest.approx(100.0)
    expected = chrf.corpus_score(outputs, [list(i.references) for i in items]).value
    assert scores[""][0].value == pytest.approx(expected)
    with pytest.raises(InputError, match="expected 2 lines"):
        profile.read_outputs(b"one line\n", [item.input for item in items], "out.txt")
    assert json.loads(profile.write_inputs([i.input for i in items]).body.splitlines()[1]) == {
        "input": "name[Blue Spice]"
    }


def test_webnlg_training_texts_are_the_lex_texts():
    texts = READERS["webnlg-xml"].training_texts(
        (DEMO_DATA / "webnlg" / "test" / "test_with_lex.xml").read_bytes(), "train.xml"
    )
    assert texts and all("<" not in text for text in texts)


def test_learned_metrics_are_absent_without_their_package_and_local_weights(monkeypatch, tmp_path):
    """BERTScore and BLEURT are never downloaded: without bert-score / bleurt and weights on
    this machine they are reported absent, saying what they need."""
    import importlib.util

    monkeypatch.setenv("NLGBOARD_BERTSCORE_MODEL", str(tmp_path))
    monkeypatch.delenv("NLGBOARD_BLEURT_CHECKPOINT", raising=False)
    profile = build_profile(
        {
            "name": "learned",
            "reader": "lines",
            "metrics": [
                "chrF++",
                "BERTScore-F1",
                {"metric": "BLEURT", "options": {"references": 4}},
            ],
        }
    )
    reasons = profile.absent_reasons()
    assert "BLEURT" in reasons and "NLGBOARD_BLEURT_CHECKPOINT" in reasons["BLEURT"]
    bert_installed = importlib.util.find_spec("bert_score") is not None
    assert ("BERTScore-F1" in reasons) is not bert_installed
    assert "chrF++" not in reasons
    monkeypatch.setenv("NLGBOARD_BERTSCORE_MODEL", str(tmp_path / "missing"))
    assert "BERTScore-F1" in profile.absent_reasons()


@pytest.mark.parametrize("name", ["e2e", "sr18", "drs", "webnlg2017"])
def test_a_built_in_definition_passes_every_check_an_organisers_would(name):
    """Built-in kinds are built at import without loading a metric module; this holds them to
    the checks an organiser's definition gets (names, columns, primary, printing rule)."""
    from scorer.kinds import _BUILT_IN_DEFINITIONS
    from scorer.kinds.definitions import BUILT_IN_KEYS

    definition = {
        key: value for key, value in _BUILT_IN_DEFINITIONS[name].items() if key not in BUILT_IN_KEYS
    }
    checked = build_profile({**definition, "name": f"{name}-checked"})
    built = get_profile(name)
    assert checked.columns == built.columns and checked.primary_metric == built.primary_metric


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every place in a definition a value sits, by its keys and indices."""
    if isinstance(value, dict):
        return [path] + [p for key, child in value.items() for p in _paths(child, (*path, key))]
    if isinstance(value, list):
        return [path] + [
            p for index, child in enumerate(value) for p in _paths(child, (*path, index))
        ]
    return [path]


def _replaced(definition: dict, path: tuple, value: object) -> dict:
    changed = copy.deepcopy(definition)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return changed


JUNK = [["a"], {"a": 1}, {1: "a", "b": 2}, 1.5]
"""Where a name, a text or a number belongs: a list, a mapping (one with a key YAML reads as
a number), a number."""


def test_a_definition_with_junk_anywhere_is_refused_as_a_kind_error_not_a_crash():
    """A board's definition reaches ``nlgboard-submit`` and a bundle's reaches the board: a
    list where a reader's name belongs once raised TypeError (``in`` a registry), a list as
    the title was printed as Python's repr."""
    [definition] = read_kinds(
        (DEMO_DATA / "webnlg" / "challenge.yaml").read_bytes(), "c.yaml"
    ).values()
    for path in _paths(definition)[1:]:
        for junk in JUNK:
            try:
                profile = build_profile(_replaced(definition, path, junk))
            except KindError:
                continue
            assert isinstance(profile.title, str) and "[" not in profile.title, path


def test_a_definition_nested_past_the_limit_or_into_itself_is_refused():
    plain = {"name": "deep", "reader": "lines", "metrics": ["chrF"]}
    nested: list = []  # MAX_DEPTH levels, and the definition's mapping: one too many
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    with pytest.raises(KindError, match=f"nested deeper than {MAX_DEPTH} levels"):
        build_profile(plain | {"import": nested})
    itself = yaml.safe_load("name: loop\nreader: lines\nmetrics: [chrF]\nimport: &a [*a, *a]\n")
    with pytest.raises(KindError, match="nested deeper"):
        build_profile(itself)
    build_profile(plain | {"import": nested[0]})  # MAX_DEPTH levels with the definition: fine
