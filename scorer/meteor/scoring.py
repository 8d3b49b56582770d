"""METEOR 1.5's segment statistics and score (``MeteorScorer``), as ``-stdio`` answers a
``SCORE ||| ref ||| ... ||| hypothesis`` line with ``-l en -norm``.

The score only picks, per segment, the reference whose alignment scores best (the first of
equal ones); it is computed with Java's double arithmetic in the jar's order of operations, so
that equal and near-equal scores break the same way. The statistics are the 23 numbers the jar
prints: lengths, function-word counts, per module the content and function matches on each side,
chunks, and matched words on each side.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from scorer import parallel
from scorer.cache import kept
from scorer.java.lowercase import java_lower
from scorer.meteor import aligner as aligner_module
from scorer.meteor.aligner import Aligner, Alignment, Candidates, Sentence
from scorer.meteor.formula import (
    ALPHA,
    BETA,
    DELTA,
    GAMMA,
    MODULE_WEIGHTS,
    score,
    weighted_length,
)
from scorer.meteor.normalizer import java_tokens, java_trim, normalize_english
from scorer.meteor.resources import function_words, lexicon, nonbreaking_prefixes, stemmer

_FIELD = re.compile(r"\|\|\|")
BOUND_MARGIN = 1e-9
"""Rounding room: a reference is left out only when its bound is clearly below the best."""


def statistics(alignment: Alignment) -> list[float]:
    """The 23 numbers of ``MeteorStats.toString``."""
    row = [
        float(len(alignment.words1)),
        float(len(alignment.words2)),
        float(alignment.function1),
        float(alignment.function2),
    ]
    for i in range(4):
        row += [
            float(alignment.content1[i]),
            float(alignment.content2[i]),
            float(alignment.functional1[i]),
            float(alignment.functional2[i]),
        ]
    test_words = sum(alignment.content1) + sum(alignment.functional1)
    ref_words = sum(alignment.content2) + sum(alignment.functional2)
    return [*row, float(alignment.chunks), float(test_words), float(ref_words)]


@cache
def aligner() -> Aligner:
    return Aligner(lexicon(), stemmer(), function_words())


_PREPARED: dict[str, list[str]] = {}
_PREPARED_LIMIT = 50_000


def prepare(text: str, remember: bool = False) -> list[str]:
    """``-norm``: normalise, lowercase, split into words (the jar does this per segment);
    ``remember`` for references, which come back for every system."""
    found = _PREPARED.get(text)
    if found is None:
        found = java_tokens(java_lower(normalize_english(text, nonbreaking_prefixes())))
        if remember:
            remembered(text, found)
    return found


def remembered(text: str, words: list[str]) -> None:
    if len(_PREPARED) >= _PREPARED_LIMIT:
        _PREPARED.clear()
    _PREPARED[text] = words


def segment_statistics(hypothesis: str, references: Sequence[str]) -> list[float]:
    """``getMeteorStats(hypothesis, references)``: the statistics of the best-scoring reference
    (the first of equal ones). References are searched in the order of what they could score
    at best, and one whose best cannot reach the best found is not searched: its candidates
    bound its score from above (``upper_bound``), so the pick is the jar's."""
    if not references:
        raise ValueError("METEOR needs at least one reference")
    current = aligner()
    words1 = prepare(hypothesis)
    found = [current.candidates(words1, prepare(ref, remember=True)) for ref in references]
    bounds = [upper_bound(candidates) for candidates in found]
    best: list[float] = []
    best_score, best_index = -1.0, len(references)
    for index in sorted(range(len(references)), key=lambda k: -bounds[k]):
        if bounds[index] < best_score - BOUND_MARGIN:
            break
        row = statistics(current.resolve(found[index]))
        value = score(row)
        if value > best_score or (value == best_score and index < best_index):
            best, best_score, best_index = row, value, index
    return best


def upper_bound(found: Candidates) -> float:
    """The largest score any alignment of these candidates could have: METEOR's F-mean with
    every word a candidate covers matched at its best module weight, less the penalty of a
    single chunk over all of them (none if every word is coverable: it could be perfect)."""
    compiled = aligner_module.COMPILED
    if compiled is not None:
        return compiled.upper_bound(
            found.raw,
            found.one.function,
            found.two.function,
            MODULE_WEIGHTS,
            (ALPHA, BETA, GAMMA, DELTA),
        )
    best1, best2 = found.best_weights(MODULE_WEIGHTS)
    function1, function2 = found.one.function, found.two.function
    test_len, ref_len = len(best1), len(best2)
    test_weighted = weighted_length(test_len, sum(function1))
    ref_weighted = weighted_length(ref_len, sum(function2))
    test_matches = sum(
        w * ((1.0 - DELTA) if f else DELTA) for w, f in zip(best1, function1, strict=True)
    )
    ref_matches = sum(
        w * ((1.0 - DELTA) if f else DELTA) for w, f in zip(best2, function2, strict=True)
    )
    if not test_weighted or not ref_weighted or not test_matches or not ref_matches:
        return 0.0
    precision, recall = test_matches / test_weighted, ref_matches / ref_weighted
    f_mean = precision * recall / (ALPHA * precision + (1.0 - ALPHA) * recall)
    coverable1 = sum(1 for w in best1 if w)
    coverable2 = sum(1 for w in best2 if w)
    if coverable1 == test_len and coverable2 == ref_len:
        return f_mean  # a perfect alignment (one chunk, no penalty) is not ruled out
    # At least one chunk over at most this many matched words: the least fragmentation.
    fewest = 1.0 / ((coverable1 + coverable2) / 2.0)
    return f_mean * (1.0 - GAMMA * fewest**BETA)


