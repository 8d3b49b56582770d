"""Generated outputs for the differential tests of TER's shift search
(``scorer.metrics.tercom_search`` against sacreBLEU's ``lib_ter``).

Beside webnlg_cases' transforms (copies, dropped, swapped and repeated words, blanks, odd
characters...), outputs that exercise the shift search and the beam: word runs moved,
duplicated, dropped and swapped; frequent words repeated so that several shifts tie; numbers and
punctuation; halves exchanged; and long outputs (over 100 words) whose length differs from the
references' (the beam then changes the edit distance). Seeded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from tests.support.webnlg_cases import PIECES, TRANSFORMS, Transform, insert_pieces

COMMON = ("the", "of", "is", "a", "in", "and", ",", ".")
"""Words every WebNLG reference repeats: inserted, they make shifts ambiguous."""


def _run(rng: random.Random, words: list[str]) -> tuple[int, int]:
    start = rng.randrange(len(words))
    return start, min(len(words), start + rng.randint(1, 6))


def move_block(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    for _ in range(rng.randint(1, 3)):
        if len(words) > 1:
            start, end = _run(rng, words)
            block, rest = words[start:end], words[:start] + words[end:]
            at = rng.randint(0, len(rest))
            words = rest[:at] + block + rest[at:]
    return " ".join(words)


def duplicate_block(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    if words:
        start, end = _run(rng, words)
        at = rng.randint(0, len(words))
        words = words[:at] + words[start:end] + words[at:]
    return " ".join(words)


def drop_block(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    if words:
        start, end = _run(rng, words)
        words = words[:start] + words[end:]
    return " ".join(words)


def swap_blocks(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    if len(words) < 4:
        return " ".join(reversed(words))
    cut = sorted(rng.sample(range(1, len(words)), 3))
    a, b, c, d = words[: cut[0]], words[cut[0] : cut[1]], words[cut[1] : cut[2]], words[cut[2] :]
    return " ".join(a + c + b + d)


def exchange_halves(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    half = len(words) // 2
    return " ".join(words[half:] + words[:half])


def common_words(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    for _ in range(rng.randint(2, 12)):
        words.insert(rng.randint(0, len(words)), rng.choice(COMMON))
    return " ".join(words)


def only_common_words(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = rng.choice(refs).split()
    return " ".join(w if w.lower() in COMMON else rng.choice(COMMON) for w in words)


def numbers_and_punctuation(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return insert_pieces(rng, rng.choice(refs), rng.randint(3, 10), PIECES)


def long_output(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    """Over 100 words: the entry's references and others, some words moved."""
    words: list[str] = []
    while len(words) <= 100:
        words += rng.choice(refs + rng.sample(pool, 2)).split()
    return move_block(rng, [" ".join(words)], pool)


SHIFT_TRANSFORMS: list[Transform] = [
    move_block,
    duplicate_block,
    drop_block,
    swap_blocks,
    exchange_halves,
    common_words,
    only_common_words,
    numbers_and_punctuation,
]

ALL_TRANSFORMS = TRANSFORMS + SHIFT_TRANSFORMS


def shift_outputs(references: list[list[str]], seed: int) -> list[str]:
    """One output per entry (a list of its references), by a transform drawn per entry (not
    ``long_output``, which costs sacreBLEU seconds an item: see ``long_outputs``)."""
    rng = random.Random(seed)
    pool = [ref for refs in references for ref in refs]
    return [rng.choice(ALL_TRANSFORMS)(rng, refs, pool) for refs in references]


def long_outputs(references: list[list[str]], seed: int) -> list[str]:
    rng = random.Random(seed)
    pool = [ref for refs in references for ref in refs]
    return [long_output(rng, refs, pool) for refs in references]


Edits = Callable[[str, str], int]
"""A TER search on two texts of words mapped to characters (``_as_characters``)."""


def differing_edits(
    pairs: Iterable[tuple[list[str], list[str]]],
    as_characters: Callable[[list[str], list[str]], tuple[str, str]],
    compiled: Edits,
    python: Edits,
) -> list[tuple[int, int, str, str]]:
    """The pairs (with a reference) where a compiled TER search and its Python one differ:
    (compiled, Python, output, reference)."""
    found = []
    for words_hyp, words_ref in pairs:
        if not words_ref:
            continue
        hyp, ref = as_characters(words_hyp, words_ref)
        ours, theirs = compiled(hyp, ref), python(hyp, ref)
        if ours != theirs:
            found.append((ours, theirs, " ".join(words_hyp), " ".join(words_ref)))
    return found
