"""WebNLG+ 2020's word tokens against eval.py's own ``parse`` (``../shared/oracles/
webnlg-2020-eval``), on the WebNLG 3.0 dev texts (``../shared/data/webnlg/2020``: English
without ``lang``, Russian ``lang="ru"``) and outputs generated from them: the registry's
``nltk-punkt`` and ``razdel`` tokens are eval.py's, and so are TER and METEOR on them.

eval.py's English path is ``nltk.word_tokenize``, which splits sentences with punkt's trained
English parameters first; NLTK's data cannot be installed here (``nltk.download`` cannot reach
its host), so these tests run eval.py's ``parse`` unchanged with NLTK's punkt given no data
(``PunktSentenceTokenizer()``: punkt's algorithm, default parameters), which is what
``nltk-punkt`` reproduces. What trained parameters would change (abbreviations such as ``St.``
kept in their sentence) is measured by ``benchmarks/webnlg_tokens.py`` and stated in the README.
"""

from __future__ import annotations

import codecs
import copy
import functools
import logging
import os
import random
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import nltk
import pyter
import pytest
import razdel
from nltk.tokenize.punkt import PunktSentenceTokenizer

from scorer.java.jars import coco_file
from scorer.kinds.definitions import build_profile
from scorer.kinds.parts import TOKENISERS
from tests.oracles.test_webnlg2020_oracle import REFERENCES, ours, parsed, write_parallel
from tests.support.paths import SHARED_DATA, require_binary, shared_file
from tests.support.webnlg_cases import ORACLE_2020, outputs
from tests.support.webnlg_oracle import script_functions

pytestmark = pytest.mark.oracle

WEBNLG_2020 = SHARED_DATA / "webnlg" / "2020"


@functools.cache
def eval_functions() -> dict[str, object]:
    """``parse``, ``ter_score`` and ``meteor_score`` from eval.py's source, with the names
    they use (razdel's ``tokenize``, NLTK, pyter3; METEOR_PATH: pycocoevalcap's jar, the
    METEOR 1.5 jar eval.py's install script fetches)."""
    wanted = {"parse", "ter_score", "meteor_score"}
    namespace: dict[str, object] = {
        "logging": logging,
        "codecs": codecs,
        "copy": copy,
        "os": os,
        "subprocess": subprocess,
        "nltk": nltk,
        "pyter": pyter,
        "tokenize": razdel.tokenize,
        "METEOR_PATH": str(coco_file("meteor/meteor-1.5.jar")),
    }
    return script_functions(shared_file(ORACLE_2020 / "eval.py"), wanted, namespace)


@pytest.fixture
def untrained_punkt(monkeypatch):
    """``nltk.word_tokenize`` as it runs without NLTK's punkt data: the algorithm alone."""
    monkeypatch.setattr(
        nltk.tokenize, "_get_punkt_tokenizer", lambda language="english": PunktSentenceTokenizer()
    )


@functools.cache
def dev_references(language: str) -> list[list[str]]:
    """Each 2020 dev entry's first 4 references in ``language`` (the English release's have
    no ``lang``)."""
    folder = shared_file(WEBNLG_2020 / language / "dev")
    langs = (None, "") if language == "en" else (language,)
    items = []
    for path in sorted(folder.glob("*triples/*.xml")):
        for entry in ET.parse(path).getroot().iter("entry"):
            texts = [
                " ".join((lex.text or "").split())
                for lex in entry.iter("lex")
                if lex.get("lang") in langs
            ]
            if texts:
                items.append(texts[:REFERENCES])
    return items


def case(language: str, seed: int, size: int | None) -> tuple[list[list[str]], list[str]]:
    references = dev_references(language)
    if size is not None:
        references = random.Random(seed).sample(references, size)
    return references, outputs(references, seed)


def eval_tokens(folder: Path, language: str) -> tuple[list[list[str]], list[str]]:
    function = eval_functions()["parse"]
    _, references_tok, _, hypothesis_tok = function(  # type: ignore[operator]
        str(folder / "reference"), str(folder / "hypothesis"), REFERENCES, language
    )
    return references_tok, hypothesis_tok


def test_without_punkt_data_word_tokenize_cannot_run_here():
    """Why eval.py's own English path is not run as it is: if NLTK's punkt data were here,
    the tests should compare with it instead."""
    if nltk.tokenize.punkt_model_available("english"):
        pytest.skip("NLTK's punkt data is installed: compare nltk-punkt with the trained one")
    with pytest.raises(LookupError):
        nltk.word_tokenize("No data. None.")