def answer_score_line(line: str) -> list[float]:
    """The jar's reading of a ``SCORE`` line (``String.split`` drops trailing empty fields;
    fields are trimmed; the last one is the hypothesis)."""
    fields = _FIELD.split(line)
    while fields and fields[-1] == "":
        fields.pop()
    if len(fields) < 3:
        raise ValueError("Error: specify hypothesis and at least one reference")
    references = [java_trim(field) for field in fields[1:-1]]
    return segment_statistics(java_trim(fields[-1]), references)


def start_scoring(lines: Sequence[str]) -> Callable[[], list[list[float]]]:
    """Start computing the statistics of many ``SCORE`` lines (in the scoring processes when
    there are many, ``scorer.parallel``); the returned function gives them."""
    return parallel.start(_score_chunk, lines)


def start_scoring_segments(
    segments: Sequence[tuple[str, Sequence[str]]],
    tokenise: Callable[[str], str] | None = None,
) -> Callable[[], list[list[float]]]:
    """Start computing the statistics of (hypothesis, references) pairs as the jar's
    plain-text mode reads them from files (``-r N``: lines taken as they are, not trimmed);
    ``tokenise``: the hypotheses are still to go through it, where they are scored."""
    if tokenise is None:
        return parallel.start(_score_segments, segments)
    return parallel.start(
        _score_tokenised_segments, [(tokenise, hyp, refs) for hyp, refs in segments]
    )


def warm_up(line: str) -> None:
    """Load the lexicon here and in the scoring processes (started now), so that the first
    submission after start-up finds everything ready."""
    answer_score_line(line)
    parallel.warm_up(_score_chunk, line)


def _score_chunk(lines: list[str]) -> list[list[float]]:
    _restore_references(lines)
    return [answer_score_line(line) for line in lines]


def _restore_references(lines: Sequence[str]) -> None:
    """Prepare the references of these ``SCORE`` lines (words, stems, synonyms, paraphrase
    paths), kept between processes: a cold ``nlg-score`` on a test set seen before reads them
    (the scoring processes get the same share of the items every time)."""
    _restore(
        dict.fromkeys(java_trim(field) for line in lines for field in _FIELD.split(line)[1:-1])
    )


def _restore(references: dict[str, None]) -> None:
    """``references`` prepared: found in this process, read from the cache folder, or
    prepared now and kept there."""
    if all(text in _PREPARED for text in references):
        return  # this process has them (a worker's later submissions)
    digest = hashlib.sha256("\n".join(references).encode()).hexdigest()
    lexicon_file = lexicon().path.name  # named for the jar and paraphrase table it holds
    kept(
        "meteor",
        f"{digest}|{lexicon_file}",
        lambda: _prepare_references(list(references)),
        lambda prepared: prepared,
        _remember_references,
    )


PreparedReference = tuple[list[str], tuple[Any, ...]]


def _prepare_references(references: list[str]) -> dict[str, PreparedReference]:
    current = aligner()
    prepared = {}
    for text in references:
        words = prepare(text, remember=True)
        sentence = current.reference(words)
        prepared[text] = (words, sentence.fields())
    return prepared


def _remember_references(prepared: dict[str, PreparedReference]) -> None:
    current = aligner()
    for text, (words, fields) in prepared.items():
        remembered(text, words)
        current.remember_reference(Sentence(*fields))


def _score_segments(segments: list[tuple[str, Sequence[str]]]) -> list[list[float]]:
    """The statistics of (hypothesis, references) pairs, the references' preparation kept
    between processes as for ``SCORE`` lines (a cold ``nlg-score --profile webnlg2017`` spent
    a third of METEOR's time preparing them)."""
    _restore(dict.fromkeys(ref for _, references in segments for ref in references))
    return [segment_statistics(hypothesis, references) for hypothesis, references in segments]


def _score_tokenised_segments(
    segments: list[tuple[Callable[[str], str], str, Sequence[str]]],
) -> list[list[float]]:
    """``_score_segments`` of (tokeniser, hypothesis, references): each hypothesis tokenised
    here first (a scoring process, on its share)."""
    return _score_segments([(tokenise(hyp), refs) for tokenise, hyp, refs in segments])
