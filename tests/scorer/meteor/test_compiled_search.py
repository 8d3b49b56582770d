"""The compiled alignment search (``scorer/meteor/_search.c``) against the Python one
(``aligner.search``, itself held to the jar by tests/oracles/test_java_free.py): the same
choice of matches on generated candidate sets built to tie, overlap and fix, on sentences
longer than one and two 64-bit words, and on every hypothesis/reference pair of the E2E dev
set's outputs."""

from __future__ import annotations

import random
import shutil

import pytest

from scorer.meteor import aligner as aligner_module
from scorer.meteor.aligner import Candidates, Sentence, search
from tests.support.paths import e2e_file

compiled = aligner_module._compiled


def needs_compiled() -> None:
    if compiled is None:
        if shutil.which("cc") or shutil.which("gcc"):
            pytest.fail(
                "a C compiler is here but scorer.meteor._search is not built: "
                "reinstall (make test does, when setup.py or _search.c change)"
            )
        pytest.skip("no C compiler: scorer.meteor._search is not built, Python searches")


def sentence(length: int) -> Sentence:
    return Sentence(tuple(f"w{k}" for k in range(length)), [], [], [], [], [])


def generated(rng: random.Random, len1: int, len2: int) -> Candidates:
    """Candidates as the modules give them: mostly one-word matches, some phrases, repeated
    words (several candidates per word, equal ranks), and words only one candidate covers."""
    raw: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(len2)]
    if len1 == 0:
        return Candidates(sentence(len1), sentence(len2), raw)
    vocabulary = max(2, rng.choice([2, 4, len1 // 2 + 1, len1 + 1]))
    words1 = [rng.randrange(vocabulary) for _ in range(len1)]
    words2 = [rng.randrange(vocabulary) for _ in range(len2)]
    for i, word in enumerate(words2):
        for j, other in enumerate(words1):
            if other == word:
                raw[i].append((i, 1, j, 1, 0))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            length = rng.choice([1, 1, 2, 3])
            match_length = rng.choice([0, 1, 1, 2, 3, 4])
            if i + length > len2:
                continue
            match_start = rng.randrange(max(1, len1 - match_length + 1))
            if match_start + match_length > len1:
                continue
            raw[i].append((i, length, match_start, match_length, rng.randrange(4)))
    return Candidates(sentence(len1), sentence(len2), raw)


def both(found: Candidates) -> tuple[list, list]:
    chosen = compiled.resolve(found.raw, len(found.one.words), len(found.two.words))
    in_c = [None if raw is None else aligner_module.Match(*raw) for raw in chosen]
    return in_c, search(found)


@pytest.mark.parametrize("seed", range(4))
def test_generated_candidates_get_the_python_searchs_choice(seed):
    needs_compiled()
    rng = random.Random(seed)
    for _ in range(400):
        len1 = rng.choice([0, 1, 3, 8, 20, 40, 63, 64, 65, 90, 140])
        len2 = rng.choice([0, 1, 2, 7, 20, 45, 64, 70, 130])
        found = generated(rng, len1, len2)
        in_c, in_python = both(found)
        assert in_c == in_python, (seed, len1, len2, found.raw)


def test_real_e2e_pairs_get_the_python_searchs_choice():
    needs_compiled()
    from scorer.io.e2e import read_dataset_csv, read_outputs
    from scorer.meteor.scoring import aligner, prepare

    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    outputs, _ = read_outputs(e2e_file("dev_loo_output.tsv").read_bytes())
    current, pairs = aligner(), 0
    for output, item in zip(outputs, items, strict=True):
        words1 = prepare(output)
        for reference in item.references:
            found = current.candidates(words1, prepare(reference))
            in_c, in_python = both(found)
            assert in_c == in_python, (output, reference)
            pairs += 1
    assert pairs > 4000


@pytest.mark.parametrize(
    ("raw", "len1", "len2", "error"),
    [
        ([[(0, 1, 5, 1, 0)]], 2, 1, ValueError),  # outside the hypothesis
        ([[(0, 2, 0, 1, 0)]], 2, 1, ValueError),  # outside the reference
        ([[(0, 1, 0, 1, 7)]], 2, 1, ValueError),  # no such module
        ([[(0, 1, 0, 1)]], 2, 1, TypeError),
        ([[]], 2, 2, TypeError),  # a list per reference word
        ([("x",)], 2, 1, TypeError),
    ],
)
def test_malformed_candidates_raise_not_crash(raw, len1, len2, error):
    needs_compiled()
    with pytest.raises(error):
        compiled.resolve(raw, len1, len2)
