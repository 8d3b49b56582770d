"""METEOR 1.5's aligner: candidate matches from the exact, stem, synonym and paraphrase
modules, then the jar's beam search over them (``Aligner.resolve``), kept step for step.

Words are compared as the jar compares them: by Java's ``String.hashCode`` (so two words with
the same hash match exactly, as in the jar). The search keeps the jar's quirks: a stem or synonym
match of one word counts ``int(1 * 0.5) = 0`` towards the beam's ordering, and the distance of a
new branch is added to its parent, not to the branch. What a sentence contributes on its own
(hashes, stems, synonym sets, paraphrase paths) is computed once per sentence and remembered, as a
hypothesis is aligned with every reference and a reference with every system's output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter
from types import ModuleType
from typing import Any, TypeVar

from scorer.java.lowercase import java_lower
from scorer.meteor.resources import Lexicon, Stemmer, Targets

COMPILED: ModuleType | None
"""``_search.c`` built (the search, the candidates, the score bound), or None: the same steps
run in Python."""
try:
    from scorer.meteor import _search as COMPILED
except ImportError:  # not built (no C compiler at install)
    COMPILED = None

EXACT, STEM, SYNONYM, PARAPHRASE = range(4)
SEARCH_WEIGHTS = (1.0, 0.5, 0.5, 0.5)
"""The weights MeteorScorer gives the aligner's beam ordering (not the scoring weights)."""
BEAM_SIZE = 40
_T = TypeVar("_T")
SENTENCE_MEMO = 20_000
WORD_MEMO = 200_000

_DETACHMENTS: tuple[tuple[str, str], ...] = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)
"""SynonymDictionary.morph's suffixes and replacements, in its order."""


