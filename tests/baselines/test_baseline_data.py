"""Data preparation of the bundled baselines: TGen's delexicalisation and the DRS tokens."""

from __future__ import annotations

import re

import pytest

from baselines.bilstm import data as drs_data
from baselines.manifest import inputs_digest
from baselines.tgen import data as tgen_data
from scorer.errors import InputError
from scorer.io.drs import read_sbn_file
from scorer.io.e2e import ReferenceItem
from scorer.semantics.e2e_slots import delexicalise, parse_mr
from tests.support.paths import drs_file, e2e_file

MR = "name[The Eagle], eatType[coffee shop], priceRange[£20-25], near[Burger King]"


def _without_article(mr: str, text: str) -> str:
    """Delexicalisation absorbs a leading 'the' of name/near (as the slot matcher does)."""
    for slot, value in parse_mr(mr):
        if slot in ("name", "near"):
            bare = re.sub(r"(?i)^the\s+", "", value)
            text = re.sub(rf"(?i)\bthe\s+({re.escape(bare)})", r"\1", text)
    return " ".join(text.split())


def _tokens(text: str) -> list[str]:
    return [token.lower() for token in tgen_data.tokenise(text)]


def _round_trip(mr: str, text: str) -> str:
    return tgen_data.relexicalise(mr, list(tgen_data.tokenise(delexicalise(mr, text))))


def test_mr_tokens_hide_name_and_near() -> None:
    assert tgen_data.mr_tokens(MR) == (
        "name", "X-name", "eatType", "coffee shop", "priceRange", "£20-25", "near", "X-near",
    )  # fmt: skip
    assert tgen_data.mr_features(MR) == {
        "name=X", "eatType=coffee shop", "priceRange=£20-25", "near=X",
    }  # fmt: skip


def test_cleaning_drops_omitted_slots_and_contradicting_references() -> None:
    item = ReferenceItem(
        MR,
        (
            "The Eagle is a coffee shop near Burger King with prices of £20-25.",
            "The Eagle is a coffee shop near Burger King.",
            "The Eagle is a pub near Burger King with prices of £20-25.",
        ),
    )
    full, omits_price = tgen_data.examples([item], clean=True)
    assert full.source == tgen_data.mr_tokens(MR)
    assert omits_price.source == (
        "name", "X-name", "eatType", "coffee shop", "near", "X-near",
    )  # fmt: skip
    assert [e.source for e in tgen_data.examples([item])] == [tgen_data.mr_tokens(MR)] * 3


def test_delexicalised_text_round_trips() -> None:
    text = "The Eagle is a coffee shop near Burger King, it's £20-25 (moderate)."
    tokens = tgen_data.tokenise(delexicalise(MR, text))
    assert tokens[:5] == ("X-name", "is", "a", "coffee", "shop")
    assert "X-near" in tokens and "Burger" not in tokens
    assert (
        _round_trip(MR, text)
        == "The Eagle is a coffee shop near Burger King, it's £20-25 (moderate)."
    )


def test_placeholder_without_a_value_is_dropped() -> None:
    assert tgen_data.relexicalise("name[Zizzi]", ["X-name", "is", "near", "X-near", "."]) == (
        "Zizzi is near."
    )


def test_every_dev_reference_round_trips() -> None:
    """All 4,672 E2E dev references survive delexicalise -> tokenise -> relexicalise, except for
    the article the delexicaliser absorbs and spacing (the references have "word ." too)."""
    path = e2e_file("devset.csv")
    items = tgen_data.read_dataset(path)
    failures = [
        (item.input, ref)
        for item in items
        for ref in item.references
        if _tokens(_without_article(item.input, _round_trip(item.input, ref)))
        != _tokens(_without_article(item.input, ref))
    ]
    total = sum(len(item.references) for item in items)
    assert total == 4672
    assert len(failures) / total < 0.01, failures[:5]


def test_dataset_csv_and_input_csv_give_the_same_mrs(tmp_path) -> None:
    dataset = tmp_path / "dev.csv"
    dataset.write_text('mr,ref\n"name[A], food[Thai]",One.\n"name[A], food[Thai]",Two.\n'
                       '"name[B], area[riverside]",Three.\n', "utf-8")  # fmt: skip
    inputs = tmp_path / "inputs.csv"
    inputs.write_text('MR\n"name[A], food[Thai]"\n"name[B], area[riverside]"\n', "utf-8")
    assert tgen_data.read_mrs(dataset) == tgen_data.read_mrs(inputs) == [
        "name[A], food[Thai]", "name[B], area[riverside]",
    ]  # fmt: skip
    broken = tmp_path / "broken.csv"
    broken.write_text('MR\n"name[A], food Thai"\n', "utf-8")
    with pytest.raises(InputError, match="line 2"):
        tgen_data.read_mrs(broken)


SBN = (
    'male.n.02 Name "Alfred Nobel" invent.v.01 Agent -1 Time +1 Result +2 time.n.08 TPR now '
    "dynamite.n.01 time.n.08 YearOfCentury 1866 CONTINUATION <1 entity.n.01"
)


def test_drs_concepts_are_atomic_names_and_numbers_characters() -> None:
    tokens = drs_data.drs_tokens(SBN)
    assert tokens[:3] == ("male.n.02", "Name", '"')
    assert tokens[3:15] == (*tuple("Alfred"), "∼", *tuple("Nobel"))
    assert tokens[15] == '"'
    for atomic in ("invent.v.01", "Agent", "-1", "+2", "TPR", "now", "<1", "CONTINUATION"):
        assert atomic in tokens
    year = tokens.index("YearOfCentury")
    assert tokens[year + 1 : year + 5] == ("1", "8", "6", "6")
    assert "1866" not in tokens


def test_text_is_characters_with_a_space_marker() -> None:
    tokens = drs_data.text_tokens("Tom  ran.")
    assert tokens == ("T", "o", "m", "|||", "r", "a", "n", ".")
    assert drs_data.text_from_tokens(list(tokens)) == "Tom ran."


def test_every_pmb5_training_item_tokenises() -> None:
    path = drs_file("pmb5.0.0_en_sbn/seq2seq/train/gold.sbn")
    items = read_sbn_file(path.read_bytes(), path.name)
    assert len(items) == 9057
    for item in items:
        tokens = drs_data.drs_tokens(item.drs)
        assert not any(" " in token for token in tokens), item.drs
        assert drs_data.text_from_tokens(list(drs_data.text_tokens(item.text))) == " ".join(
            item.text.split()
        )


def test_inputs_digest_depends_on_content_and_order() -> None:
    assert inputs_digest(["a", "b"]) == inputs_digest([" a", "b\n"])
    assert inputs_digest(["a", "b"]) != inputs_digest(["b", "a"])
    assert inputs_digest(["a\nb"]) != inputs_digest(["a", "b"])
