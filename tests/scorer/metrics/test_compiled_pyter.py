"""pyter's search compiled (``_tercom.pyter_edits``) against the Python one
(``ter_pyter.python_edits``, itself held to pyter3 by the WebNLG+ 2020 oracle tests): the same
shifts + edit distance on many generated pairs: random sequences over small vocabularies (many
tied shifts, where the shifted output that sorts last wins), references on both sides of 64
words (the bit-parallel distance and the plain one), words given as arbitrary code points, and
outputs generated from the WebNLG 2017 dev references (skipped without ``../shared``)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from scorer.metrics import tercom_search
from scorer.metrics.ter_pyter import _as_characters, python_edits, ter
from tests.scorer.metrics.test_compiled_tercom import random_pairs
from tests.scorer.metrics.test_tercom_search import every_pair, webnlg_references
from tests.support.paths import require_compiled
from tests.support.ter_cases import differing_edits, long_outputs, shift_outputs
from tests.support.webnlg_cases import dev_entries

compiled = tercom_search.COMPILED


@pytest.fixture(autouse=True)
def needs_compiled() -> None:
    require_compiled(compiled, "scorer.metrics._tercom", "_tercom.c")


def differing(pairs: Iterable[tuple[list[str], list[str]]]) -> list[tuple[int, int, str, str]]:
    """The pairs (with a reference) where the compiled and the Python edits differ."""
    assert compiled is not None
    return differing_edits(pairs, _as_characters, compiled.pyter_edits, python_edits)


def test_small_cases():
    assert not differing(
        [
            ([], ["a"]),
            (["a"], ["a"]),
            (["b"], ["a"]),
            (["c", "d", "a", "b"], ["a", "b", "c", "d"]),
            (["a", "b", "a", "b"], ["b", "a", "b", "a"]),
            (("a b c " * 12).split(), ("c b a " * 12).split()),
            (["x"], [f"y{k}" for k in range(100)]),
        ]
    )


def test_an_empty_reference_divides_by_zero_as_pyter():
    assert compiled is not None
    with pytest.raises(ZeroDivisionError):
        compiled.pyter_edits("ab", "")
    with pytest.raises(ZeroDivisionError):
        ter(["a"], [])


def test_random_sequences():
    assert not differing(random_pairs(3000, 21, 25))


@pytest.mark.parametrize("length", [63, 64, 65, 80])
def test_references_about_64_words(length):
    """The bit-parallel distance holds references of up to 64 words, the plain one longer."""
    rng = random.Random(length)
    pairs = []
    for _ in range(10):
        size = rng.choice([2, 5, 30])
        reference = [f"w{rng.randrange(size)}" for _ in range(length)]
        output = list(reference)
        for _ in range(rng.randint(1, 4)):
            start = rng.randrange(len(output))
            block = output[start : start + rng.randint(1, 10)]
            del output[start : start + len(block)]
            at = rng.randint(0, len(output))
            output[at:at] = block
        if rng.random() < 0.5:
            output = output[: rng.randint(1, len(output))]
        pairs += [(output, reference), (reference, output)]
    assert not differing(pairs)


def test_words_as_any_code_points():
    """The compiled search ranks the code points it is given, whatever they are (the Python
    side gives consecutive ones): order kept, so ties fall the same way."""
    assert compiled is not None
    rng = random.Random(5)
    alphabet = ["\x00", "a", "\ud7ff", "\ue000", "\U0001f600", "\U0010ffff"]
    for _ in range(500):
        ref = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20)))
        hyp = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))
        assert compiled.pyter_edits(hyp, ref) == python_edits(hyp, ref), (hyp, ref)


@pytest.mark.slow
@pytest.mark.parametrize("count", [800, pytest.param(8000, marks=pytest.mark.exhaustive)])
def test_longer_random_sequences(count):
    assert not differing(random_pairs(count, 22, 60))


@pytest.mark.slow
def test_generated_outputs_of_webnlg_dev_references():
    references = webnlg_references(dev_entries, 0, 12)
    pairs = every_pair(shift_outputs(references, 12), references)
    pairs += every_pair(long_outputs(references[:100], 13), references[:100])
    assert len(pairs) > 2000
    assert not differing(pairs)
