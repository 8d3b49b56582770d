"""TER as WebNLG+ 2020's ``eval.py`` computes it: ``pyter3`` per item, the minimum over the
item's references, averaged over items (0-1).

pyter's TER of an output h against a reference r (both split on whitespace):

    while some shift of a word sequence of h lowers edit_distance(h, r): apply the best one
    TER(h, r) = (shifts + edit_distance(h, r)) / |r|

A candidate shift moves the longest common run that starts at h[i] = r[j] (i != j) to
position j of h with the run taken out; the best is the largest drop in edit distance (word
Levenshtein distance), ties going to the shifted word list that sorts last (pyter sorts
(drop, words) pairs). ``eval.py`` scores an empty reference 1, and so a reference of no words
(pyter would divide by zero, which it catches): reading ``references=N`` parallel files, an
item with fewer than N references also meets N minus that many empty lines, so its TER is at
most 1. The corpus figure is the plain mean of the items' minimum. A port (the edit distances by
rapidfuzz, on words mapped to characters); pyter3 is its test oracle. Where ``_tercom.c`` is
built (``setup.py``), the search runs compiled (``_tercom.pyter_edits``, about 9/10 of a warm
2020 job's TER in Python), held to the Python one here by tests/scorer/metrics/
test_compiled_pyter.py.

Citation: Snover et al. (2006), AMTA; pyter3 0.3 (Tanaka); Castro Ferreira et al. (2020),
The 2020 bilingual, bi-directional WebNLG+ shared task, WebNLG+ workshop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from scorer import __version__, parallel
from scorer.metrics import REFERENCES, register
from scorer.metrics.base import EDIT_DISTANCE, MeanOfSegments, Tokeniser, Traits, mean_rows
from scorer.metrics.multibleu import files_view
from scorer.metrics.tercom_search import COMPILED
from scorer.references import ReferenceSet

Work = tuple[str, tuple[str, ...], int | None, Tokeniser | None]
"""One item to score: the output, its references, the number of reference files (or None),
and the tokeniser the output is still to go through (or None)."""


def _as_characters(hypothesis: Sequence[str], reference: Sequence[str]) -> tuple[str, str]:
    """Each distinct word as one character, in the words' own order (the k-th smallest word
    gets the k-th code point, surrogates skipped): slicing and Levenshtein distances of
    strings are exact and fast, and the strings compare as the word lists do, which decides
    pyter's ties."""
    codes: dict[str, str] = {}
    for number, word in enumerate(sorted({*hypothesis, *reference})):
        codes[word] = chr(number if number < 0xD800 else number + 0x800)
    return "".join(map(codes.__getitem__, hypothesis)), "".join(map(codes.__getitem__, reference))


def _best_shift(hyp: str, ref: str, positions: dict[str, list[int]]) -> tuple[int, str]:
    """pyter's ``_shift``: the largest drop in edit distance over its candidate shifts, ties
    to the shifted output that sorts last. Its candidates (``_findpairs``): for each h[i] =
    r[j] (i != j), the longest common run from there, moved to position j of h with the run
    taken out; found here from r's positions of each word rather than from every (i, j)."""
    before = Levenshtein.distance(hyp, ref)
    best: tuple[int, str] | None = None
    n, m = len(hyp), len(ref)
    for i, word in enumerate(hyp):
        for j in positions.get(word, ()):
            if i == j:
                continue
            length = 1
            while i + length < n and j + length < m and hyp[i + length] == ref[j + length]:
                length += 1
            rest = hyp[:i] + hyp[i + length :]
            shifted = rest[:j] + hyp[i : i + length] + rest[j:]
            candidate = (before - Levenshtein.distance(shifted, ref), shifted)
            if best is None or candidate > best:
                best = candidate
    return best if best is not None else (0, hyp)


def ter(hypothesis: Sequence[str], reference: Sequence[str]) -> float:
    """pyter's ``ter(inputwords, refwords)``; raises ZeroDivisionError for an empty reference."""
    hyp, ref = _as_characters(hypothesis, reference)
    if COMPILED is not None:
        return COMPILED.pyter_edits(hyp, ref) / len(ref)
    return python_edits(hyp, ref) / len(ref)


def python_edits(hyp: str, ref: str) -> int:
    """pyter's shifts + edit distance of ``hyp`` against ``ref`` (one character a word): the
    search where ``_tercom.c`` is not built, and what the compiled one is tested against."""
    positions: dict[str, list[int]] = {}
    for j, word in enumerate(ref):
        positions.setdefault(word, []).append(j)
    shifts = 0
    while True:
        drop, shifted = _best_shift(hyp, ref, positions)
        if drop <= 0:
            break
        shifts += 1
        hyp = shifted
    return shifts + Levenshtein.distance(hyp, ref)


def item_ter(hypothesis: str, references: Sequence[str], files: int | None = None) -> float:
    """``eval.py``'s ``ter_score`` for one item: the minimum over its references, and over the
    empty lines (each scored 1) that ``files`` parallel reference files give an item with
    fewer references."""
    words = hypothesis.split()
    candidates = []
    for reference in files_view(references, files):
        ref_words = reference.split()
        candidates.append(ter(words, ref_words) if reference and ref_words else 1.0)
    return min(candidates)


class PyterTER(MeanOfSegments):
    name = "TER"
    traits = Traits(
        group=EDIT_DISTANCE,
        glossary=(
            "Translation edit rate as pyter computes it (WebNLG+ 2020's eval.py): word edits "
            "(Levenshtein) plus the shifts its greedy search makes, per reference word, against "
            "the output's closest reference (an empty reference scores 1), averaged over "
            "outputs; lower is better. Not tercom's search: its figures differ from TER's."
        ),
        higher_is_better=False,
        cost="slow",
    )

    def __init__(self, *, references: int | None = None) -> None:
        if references is not None and (not isinstance(references, int) or references < 1):
            raise ValueError(f"references must be a positive number of files, not {references!r}")
        self.references = references
        self.signature = (
            f"TER|pyter3-0.3|webnlg2020-eval|min-over-refs|refs:"
            f"{f'{references}-files' if references else 'var'}|mean|tok:whitespace|scale:0-1"
            f"|nlgboard:{__version__}"
        )

    def segment_scores(self, hypotheses: Sequence[str], references: ReferenceSet) -> list[float]:
        return self._start(hypotheses, references)()

    def begin_statistics(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], np.ndarray]:
        """A few milliseconds an item (four references): a test set's goes to the scoring
        processes (``scorer.parallel``) beside METEOR's, while chrF++ and BLEU run here; each
        process tokenises its own share of the outputs (``tokenise``, remembered there for
        METEOR, whose share is the same items)."""
        finish = self._start(hypotheses, references, tokenise)
        return lambda: mean_rows(finish())

    def _start(
        self,
        hypotheses: Sequence[str],
        references: ReferenceSet,
        tokenise: Tokeniser | None = None,
    ) -> Callable[[], list[float]]:
        work: list[Work] = [
            (h, tuple(refs), self.references, tokenise)
            for h, refs in zip(hypotheses, references, strict=True)
        ]
        return parallel.start(item_ters, work)


def item_ters(work: list[Work]) -> list[float]:
    """``item_ter`` of each (output, references, files, tokeniser): a share of a batch."""
    return [
        item_ter(hypothesis if tokenise is None else tokenise(hypothesis), references, files)
        for hypothesis, references, files, tokenise in work
    ]


@register("TER-pyter", references=REFERENCES)
def make_pyter_ter(*, references: int | None = None) -> PyterTER:
    return PyterTER(references=references)
