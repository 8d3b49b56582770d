"""The number of edits of TER as sacreBLEU's tercom port (``sacrebleu.metrics.lib_ter``, 2.6)
counts them, reproduced edit for edit, at a fraction of its cost.

The search is the port's: greedy shifts (each time the shift that lowers the edit distance
most, ties to the longest run, then the earliest start, then the earliest target; runs of at
most 10 words starting at most 50 words away; candidates filtered by the current alignment;
after 1,000 candidates per reference the search stops and its last round is discarded), then
shifts + edit distance. Its edit distance is a beam: row i of the word-level matrix (i words
of the output) keeps only the cells around ``floor(i * |ref| / |out|)``, 25 to each side, the
last row to the end; the other cells are infinite, which changes the distance when the
lengths differ (a truncated output). Two things make it fast, neither changes a number:

* the beam is computed bit-parallel (Myers 1999, Hyyrö 2003: one row is a pair of integers
  holding its +1/-1 steps), the band's edges handled by feeding the step values that can
  never be the strict best, and the alignment read back from the rows with the port's tie-breaking
  (substitution or match, then deletion, then insertion);
* a candidate's distance is the plain Levenshtein distance (rapidfuzz) when that is below the
  cost of any path through a cell outside the beam (so some best path stays inside and the
  beam changes nothing); otherwise it is computed with the beam, from the row where the
  candidate starts to differ from the current output (the port's prefix cache, in effect).

Words are mapped to one character each, so that shifting is string slicing and equality is
exact (no hashing of words).

Where ``_tercom.c`` is built (``setup.py``, as METEOR's search), the search runs compiled: the
port's steps as they are, without the two tricks above (a cell is a few instructions in C), ~50
times faster again; it was three quarters of a warm WebNLG 2017 job. This module's search stays
the reference and the fallback (tests/scorer/metrics/test_compiled_tercom.py holds the two
equal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import NamedTuple

from rapidfuzz.distance import Levenshtein

COMPILED: ModuleType | None
"""``_tercom.c`` built, or None: the search runs in Python (``_Search``)."""
try:
    from scorer.metrics import _tercom as COMPILED
except ImportError:  # not built (no C compiler at install)
    COMPILED = None

BEAM_WIDTH = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000
"""The port's limits (``_BEAM_WIDTH``, ``_MAX_SHIFT_SIZE``, ``_MAX_SHIFT_DIST``,
``_MAX_SHIFT_CANDIDATES``)."""


class Row(NamedTuple):
    """Row i of the beam: its first column ``lo``, the distance there, and its steps
    D[i][j] - D[i][j-1] for the columns lo < j < hi as bits j-1 of ``plus`` (+1) and
    ``minus`` (-1)."""

    lo: int
    first: int
    plus: int
    minus: int


def translation_edit_rate(words_hyp: Sequence[str], words_ref: Sequence[str]) -> tuple[int, int]:
    """(number of edits, reference length) of the output ``words_hyp`` against ``words_ref``,
    as ``lib_ter.translation_edit_rate``."""
    if not words_ref:
        return len(words_hyp), 0
    hyp, ref = _as_characters(words_hyp, words_ref)
    if COMPILED is not None:
        return COMPILED.edits(hyp, ref), len(ref)
    return _Search(hyp, ref).edits(), len(ref)


def _as_characters(words_hyp: Sequence[str], words_ref: Sequence[str]) -> tuple[str, str]:
    codes: dict[str, str] = {}
    for word in (*words_ref, *words_hyp):
        if word not in codes:
            number = len(codes)
            codes[word] = chr(number if number < 0xD800 else number + 0x800)  # no surrogates
    return "".join(codes[w] for w in words_hyp), "".join(codes[w] for w in words_ref)


@lru_cache(maxsize=4096)
def _beam(n: int, m: int) -> tuple[tuple[tuple[int, int], ...], float]:
    """Each row's columns [lo, hi) for an output of n words and a reference of m (row 0
    first, whole), computed as the port does (same float arithmetic); and the least cost of
    a path through a cell outside them."""
    ratio = m / n if n else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    windows = [(0, m + 1)]
    outside = math.inf
    for i in range(1, n + 1):
        diagonal = math.floor(i * ratio)
        lo = max(0, diagonal - width)
        hi = m + 1 if i == n else min(m + 1, diagonal + width)
        windows.append((lo, hi))
        for first, last in ((0, lo - 1), (hi, m)):
            if first <= last:
                outside = min(outside, _least_path_cost(i, first, last, n, m))
    return tuple(windows), outside


def _least_path_cost(i: int, first: int, last: int, n: int, m: int) -> int:
    """The least of |j - i| + |(n - i) - (m - j)| for first <= j <= last: no path from (0, 0)
    to (n, m) through cell (i, j) costs less."""
    low, high = sorted((i, i + m - n))
    j = last if last < low else first if first > high else low
    return abs(j - i) + abs(j - i - m + n)


class _Search:
    """The greedy shift search of one output against one reference (characters)."""

    def __init__(self, hyp: str, ref: str) -> None:
        self.ref = ref
        self.n, self.m = len(hyp), len(ref)
        self.windows, self.outside = _beam(self.n, self.m)
        self.full = (1 << self.m) - 1
        self.equal: dict[str, int] = {}
        for j, word in enumerate(ref):
            self.equal[word] = self.equal.get(word, 0) | (1 << j)
        self.positions: dict[str, list[int]] = {}
        for j, word in enumerate(ref):
            self.positions.setdefault(word, []).append(j)
        self.hyp = hyp
        self.rows = self._rows(hyp, [Row(0, 0, self.full, 0)])

    def edits(self) -> int:
        shifts = 0
        checked = 0
        while True:
            distance = self._distance(self.rows)
            found = self._best_shift(distance, checked)
            if found is None:
                break
            delta, shifted, start, checked = found
            if checked >= MAX_SHIFT_CANDIDATES or delta <= 0:
                break
            shifts += 1
            self.hyp = shifted
            self.rows = self._rows(shifted[start:], self.rows[: start + 1])
        return shifts + distance

    def _rows(self, words: str, rows: list[Row]) -> list[Row]:
        """``rows`` (the beam's first rows) continued with a row per word of ``words``.

        One step of Hyyrö's edit-distance recurrence on the columns from lo - 1 (shifted down
        to bit 0), given values that can never be the strict best where the port has an
        infinite cell: left of lo, the step's own +1 boundary (diagonal + 2); above lo when
        the row before starts at lo, a -1 step (the port's cell has only the way from above);
        past the row before's beam, its steps are 0 (its last value repeats, so the way from
        above costs the diagonal + 1); further right, only insertions (forced +1 steps).
        """
        windows, equal, full = self.windows, self.equal, self.full
        previous = rows[-1]
        i = len(rows)
        rows = list(rows)
        for word in words:
            lo, hi = windows[i]
            before_hi = windows[i - 1][1]
            plus, minus = previous.plus, previous.minus
            if lo == 0:
                shift, corner = 0, previous.first
            elif lo > previous.lo:  # column lo - 1 of the row before is inside its beam
                shift = lo - 1
                below = (1 << shift) - 1
                corner = previous.first + (plus & below).bit_count() - (minus & below).bit_count()
            else:  # it is not: a -1 step there makes it never the best way to cell lo
                shift = lo - 1
                corner = previous.first + 1
                minus |= 1 << shift
            mask = full >> shift
            vp, vn, eq = plus >> shift, minus >> shift, equal.get(word, 0) >> shift
            d0 = ((((eq & vp) + vp) ^ vp) | eq | vn) & mask
            hp = (vn | ~(d0 | vp)) & mask
            hn = d0 & vp
            x = ((hp << 1) | 1) & mask
            vp = ((hn << 1) | ~(d0 | x)) & mask
            vn = d0 & x
            first = corner + 1 if lo == 0 else corner + 1 + (vp & 1) - (vn & 1)
            plus, minus = vp << shift, vn << shift
            if before_hi < hi - 1:  # cells past the row before's beam: insertions only
                extra = ((1 << (hi - 1)) - 1) ^ ((1 << before_hi) - 1)
                plus |= extra
                minus &= ~extra
            inside = ((1 << (hi - 1)) - 1) ^ ((1 << lo) - 1)
            previous = Row(lo, first, plus & inside, minus & inside)
            rows.append(previous)
            i += 1
        return rows

    @staticmethod
    def _value(row: Row, j: int) -> int:
        below = (1 << j) - 1
        return row.first + (row.plus & below).bit_count() - (row.minus & below).bit_count()

    def _distance(self, rows: list[Row]) -> int:
        return self._value(rows[-1], self.m)

    def _alignment(self) -> tuple[list[int], list[int], list[int]]:
        """The port's alignment (reference position -> output position), and its error flags
        of reference and output words, from the beam's best path with its tie-breaking."""
        rows, windows, hyp, ref, value = self.rows, self.windows, self.hyp, self.ref, self._value
        ops: list[str] = []
        i, j = self.n, self.m
        while i > 0 or j > 0:
            if i == 0:
                ops.append("d")  # flipped: the port rewrites the reference into the output
                j -= 1
                continue
            if j == 0:
                ops.append("i")
                i -= 1
                continue
            here = value(rows[i], j)
            lo, hi = windows[i - 1]
            if lo <= j - 1 < hi and value(rows[i - 1], j - 1) + (hyp[i - 1] != ref[j - 1]) == here:
                ops.append(" " if hyp[i - 1] == ref[j - 1] else "s")
                i -= 1
                j -= 1
            elif lo <= j < hi and value(rows[i - 1], j) + 1 == here:
                ops.append("i")
                i -= 1
            else:
                ops.append("d")
                j -= 1
        align = [0] * self.m
        ref_err: list[int] = []
        hyp_err: list[int] = []
        pos_hyp = pos_ref = -1
        for op in reversed(ops):
            if op == "i":
                pos_hyp += 1
                hyp_err.append(1)
                continue
            pos_ref += 1
            if op != "d":
                pos_hyp += 1
                hyp_err.append(op == "s")
            align[pos_ref] = pos_hyp
            ref_err.append(op != " ")
        return align, ref_err, hyp_err

    def _best_shift(self, distance: int, checked: int) -> tuple[int, str, int, int] | None:
        """The port's ``_shift``: (drop in distance, shifted output, first changed position,
        candidates checked so far), or None when no candidate passes the filters; the caller
        discards the result once ``MAX_SHIFT_CANDIDATES`` candidates have been checked."""
        candidates, checked = self._candidates(checked)
        if checked >= MAX_SHIFT_CANDIDATES:
            return 0, self.hyp, 0, checked
        best: tuple[int, int, int, int] | None = None
        known: dict[str, int] = {}
        for start, length, target in candidates:
            shifted = _perform_shift(self.hyp, start, length, target)
            if shifted not in known:
                known[shifted] = self._candidate_distance(shifted, min(start, target))
            key = (distance - known[shifted], length, -start, -target)
            if best is None or key > best:
                best = key
        if best is None:
            return None
        score, length, start, target = best[0], best[1], -best[2], -best[3]
        return score, _perform_shift(self.hyp, start, length, target), min(start, target), checked

    def _candidates(self, checked: int) -> tuple[dict[tuple[int, int, int], None], int]:
        """The distinct shifts (start, length, target) ``_shift`` would try, and the count of
        candidates it would check (repeats included), in its order."""
        align, ref_err, hyp_err = self._alignment()
        hyp, ref, positions = self.hyp, self.ref, self.positions
        n, m = self.n, self.m
        hyp_sum = [0]
        for flag in hyp_err:
            hyp_sum.append(hyp_sum[-1] + flag)
        ref_sum = [0]
        for flag in ref_err:
            ref_sum.append(ref_sum[-1] + flag)
        found: dict[tuple[int, int, int], None] = {}
        for start_h in range(n):
            for start_r in positions.get(hyp[start_h], ()):
                if abs(start_r - start_h) > MAX_SHIFT_DIST:
                    continue
                length = 0
                while (
                    length < MAX_SHIFT_SIZE
                    and start_h + length < n
                    and start_r + length < m
                    and hyp[start_h + length] == ref[start_r + length]
                ):
                    length += 1
                    if hyp_sum[start_h + length] == hyp_sum[start_h]:
                        continue
                    if ref_sum[start_r + length] == ref_sum[start_r]:
                        continue
                    if start_h <= align[start_r] < start_h + length:
                        continue
                    previous = -1
                    for offset in range(-1, length):
                        target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if target == previous:
                            continue
                        previous = target
                        checked += 1
                        found[(start_h, length, target)] = None
        return found, checked

    def _candidate_distance(self, shifted: str, same: int) -> int:
        """The beam's distance of a shifted output whose first ``same`` words are the
        current output's."""
        if self.outside > abs(self.n - self.m):
            distance = Levenshtein.distance(shifted, self.ref)
            if distance < self.outside:
                return distance
        return self._distance(self._rows(shifted[same:], self.rows[: same + 1]))


def _perform_shift(words: str, start: int, length: int, target: int) -> str:
    """``lib_ter._perform_shift``: the run of ``length`` words at ``start`` moved before
    ``target``."""
    if target < start:
        return (
            words[:target]
            + words[start : start + length]
            + words[target:start]
            + words[start + length :]
        )
    if target > start + length:
        return (
            words[:start]
            + words[start + length : target]
            + words[start : start + length]
            + words[target:]
        )
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )
