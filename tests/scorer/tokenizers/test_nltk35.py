"""The board's NLTK 3.5 tokens (``scorer.tokenizers.nltk35``, registered as ``nltk35-punkt``)
are NLTK 3.5's ``word_tokenize`` (punkt untrained), the NLTK WebNLG+ 2020's eval.py pins, on
every WebNLG+ 2020 English text in ``../shared``: the texts NLTK 3.10 tokenises otherwise token
for token, and all the others through one digest (``nltk35_tokens.json``, written once with
NLTK 3.5 by ``make_nltk35_fixture.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from scorer.kinds.definitions import read_kinds
from scorer.kinds.parts import TOKENISERS
from scorer.tokenizers.nltk35 import word_tokenize
from tests.support.paths import DEMO_DATA, shared_file
from tests.support.webnlg2020_texts import WEBNLG_2020, english_texts, text_key, tokens_digest

FIXTURE = json.loads(Path(__file__).with_name("nltk35_tokens.json").read_text())


@pytest.fixture(scope="module")
def texts() -> list[str]:
    shared_file(WEBNLG_2020 / "en" / "dev")
    return english_texts()


@pytest.fixture(scope="module")
def ours(texts) -> list[str]:
    """The registered tokeniser's tokens of every text (about 20 s for the 42,283)."""
    return [TOKENISERS["nltk35-punkt"](text) for text in texts]


def test_the_fixture_was_written_by_nltk_3_5_against_3_10():
    assert FIXTURE["nltk"] == "3.5"
    assert FIXTURE["compared_with"].startswith("3.10")
    assert len(FIXTURE["differ"]) > 100  # why the board needs its own rules


def test_texts_nltk_3_10_tokenises_otherwise_get_nltk_3_5s_tokens(texts, ours):
    found = {text_key(text): tokens for text, tokens in zip(texts, ours, strict=True)}
    wrong = {key: (found.get(key), expected) for key, expected in FIXTURE["differ"].items()}
    assert {k: v for k, v in wrong.items() if v[0] != v[1]} == {}


def test_every_webnlg2020_english_text_gets_nltk_3_5s_tokens(texts, ours):
    assert len(texts) == FIXTURE["texts"]
    assert tokens_digest(texts, ours) == FIXTURE["digest"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # NLTK 3.10 splits at the en dash and after an opening apostrophe; 3.5 does not.
        ("Adolfo Suárez Madrid–Barajas Airport.", "Adolfo Suárez Madrid–Barajas Airport ."),
        ("He was born in 'McVeagh.", "He was born in 'McVeagh ."),
        # punkt splits after a full stop ending a word, not after an initial before a
        # lower-case word or a name (untrained: no abbreviations) ...
        (
            "It is 25 m. above sea level. J. Smith runs it.",
            "It is 25 m. above sea level . J. Smith runs it .",
        ),
        # ... and 3.5's punkt does not see a curly quote as punctuation (3.10: "Go . ”")
        ("He said “Go.” Then left.", "He said “ Go. ” Then left ."),
    ],
)
def test_nltk_3_5_cases_worked_by_hand(text, tokens):
    assert " ".join(word_tokenize(text)) == tokens


def test_the_tokens_need_no_nltk(monkeypatch):
    monkeypatch.setitem(sys.modules, "nltk", None)
    words = word_tokenize("Aarhus Airport serves Aarhus. It's 25 m. high.")
    assert " ".join(words) == "Aarhus Airport serves Aarhus . It 's 25 m. high ."


def test_the_webnlg2020_example_kind_tokenises_as_nltk_3_5():
    kinds = read_kinds((DEMO_DATA / "webnlg" / "challenge.yaml").read_bytes(), "challenge.yaml")
    metrics = kinds["webnlg2020-en"]["metrics"]
    tokens = {m["metric"]: m.get("tokens") for m in metrics if isinstance(m, dict)}
    assert tokens["TER-pyter"] == tokens["METEOR-files"] == "nltk35-punkt"
