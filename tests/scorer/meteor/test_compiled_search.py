"""The compiled alignment search (``scorer/meteor/_search.c``) against the Python one
(``aligner.search``, itself held to the jar by tests/oracles/test_java_free.py): the same
choice of matches on generated candidate sets built to tie, overlap and fix, on sentences
longer than one and two 64-bit words, and on every hypothesis/reference pair of the E2E dev
set's outputs."""

from __future__ import annotations

import random

import pytest

from scorer.meteor import aligner as aligner_module
from scorer.meteor.aligner import Candidates, Sentence, search
from tests.support.paths import e2e_file, require_compiled

compiled = aligner_module.COMPILED


def needs_compiled() -> None:
    require_compiled(compiled, "scorer.meteor._search", "_search.c")


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
    in_c = compiled.resolve(found.raw, len(found.one.words), len(found.two.words))
    return list(in_c), search(found)


@pytest.mark.parametrize("seed", [0, *(pytest.param(k, marks=pytest.mark.slow) for k in (1, 2, 3))])
def test_generated_candidates_get_the_python_searchs_choice(seed):
    needs_compiled()
    rng = random.Random(seed)
    for _ in range(400):
        len1 = rng.choice([0, 1, 3, 8, 20, 40, 63, 64, 65, 90, 140])
        len2 = rng.choice([0, 1, 2, 7, 20, 45, 64, 70, 130])
        found = generated(rng, len1, len2)
        in_c, in_python = both(found)
        assert in_c == in_python, (seed, len1, len2, found.raw)


def e2e_pairs(limit: int | None = None) -> list[tuple[list[str], list[str]]]:
    """The E2E dev set's (output, reference) pairs as METEOR's words (hypothesis, reference)."""
    from scorer.io.e2e import read_dataset_csv, read_outputs
    from scorer.meteor.scoring import prepare

    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    outputs, _ = read_outputs(e2e_file("dev_loo_output.tsv").read_bytes())
    return [
        (prepare(output), prepare(reference))
        for output, item in zip(outputs[:limit], items[:limit], strict=True)
        for reference in item.references
    ]


@pytest.mark.slow  # every pair of the real dev set (make test; make check leaves it)
def test_real_e2e_pairs_get_the_python_searchs_choice():
    needs_compiled()
    from scorer.meteor.scoring import aligner

    pairs = e2e_pairs()
    for words1, words2 in pairs:
        in_c, in_python = both(aligner().candidates(words1, words2))
        assert in_c == in_python, (words1, words2)
    assert len(pairs) > 4000


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


def python_candidates(current, words1, words2, monkeypatch) -> list:
    with monkeypatch.context() as patch:
        patch.setattr(aligner_module, "COMPILED", None)
        return current.candidates(words1, words2).raw


def test_real_e2e_pairs_get_the_python_candidates(monkeypatch):
    needs_compiled()
    from scorer.meteor.scoring import aligner

    paraphrases = 0
    for words1, words2 in e2e_pairs():
        compiled_raw = aligner().candidates(words1, words2).raw
        assert compiled_raw == python_candidates(aligner(), words1, words2, monkeypatch)
        paraphrases += sum(raw[4] == 3 for raws in compiled_raw for raw in raws)
    assert paraphrases > 1000


def generated_sentence(rng: random.Random, length: int) -> Sentence:
    """Words from a small vocabulary whose hashes and stem hashes collide (exact and stem
    matches of unequal words, stem matches of unequal hashes), synsets shared between words,
    paraphrase paths whose targets start with words of the vocabulary, with empty paraphrases
    alone and beside others."""
    vocabulary = [f"v{k}" for k in range(6)]
    words = tuple(rng.choice(vocabulary) for _ in range(length))
    keys = [int(word[1:]) % 5 for word in words]
    stem_keys = [key % 3 - 1 for key in keys]
    synonyms = [frozenset(rng.sample(range(8), rng.randrange(0, 3))) for _ in words]
    paths = []
    for start in range(length):
        for size in range(1, rng.choice([1, 2, 3]) + 1):
            if start + size > length or rng.random() < 0.5:
                continue
            targets: dict = {}
            for order in range(rng.randrange(1, 5)):
                target = tuple(rng.choice(vocabulary) for _ in range(rng.choice([0, 1, 1, 2, 3])))
                targets.setdefault(target[0] if target else None, []).append((order, target))
            paths.append((start, size, targets))
    return Sentence(words, keys, [False] * length, stem_keys, synonyms, paths)


@pytest.mark.parametrize("seed", range(3))
def test_generated_sentences_get_the_python_candidates(seed):
    needs_compiled()
    rng = random.Random(seed)
    modules: set[int] = set()
    for _ in range(400):
        one = generated_sentence(rng, rng.randrange(0, 30))
        two = generated_sentence(rng, rng.randrange(0, 30))
        if rng.random() < 0.1:  # the same words: exact matches only
            other = generated_sentence(rng, len(one.words))
            two = Sentence(one.words, one.keys, *other.fields()[2:])
        expected = aligner_module.candidates(one, two)
        assert compiled.candidates(one.words, one.packed, two.words, two.packed) == expected
        modules.update(raw[4] for raws in expected for raw in raws)
    assert modules == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("words", "packed"),
    [
        (("a", "b"), (b"", [])),  # no header
        (("a",), None),  # not packed
        (("a", "b", "c"), "one"),  # another sentence's: lengths differ
    ],
)
def test_a_malformed_packed_sentence_raises_not_crashes(words, packed):
    needs_compiled()
    one = Sentence(("a", "b"), [1, 2], [False, False], [1, 2], [frozenset(), frozenset()], [])
    if packed == "one":
        packed = one.packed
    with pytest.raises((TypeError, ValueError)):
        compiled.candidates(words, packed, one.words, one.packed)


def test_the_compiled_score_bound_is_the_pythons_on_real_e2e_pairs(monkeypatch):
    needs_compiled()
    from scorer.meteor.scoring import aligner, upper_bound

    found = [aligner().candidates(words1, words2) for words1, words2 in e2e_pairs(200)]
    in_c = [upper_bound(candidates) for candidates in found]
    monkeypatch.setattr(aligner_module, "COMPILED", None)
    in_python = [upper_bound(candidates) for candidates in found]
    # A bound only rules references out with a margin of 1e-9 (scoring.BOUND_MARGIN).
    assert in_c == pytest.approx(in_python, rel=1e-12, abs=0)
    assert len({round(value, 6) for value in in_c}) > 100