@pytest.mark.parametrize(("language", "tokens"), [("en", "nltk-punkt"), ("ru", "razdel")])
def test_tokens_are_eval_py_parse_tokens(tmp_path, untrained_punkt, language, tokens):
    """Every dev reference and a generated output per entry: eval.py's ``parse`` gives the
    registry tokeniser's tokens (reference files with empty lines where an entry has fewer)."""
    references, hypotheses = case(language, 1, None)
    write_parallel(tmp_path, references, hypotheses)
    references_tok, hypothesis_tok = eval_tokens(tmp_path, language)
    tokenise = TOKENISERS[tokens]
    read_refs, read_hyps = parsed(tmp_path)
    assert hypothesis_tok == [tokenise(text) for text in read_hyps]
    assert references_tok == [[tokenise(text) for text in refs] for refs in read_refs]


def test_nltk_punkt_splits_sentences_where_plain_nltk_does_not(untrained_punkt):
    text = "Aarhus Airport serves Aarhus. It is 25 m. above sea level. J. Smith runs it."
    assert TOKENISERS["nltk-punkt"](text) == " ".join(nltk.word_tokenize(text))
    assert "Aarhus ." in TOKENISERS["nltk-punkt"](text)
    assert "Aarhus." in TOKENISERS["nltk"](text)  # the whole text at once: kept as it was


def _profile(tokens: str, metric: str, language: str = "en"):
    options: dict[str, object] = {"references": REFERENCES}
    if metric == "METEOR-files":
        options["language"] = language
    return build_profile(
        {
            "name": f"tokens-{tokens}-{metric}",
            "reader": "parallel",
            "metrics": [{"metric": metric, "options": options, "tokens": tokens}],
        }
    )


@pytest.mark.parametrize(
    "entries", [200, pytest.param(600, marks=pytest.mark.exhaustive)], ids=["200", "600"]
)
@pytest.mark.parametrize(("language", "tokens"), [("en", "nltk-punkt"), ("ru", "razdel")])
def test_ter_on_the_tokens_equals_eval_py(tmp_path, untrained_punkt, language, tokens, entries):
    """pyter3's search is slow: make test compares 200 entries, make test-all 600."""
    write_parallel(tmp_path, *case(language, 2, entries))
    references_tok, hypothesis_tok = eval_tokens(tmp_path, language)
    expected = eval_functions()["ter_score"](references_tok, hypothesis_tok, REFERENCES)  # type: ignore[operator]
    refs, hyps = ours(tmp_path)
    (score,) = _profile(tokens, "TER-pyter").score(hyps, refs)
    assert score.value == pytest.approx(expected, abs=1e-12)
    assert f"|tokens:{TOKENISERS[tokens].__name__}|" in score.signature


def test_english_meteor_on_the_tokens_equals_eval_py(tmp_path, untrained_punkt, monkeypatch):
    """eval.py's ``meteor_score`` runs the jar (``-l en -norm -r 4``) on its tokens; the
    kind's METEOR-files on ``nltk-punkt`` tokens (the port) prints the same final score."""
    require_binary("java")
    write_parallel(tmp_path, *case("en", 3, 300))
    references_tok, hypothesis_tok = eval_tokens(tmp_path, "en")
    monkeypatch.chdir(tmp_path)  # meteor_score writes its temporary files here
    expected = eval_functions()["meteor_score"](references_tok, hypothesis_tok, REFERENCES)  # type: ignore[operator]
    assert expected > 0  # -1 when the jar failed
    refs, hyps = ours(tmp_path)
    (score,) = _profile("nltk-punkt", "METEOR-files").score(hyps, refs)
    assert score.value == pytest.approx(expected, abs=1e-12)
    assert "|l:en|" in score.signature


def test_russian_meteor_cannot_be_had_here(tmp_path, monkeypatch):
    """eval.py's ``-l ru``: the jar wants ``paraphrase-ru.gz``, which pycocoevalcap does not
    ship (eval.py then prints an error and reports -1); the kind refuses the option."""
    from scorer.errors import KindError

    require_binary("java")
    monkeypatch.chdir(tmp_path)
    tokens = [["Москва — столица России ."]] * 2
    hypotheses = ["Москва столица России ."] * 2
    assert eval_functions()["meteor_score"](tokens, hypotheses, 1, lng="ru") == -1  # type: ignore[operator]
    with pytest.raises(KindError, match=r"paraphrase-ru\.gz"):
        _profile("razdel", "METEOR-files", language="ru")