def java_hash(word: str) -> int:
    """``String.hashCode``: 31-based over UTF-16 code units, as a signed 32-bit int."""
    value = 0
    for unit in _utf16(word):
        value = (31 * value + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _utf16(word: str) -> Sequence[int]:
    if word.isascii():
        return word.encode("ascii")
    units: list[int] = []
    for character in word:
        code = ord(character)
        if code < 0x10000:
            units.append(code)
        else:
            code -= 0x10000
            units += [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]
    return units


Raw = tuple[int, int, int, int, int]
"""A candidate as found, and a match as chosen: reference start and length (line 2),
hypothesis start and length (line 1), module. Plain tuples: an alignment is read once, and a
job makes tens of thousands of them."""
START, LENGTH, MATCH_START, MATCH_LENGTH, MODULE = range(5)
Option = tuple[int, int, int, int, int, int, int, int, int, int]
"""A candidate match as the search reads it (``_option``)."""
Chain = tuple[Option, "Chain"] | None
"""The matches a partial alignment chose, newest first."""
Adder = Callable[[int, int, int, int, int], None]
"""Records a candidate: reference start and length, hypothesis start and length, module."""


class Sentence:
    """What one side brings to every alignment it is in. The indexes (word, hash, stem hash
    and synset -> positions) are built when first asked for: only the hypothesis side of the
    Python candidates uses them; the compiled candidates read both sides ``packed``."""

    def __init__(
        self,
        words: tuple[str, ...],
        keys: list[int],
        function: list[bool],
        stem_keys: list[int],
        synonyms: list[frozenset[int]],
        paths: list[tuple[int, int, Targets]],
    ) -> None:
        self.words = words
        self.keys = keys
        self.function = function
        self.stem_keys = stem_keys
        self.synonyms = synonyms
        self.paths = paths
        """The paraphrase paths from each position: (position, source length, paraphrases by
        their first word); the jar meets them by position, length, then table order."""

    def fields(self) -> tuple[Any, ...]:
        """What ``Sentence(*fields)`` is built from (plain data, to be kept on disk)."""
        return (self.words, self.keys, self.function, self.stem_keys, self.synonyms, self.paths)

    @cached_property
    def packed(self) -> tuple[bytes, list[tuple[str, ...]]]:
        """The sentence as the compiled candidates read it (``_search.pack``): its hashes,
        stem hashes, sorted synsets and paraphrases as flat integers, kept with the sentence
        (a reference meets every system's output)."""
        assert COMPILED is not None
        return COMPILED.pack(self.words, self.keys, self.stem_keys, self.synonyms, self.paths)

    @cached_property
    def positions(self) -> dict[str, list[int]]:
        return _index(self.words)

    @cached_property
    def key_positions(self) -> dict[int, list[int]]:
        return _index(self.keys)

    @cached_property
    def stem_positions(self) -> dict[int, list[int]]:
        return _index(self.stem_keys)

    @cached_property
    def synset_positions(self) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        for at, sets in enumerate(self.synonyms):
            for synset in sets:
                found.setdefault(synset, []).append(at)
        return found


@dataclass(slots=True)
class Candidates:
    """The candidate matches of a hypothesis and a reference, before the search."""

    one: Sentence
    two: Sentence
    raw: list[list[Raw]]
    """Per reference word, the candidates that start there, in the jar's order."""

    def best_weights(self, module_weights: Sequence[float]) -> tuple[list[float], list[float]]:
        """Per word of each side, the largest module weight of a candidate covering it (0:
        none): no alignment can count a word for more."""
        best1 = [0.0] * len(self.one.words)
        best2 = [0.0] * len(self.two.words)
        for raws in self.raw:
            for start, length, match_start, match_length, module in raws:
                weight = module_weights[module]
                for j in range(match_start, match_start + match_length):
                    if weight > best1[j]:
                        best1[j] = weight
                for i in range(start, start + length):
                    if weight > best2[i]:
                        best2[i] = weight
        return best1, best2


@dataclass(slots=True)
class Alignment:
    """What MeteorScorer reads of an alignment."""

    words1: tuple[str, ...]
    words2: tuple[str, ...]
    function1: int
    function2: int
    content1: list[int]
    content2: list[int]
    functional1: list[int]
    functional2: list[int]
    chunks: int


# A partial alignment in the beam (``PartialAlignment``) is a list: its rank, where the search
# stands, the words it uses and the matches it chose. The rank folds the three fields the jar's
# comparator sorts on into one integer, compared as the jar compares (most weighted matches,
# then fewest chunks, then least distance), and every change to them is an addition. The words
# used are one bit mask: the reference's in the low bits, the hypothesis' above them. Python's
# sort is as stable as Collections.sort. Matches fixed before the search (a word's only
# candidate, covering words nothing else covers) are shared by every partial.
RANK, IDX, LAST_END, USED, CHOSEN = range(5)
_MATCHED = 1 << 64
"""A weighted matched word in the rank: outweighs any number of chunks and any distance."""
_CHUNK = 1 << 32
"""A chunk in the rank: outweighs any distance (distances stay far below 2**32)."""
_ORDER = itemgetter(RANK)


class Aligner:
    def __init__(self, lexicon: Lexicon, stemmer: Stemmer, function_words: frozenset[str]) -> None:
        self.lexicon = lexicon
        self.stemmer = stemmer
        self.function_words = function_words
        self._words: dict[str, tuple[int, bool, int, frozenset[int]]] = {}
        self._references: dict[tuple[str, ...], Sentence] = {}
        self._hypothesis: Sentence | None = None

    def reference(self, words: Sequence[str]) -> Sentence:
        """A reference side, remembered: a test set's references come back for every system."""
        key = tuple(words)
        found = self._references.get(key)
        if found is None:
            if len(self._references) >= SENTENCE_MEMO:
                self._references.clear()
            found = self._references[key] = self._prepare(key)
        return found

    def remember_reference(self, sentence: Sentence) -> None:
        """A reference side prepared earlier (kept on disk by another process)."""
        if len(self._references) >= SENTENCE_MEMO:
            self._references.clear()
        self._references[sentence.words] = sentence

    def hypothesis(self, words: Sequence[str]) -> Sentence:
        """A hypothesis side, kept while it meets its references (the segment's), then let go:
        outputs rarely come back, and keeping them all would only grow the process."""
        key = tuple(words)
        found = self._hypothesis
        if found is None or found.words != key:
            found = self._hypothesis = self._prepare(key)
        return found

    def _prepare(self, words: tuple[str, ...]) -> Sentence:
        known = [self._word(word) for word in words]
        return Sentence(
            words,
            [key for key, _function, _stem, _synonyms in known],
            [function for _key, function, _stem, _synonyms in known],
            [stem for _key, _function, stem, _synonyms in known],
            [synonyms for _key, _function, _stem, synonyms in known],
            self._paths(words),
        )

    def _word(self, word: str) -> tuple[int, bool, int, frozenset[int]]:
        """What a sentence needs of one word (its hash, whether it is a function word, its
        stem's hash, its synonym sets), kept: outputs reuse a small vocabulary."""
        found = self._words.get(word)
        if found is None:
            if len(self._words) >= WORD_MEMO:
                self._words.clear()
            found = self._words[word] = (
                java_hash(word),
                java_lower(word) in self.function_words,
                java_hash(self.stemmer.stem(word)),
                self._synonym_sets(word),
            )
        return found

    def candidates(self, words1: Sequence[str], words2: Sequence[str]) -> Candidates:
        """Every module's candidate matches of the two sides, in the jar's order (compiled
        where the install could build it, else in Python: the same candidates)."""
        one, two = self.hypothesis(words1), self.reference(words2)
        if COMPILED is None:
            return Candidates(one, two, candidates(one, two))
        raw = COMPILED.candidates(one.words, one.packed, two.words, two.packed)
        return Candidates(one, two, raw)

    def resolve(self, found: Candidates) -> Alignment:
        """The jar's choice among the candidates: fixed matches, then the beam search
        (compiled where the install could build it, else in Python: the same choice)."""
        if COMPILED is None:
            matches = search(found)
        else:
            matches = COMPILED.resolve(found.raw, len(found.one.words), len(found.two.words))
        return _alignment(found.one, found.two, matches)

    def _synonym_sets(self, word: str) -> frozenset[int]:
        """``getSynSets(word) + getStemSynSets(word)`` of SynonymDictionary (kept by ``_word``)."""
        lexicon = self.lexicon
        sets = set(lexicon.synsets(word) or ())
        bases = lexicon.bases(word)
        if bases:
            for base in bases:
                sets |= lexicon.synsets(base) or set()
        else:
            sets |= lexicon.synsets(self._morph(word)) or set()
        return frozenset(sets)

    def _morph(self, word: str) -> str:
        """WordNet's detachment rules as SynonymDictionary.morph has them (``-ful`` is kept
        aside and put back, ``-ss`` and words of two letters are left alone)."""
        kept = "ful" if word.endswith("ful") else ""
        if word.endswith("ss") or len(word) <= 2:
            return word
        for suffix, replacement in _DETACHMENTS:
            if word.endswith(suffix):
                candidate = word[: len(word) - len(suffix)] + replacement
                if self.lexicon.synsets(candidate) is not None:
                    return candidate + kept
        return ""

    def _paths(self, words: Sequence[str]) -> list[tuple[int, int, Targets]]:
        """``ParaphraseTransducer.getPaths`` from each position in turn: the source phrases
        that start there, shortest first, with their paraphrases (a phrase grows by a word
        until no source phrase starts with it)."""
        found: list[tuple[int, int, Targets]] = []
        paraphrases = self.lexicon.paraphrases
        count = len(words)
        for start in range(count):
            phrase, end = words[start], start + 1
            while True:
                targets = paraphrases(phrase)
                if targets is None:
                    break
                if targets:
                    found.append((start, end - start, targets))
                if end == count:
                    break
                phrase, end = f"{phrase} {words[end]}", end + 1
        return found


def search(found: Candidates) -> list[Raw | None]:
    """``Aligner.resolve`` in Python, per reference word the match that starts there: the
    matches fixed before the search (a word's only candidate, covering words nothing else
    covers), then the beam search. ``_search.c`` is the same steps compiled."""
    shift = len(found.two.words)
    coverage1 = [0] * len(found.one.words)
    coverage2 = [0] * shift
    candidates: list[list[Option]] = []
    for raws in found.raw:
        options = []
        for start, length, match_start, match_length, module in raws:
            options.append(_option(start, length, match_start, match_length, module, shift))
            for j in range(match_start, match_start + match_length):
                coverage1[j] += 1
            for i in range(start, start + length):
                coverage2[i] += 1
        candidates.append(options)
    fixed: list[Option | None] = [None] * len(candidates)
    used = 0
    for i, options in enumerate(candidates):
        if len(options) != 1:
            continue
        option = options[0]
        start1, end1, end2 = option[1], option[2], option[3]
        if all(coverage2[k] == 1 for k in range(i, end2)) and all(
            coverage1[k] == 1 for k in range(start1, end1)
        ):
            fixed[i] = option
            used |= option[5]
    chosen = _resolve(candidates, fixed, used)
    matches = [None if option is None else _match(option) for option in fixed]
    while chosen is not None:
        option, chosen = chosen
        matches[option[6]] = _match(option)
    return matches


def candidates(one: Sentence, two: Sentence) -> list[list[Raw]]:
    """``Aligner.candidates`` in Python, per reference word the candidates that start there:
    exact matches, then (unless both sides have the same hashes) stem, synonym and paraphrase
    matches. ``_search.c``'s ``candidates`` is the same steps compiled."""
    found: list[list[Raw]] = [[] for _ in two.words]

    def add(start: int, length: int, match_start: int, match_length: int, module: int) -> None:
        found[start].append((start, length, match_start, match_length, module))

    keys1, keys2 = one.keys, two.keys
    positions = one.key_positions.get
    for i, key2 in enumerate(keys2):
        for j in positions(key2, ()):
            found[i].append((i, 1, j, 1, EXACT))
    if not (len(keys1) == len(keys2) and keys1 == keys2):
        _stem_matches(one, two, add)
        _synonym_matches(one, two, add)
        _paraphrase_matches(one, two, add)
    return found


def _index(values: Sequence[_T]) -> dict[_T, list[int]]:
    found: dict[_T, list[int]] = {}
    for at, value in enumerate(values):
        found.setdefault(value, []).append(at)
    return found


def _stem_matches(one: Sentence, two: Sentence, add: Adder) -> None:
    keys1, keys2, found = one.keys, two.keys, one.stem_positions.get
    for i, stem2 in enumerate(two.stem_keys):
        for j in found(stem2, ()):
            if keys1[j] != keys2[i]:
                add(i, 1, j, 1, STEM)


def _synonym_matches(one: Sentence, two: Sentence, add: Adder) -> None:
    keys1, keys2, index = one.keys, two.keys, one.synset_positions
    shared = index.keys()
    for i, set2 in enumerate(two.synonyms):
        if not set2:
            continue
        common = shared & set2
        if not common:
            continue
        places = sorted({j for synset in common for j in index[synset]})
        for j in places:
            if keys1[j] != keys2[i]:
                add(i, 1, j, 1, SYNONYM)


def _paraphrase_matches(one: Sentence, two: Sentence, add: Adder) -> None:
    """Paraphrases of reference phrases found in the hypothesis, then the other way round
    (the jar's two loops, in its order: by start, then path, then where it is found)."""
    for k, length, _, at, size in _path_hits(two, one):
        add(k, length, at, size, PARAPHRASE)
    for k, length, _, at, size in _path_hits(one, two):
        add(at, size, k, length, PARAPHRASE)


def _path_hits(source: Sentence, other: Sentence) -> list[tuple[int, int, int, int, int]]:
    """(start in source, source length, place in the table, where found in other, paraphrase
    length) for every paraphrase path of ``source`` found in ``other``, in the jar's order."""
    hits: list[tuple[int, int, int, int, int]] = []
    words = other.words
    positions = other.positions
    present = positions.keys()
    for k, length, targets in source.paths:
        for first in targets.keys() & present if len(targets) > 1 else targets.keys():
            if first is None:
                hits.extend(
                    (k, length, order, at, 0)
                    for order, _ in targets[first]
                    for at in range(len(words))
                )
                continue
            starts = positions.get(first)
            if not starts:
                continue
            for order, target in targets[first]:
                n = len(target)
                for at in starts:
                    if n == 1 or words[at : at + n] == target:
                        hits.append((k, length, order, at, n))
    hits.sort()
    return hits


def _mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def _resolve(candidates: list[list[Option]], fixed: list[Option | None], used: int) -> Chain:
    """``Aligner.resolve``: walk the reference words, branching on every candidate that fits,
    keeping the best ``BEAM_SIZE`` partials; the chosen matches of the best one."""
    beam: list[list] = [[0, 0, -1, used, None]]
    order = _ORDER
    for i, matches in enumerate(candidates):
        if len(beam) > 1:
            beam.sort(key=order)
        previous = beam[:BEAM_SIZE]
        beam = []
        append = beam.append
        here = fixed[i]
        if here is not None:
            gain, start1, end1, end2, skew = here[:5]
            for partial in previous:
                if partial[IDX] <= i:  # else inside a longer match taken before
                    last_end = partial[LAST_END]
                    partial[RANK] += (
                        gain + skew + (_CHUNK if last_end != -1 and start1 != last_end else 0)
                    )
                    partial[IDX] = end2
                    partial[LAST_END] = end1
                append(partial)
            continue
        bit = 1 << i
        # Once the beam holds twice its size, it is cut back to its best BEAM_SIZE: what falls
        # out then would fall out at the end too (later partials only add rivals; equal ones
        # rank after it). A branch no better than the worst kept one is then never built.
        worst = None
        for partial in previous:
            _, idx, last_end, p_used, chain = partial
            if p_used & bit:
                if i >= idx and not _take(partial, fixed[idx]):
                    continue  # the jar drops it (cannot happen: fixed[idx] is a match)
                append(partial)
                continue
            for option in matches:
                gain, start1, end1, end2, skew, mask, _, _, _, _ = option
                if p_used & mask:
                    continue
                current = partial[RANK]
                partial[RANK] = current + skew  # the jar adds the distance to the parent
                branch = current + gain + (_CHUNK if last_end != -1 and start1 != last_end else 0)
                if worst is not None and branch >= worst:
                    continue
                append([branch, end2, end1, p_used | mask, (option, chain)])
                if len(beam) >= 2 * BEAM_SIZE:
                    beam.sort(key=order)
                    del beam[BEAM_SIZE:]
                    worst = beam[-1][RANK]
            if last_end != -1:
                partial[RANK] += _CHUNK
                partial[LAST_END] = -1
            partial[IDX] = idx + 1
            append(partial)
        if not beam:
            beam.append(previous[0])
    beam.sort(key=order)
    final = beam[:BEAM_SIZE]
    for partial in final:
        if partial[LAST_END] != -1:
            partial[RANK] += _CHUNK
    final.sort(key=order)
    return final[0][CHOSEN]


def _take(partial: list, option: Option | None) -> bool:
    """The partial reaches a match fixed before the search and counts it in (False: no match
    there)."""
    if option is None:
        return False
    gain, start1, end1, end2, skew = option[:5]
    last_end = partial[LAST_END]
    partial[RANK] += gain + skew + (_CHUNK if last_end != -1 and start1 != last_end else 0)
    partial[IDX] = end2
    partial[LAST_END] = end1
    return True


def _option(
    start: int, length: int, match_start: int, match_length: int, module: int, shift: int
) -> Option:
    """A candidate as the search reads it: what it adds to a rank (its weighted size), where
    it starts and ends in the hypothesis, where it ends in the reference, its skew (distance),
    the words it uses (reference bits, then hypothesis bits from ``shift``); then the match
    itself (start, length, module, hypothesis length)."""
    weight = SEARCH_WEIGHTS[module]
    return (
        -(int(match_length * weight) + int(length * weight)) * _MATCHED,
        match_start,
        match_start + match_length,
        start + length,
        abs(start - match_start),
        _mask(start, length) | _mask(match_start, match_length) << shift,
        start,
        length,
        module,
        match_length,
    )


def _match(option: Option) -> Raw:
    return (option[6], option[7], option[1], option[9], option[8])


def _alignment(one: Sentence, two: Sentence, matches: Sequence[Raw | None]) -> Alignment:
    content1, content2, functional1, functional2 = ([0] * 4 for _ in range(4))
    function1, function2 = one.function, two.function
    for match in matches:
        if match is None:
            continue
        start, length, match_start, match_length, module = match
        for j in range(match_start, match_start + match_length):
            (functional1 if function1[j] else content1)[module] += 1
        for i in range(start, start + length):
            (functional2 if function2[i] else content2)[module] += 1
    return Alignment(
        one.words,
        two.words,
        sum(function1),
        sum(function2),
        content1,
        content2,
        functional1,
        functional2,
        _count_chunks(matches),
    )


def _count_chunks(matches: Sequence[Raw | None]) -> int:
    """``Aligner.getCountAndChunks``: runs of matches contiguous on both sides."""
    chunks, i, last_end = 0, 0, -1
    while i < len(matches):
        match = matches[i]
        if match is None:
            if last_end != -1:
                chunks += 1
                last_end = -1
            i += 1
        else:
            if last_end != -1 and match[MATCH_START] != last_end:
                chunks += 1
            i = match[START] + match[LENGTH]
            last_end = match[MATCH_START] + match[MATCH_LENGTH]
    if last_end != -1:
        chunks += 1
    return chunks
