"""The compiled TER shift search (``scorer/metrics/_tercom.c``) against the Python one
(``tercom_search._Search``, itself held to sacreBLEU's ``lib_ter`` by test_tercom_search.py):
the same number of edits on many generated pairs: random sequences over small vocabularies
(many tied shifts, the 1,000-candidate cap), lengths at the beam's edges, rotated long
sequences, and outputs generated from the WebNLG 2017 dev references (skipped without
``../shared``). The Python search needs no sacreBLEU run, so these cover far more pairs than
the oracle tests can."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator

import pytest

from scorer.metrics import tercom_search
from scorer.metrics.tercom_search import _as_characters, _Search
from tests.scorer.metrics.test_tercom_search import (
    beam_edge_pairs,
    every_pair,
    rotated_pairs,
    webnlg_references,
)
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
    return differing_edits(
        pairs, _as_characters, compiled.edits, lambda hyp, ref: _Search(hyp, ref).edits()
    )


def random_pairs(count: int, seed: int, longest: int) -> Iterator[tuple[list[str], list[str]]]:
    """Outputs and references of up to ``longest`` words over 1-8 words, the output often a
    perturbed copy of the reference (so that shifts are found and tie)."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice([1, 2, 3, 4, 8])
        reference = [f"w{rng.randrange(size)}" for _ in range(rng.randint(1, longest))]
        if rng.random() < 0.5:
            output = [f"w{rng.randrange(size)}" for _ in range(rng.randint(0, longest))]
        else:
            output = list(reference)
            for _ in range(rng.randint(0, 4)):
                start = rng.randrange(len(output)) if output else 0
                block = output[start : start + rng.randint(1, 8)]
                del output[start : start + len(block)]
                at = rng.randint(0, len(output))
                output[at:at] = block
            for _ in range(rng.randint(0, 3)):
                if output and rng.random() < 0.5:
                    output[rng.randrange(len(output))] = f"w{rng.randrange(size + 2)}"
                else:
                    output.insert(rng.randint(0, len(output)), f"w{rng.randrange(size)}")
        yield output, reference


def test_small_cases():
    assert not differing(
        [
            ([], ["a"]),
            (["a"], ["a"]),
            (["b"], ["a"]),
            (["c", "d", "a", "b"], ["a", "b", "c", "d"]),
            (("a b c " * 12).split(), ("c b a " * 12).split()),  # the candidate cap
            (["x"], [f"y{k}" for k in range(100)]),
        ]
    )


def test_random_sequences():
    assert not differing(random_pairs(1500, 7, 25))


@pytest.mark.slow
@pytest.mark.parametrize("count", [500, pytest.param(5000, marks=pytest.mark.exhaustive)])
def test_longer_random_sequences(count):
    assert not differing(random_pairs(count, 8, 60))


def test_at_the_beams_edges():
    assert not differing(beam_edge_pairs())


def test_short_outputs_of_long_references_and_the_reverse():
    rng = random.Random(11)
    pairs = []
    for n, m in itertools.product(range(0, 9), (30, 60, 120, 160)):
        output = [f"w{rng.randrange(3)}" for _ in range(n)]
        reference = [f"w{rng.randrange(3)}" for _ in range(m)]
        pairs += [(output, reference), (reference, output)]
    assert not differing(pairs)


@pytest.mark.slow
def test_rotated_long_sequences():
    assert not differing(rotated_pairs(60, 9))


@pytest.mark.slow
def test_generated_outputs_of_webnlg_dev_references():
    references = webnlg_references(dev_entries, 0, 12)
    pairs = every_pair(shift_outputs(references, 12), references)
    pairs += every_pair(long_outputs(references[:100], 13), references[:100])
    assert len(pairs) > 2000
    assert not differing(pairs)
