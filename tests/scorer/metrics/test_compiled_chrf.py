"""chrF++'s compiled rows (``scorer/metrics/_chrf.c``) against the Python ones
(``ChrFPlusPlus._best``, itself held to chrF.py by the WebNLG+ 2020 oracle tests): every
number of every item's row equal, on generated texts (small alphabets, so that n-grams repeat
and references tie; spaces, punctuation at words' edges, any code point, empty outputs and
references), at every pair of orders the compiled tables hold and other betas, and on outputs
generated from the WebNLG 2017 dev references (skipped without ``../shared``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from scorer.metrics import chrf_plus_plus
from scorer.metrics.chrf_plus_plus import ChrFPlusPlus
from scorer.references import ReferenceSet
from tests.scorer.metrics.test_tercom_search import webnlg_references
from tests.support.paths import require_compiled
from tests.support.webnlg_cases import PIECES, dev_entries, outputs

compiled = chrf_plus_plus.COMPILED


@pytest.fixture(autouse=True)
def needs_compiled() -> None:
    require_compiled(compiled, "scorer.metrics._chrf", "_chrf.c")


def both_rows(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options: float
) -> tuple[np.ndarray, np.ndarray]:
    """The rows computed compiled and in Python (fresh metrics: nothing prepared before)."""
    ours = ChrFPlusPlus(**options)  # type: ignore[arg-type]
    assert ours.compiled
    reference_set = ReferenceSet([list(refs) for refs in references])
    chrf_plus_plus._CACHES.clear()
    rows = ours.segment_statistics(hypotheses, reference_set)
    python = ChrFPlusPlus(**options)  # type: ignore[arg-type]
    python.compiled = False
    return rows, python.segment_statistics(hypotheses, reference_set)


def assert_same(hypotheses, references, **options) -> None:
    ours, python = both_rows(hypotheses, references, **options)
    assert ours.shape == python.shape
    differing = [k for k in range(len(ours)) if not np.array_equal(ours[k], python[k])]
    assert not differing, [(hypotheses[k], references[k]) for k in differing[:3]]


def random_text(rng: random.Random, alphabet: str, longest: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))


def generated(rng: random.Random, count: int) -> tuple[list[str], list[list[str]]]:
    """Outputs and 1-5 references each over small alphabets (spaces and punctuation among the
    letters, and code points of every plane), the output often an edited reference."""
    alphabets = ["ab ", "abc .,", "a b(c)d!?", "xy \t\u00a0\u2003.", "é\U0001f600\U0010ffff a-"]
    hypotheses, references = [], []
    for _ in range(count):
        alphabet = rng.choice(alphabets)
        refs = [random_text(rng, alphabet, 30) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.6:
            chosen = list(rng.choice(refs))
            for _ in range(rng.randint(0, 4)):
                if chosen:
                    del chosen[rng.randrange(len(chosen))]
            hypothesis = "".join(chosen)
        else:
            hypothesis = random_text(rng, alphabet, 30)
        hypotheses.append(hypothesis)
        references.append(refs)
    return hypotheses, references


def test_small_cases():
    assert_same(
        ["", "a", "ab", "ab", " a ", "a.", ".a", "a b", "", "x"],
        [
            [""],
            ["a"],
            ["ab"],
            ["ba", "ab"],
            [" a"],
            ["a ."],
            ["a."],
            ["a b", "b a"],
            ["", ""],
            [""],
        ],
    )


def test_generated_texts():
    hypotheses, references = generated(random.Random(3), 2000)
    assert_same(hypotheses, references)


@pytest.mark.parametrize("char_order", [1, 2, 5, 6])
@pytest.mark.parametrize("word_order", [0, 1, 3, 6])
def test_every_order_the_tables_hold(char_order, word_order):
    hypotheses, references = generated(random.Random(char_order * 10 + word_order), 300)
    assert_same(hypotheses, references, char_order=char_order, word_order=word_order)


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 3.0])
def test_other_betas(beta):
    hypotheses, references = generated(random.Random(int(beta * 10)), 300)
    assert_same(hypotheses, references, beta=beta)


def test_words_no_reference_has_match_nothing():
    """An output's unknown words all share one code point, which no reference word has."""
    assert_same(["zz yy zz yy", "a zz a", "zz"], [["a b a b"], ["a a", "zz"], ["a"]])


def test_longer_orders_stay_in_python():
    assert not ChrFPlusPlus(char_order=7).compiled
    assert not ChrFPlusPlus(word_order=7).compiled


def test_pieces_and_webnlg_dev_outputs():
    """The WebNLG pieces (numbers, quotes, dashes, non-ASCII words) inside real references,
    and outputs generated from those references."""
    references = webnlg_references(dev_entries, 300, 4)
    rng = random.Random(4)
    pieces = [" ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6))) for _ in references]
    assert_same(outputs(references, 4) + pieces, references + references)
