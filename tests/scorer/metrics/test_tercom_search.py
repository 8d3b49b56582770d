"""TER's edit counting (``scorer.metrics.tercom_search``, compiled where ``_tercom.c`` is built:
test_compiled_tercom.py holds the Python search to it) against sacreBLEU's tercom port, its
oracle: for every (output, reference) pair the same number of edits and reference length, and
for every item of the ``TER`` metric the same statistics (best edits, average reference length:
the same floats), with each of its options.

Cases: hand-worked ones; the beam's edges (length ratios where the beam's rows stop
overlapping, very short outputs of long references and the reverse); random token sequences
over a small vocabulary (hypothesis: many ties between shifts); outputs generated from the
WebNLG 2017 dev and train references (tests/support/ter_cases.py: moved, duplicated, dropped
and swapped word runs, repeated common words, numbers, punctuation, non-ASCII, blanks, outputs
over 100 words), skipped without ``../shared``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
import sacrebleu.metrics.lib_ter as lib_ter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein
from sacrebleu.metrics import TER

from scorer.metrics import tercom_search
from scorer.metrics.ter_tercom import segment_rows
from scorer.metrics.tercom_search import translation_edit_rate
from tests.support.paths import shared_file
from tests.support.ter_cases import long_outputs, shift_outputs
from tests.support.webnlg_cases import PIECES, WEBNLG_2017, dev_entries, train_entries

TOKENISER = TER()  # tercom's defaults, as the webnlg2017 profile runs it


def words(text: str, ter: TER = TOKENISER) -> list[str]:
    return ter._preprocess_segment(text).split()


def differing_pairs(pairs: list[tuple[list[str], list[str]]]) -> list[tuple]:
    """The pairs where ours and sacreBLEU's (edits, reference length) differ."""
    differing = []
    for hyp, ref in pairs:
        ours, oracle = translation_edit_rate(hyp, ref), lib_ter.translation_edit_rate(hyp, ref)
        if ours != oracle:
            differing.append((ours, oracle, " ".join(hyp), " ".join(ref)))
    return differing


def entry_references(entries) -> list[list[str]]:
    return [[lex.text or "" for lex in entry.iter("lex")] for entry in entries]


def every_pair(outputs: list[str], references: list[list[str]]) -> list[tuple]:
    return [
        (words(out), words(ref))
        for out, refs in zip(outputs, references, strict=True)
        for ref in refs
    ]


def test_a_moved_run_costs_one_shift():
    assert translation_edit_rate(["c", "d", "a", "b"], ["a", "b", "c", "d"]) == (1, 4)


def test_empty_outputs_and_references():
    assert translation_edit_rate([], ["a", "b"]) == (2, 2)
    assert translation_edit_rate(["a", "b"], []) == (2, 0)
    assert translation_edit_rate([], []) == (0, 0)


def test_the_beam_counts_a_truncated_output_as_sacrebleu_does():
    """Half of a 60-word reference: 30 insertions by plain Levenshtein, but the beam keeps
    row i near column 2i, so the first words cannot stay matched; sacreBLEU counts 34."""
    reference = [f"w{k}" for k in range(60)]
    output = reference[:30]
    assert Levenshtein.distance(output, reference) == 30
    assert translation_edit_rate(output, reference) == (34, 60)
    assert translation_edit_rate(output, reference) == lib_ter.translation_edit_rate(
        output, reference
    )


def test_the_candidate_cap_stops_the_search_where_sacrebleu_stops(monkeypatch):
    """Here the 1,000th candidate comes before the best shifts: without the cap, 10 fewer
    edits, in both (the Python search's: the compiled one's cap is a constant of _tercom.c)."""
    output, reference = ("a b c " * 12).split(), ("c b a " * 12).split()
    assert translation_edit_rate(output, reference) == (23, 36)
    assert lib_ter.translation_edit_rate(output, reference) == (23, 36)
    monkeypatch.setattr(tercom_search, "COMPILED", None)
    assert translation_edit_rate(output, reference) == (23, 36)
    monkeypatch.setattr(tercom_search, "MAX_SHIFT_CANDIDATES", 10**9)
    monkeypatch.setattr(lib_ter, "_MAX_SHIFT_CANDIDATES", 10**9)
    assert translation_edit_rate(output, reference) == (13, 36)
    assert lib_ter.translation_edit_rate(output, reference) == (13, 36)


def test_runs_move_at_most_50_words():
    reference = [f"x{k}" for k in range(70)]
    moved_50 = [reference[50], *reference[:50], *reference[51:]]
    moved_51 = [reference[51], *reference[:51], *reference[52:]]
    assert translation_edit_rate(moved_50, reference) == (1, 70)  # one shift
    assert translation_edit_rate(moved_51, reference) == (2, 70)  # a deletion, an insertion
    assert not differing_pairs([(moved_50, reference), (moved_51, reference)])


ROTATED_OUTPUT = (
    "w0 w12 w33 w18 w13 w44 w6 w42 w13 w4 w18 w35 w47 w20 w15 w13 w46 w23 w30 w38 w42 w6 w31 "
    "w46 w26 w32 w32 w28 w49 w0 w29 w15 w29 w28 w8 w46 w42 w17 w31 w16 w4 w8 w49 w24 w36 w27 "
    "w35 w29 w12 w10 w43 w40 w49 w38 w31 w21 w17 w3"
)

ROTATED_REFERENCE = (
    "w46 w42 w17 w31 w16 w14 w10 w49 w24 w36 w13 w35 w29 w12 w10 w43 w40 w32 w38 w48 w21 w17 "
    "w3 w18 w39 w2 w33 w15 w43 w36 w0 w12 w33 w18 w13 w44 w6 w42 w36 w4 w18 w35 w47 w32 w41 "
    "w13 w46 w23 w7 w38 w42 w6 w31 w46 w17 w10 w32 w28 w49 w0 w29 w15 w29 w28 w8"
)


def test_the_beam_lengthens_candidates_of_an_output_as_long_as_its_reference():
    """A reference rotated and some words changed, as rotated_pairs makes them (58 and 65
    words): some candidates' best paths leave the beam although the lengths are close, so
    their plain Levenshtein distance is too low (taking it, the search would count 28 edits)."""
    output, reference = ROTATED_OUTPUT.split(), ROTATED_REFERENCE.split()
    assert translation_edit_rate(output, reference) == (51, 65)
    assert not differing_pairs([(output, reference)])


def rotated_pairs(count: int, seed: int) -> Iterator[tuple[list[str], list[str]]]:
    """References of 40-120 words over 3-50 words; outputs: the reference rotated by 15-40
    words, up to 20 words changed, cut or lengthened by up to 20 words."""
    rng = random.Random(seed)
    for _ in range(count):
        size = rng.choice([3, 5, 10, 20, 50])
        m = rng.randint(40, 120)
        reference = [f"w{rng.randrange(size)}" for _ in range(m)]
        rotation = rng.randint(15, 40)
        output = reference[rotation:] + reference[:rotation]
        for _ in range(rng.randint(0, 20)):
            output[rng.randrange(m)] = f"w{rng.randrange(size)}"
        n = max(0, m + rng.randint(-20, 20))
        output = output[:n] + [f"w{rng.randrange(size)}" for _ in range(n - m)]
        yield output, reference


def test_a_one_word_output_against_100_words_keeps_the_widened_beam():
    """Length ratio 100: the beam widens to ceil(100 / 2 + 25) = 75 cells, so the one row
    reaches back to column 25 (reference word 24) and no further."""
    for at, edits in ((23, 100), (24, 99), (25, 99)):
        reference = [f"y{k}" for k in range(100)]
        reference[at] = "x"
        assert translation_edit_rate(["x"], reference) == (edits, 100), at
        assert not differing_pairs([(["x"], reference)])


FILTER_CASES = [
    # a shift is tried only where the reference also has an error ...
    ("3 1 2 1 2 3 2", "2 0 1 1", 6),
    # ... and not within the run itself
    ("0 2 0 0 2", "0 1 2 2 0", 3),
    # a target already tried just before is not counted again (here it decides where the
    # 1,000-candidate cap falls)
    (
        "3 2 1 1 0 2 3 3 3 2 3 0 3 2 0 1 3 0 1 3 0 3 1 1 0 0 0 0 2 0 2 3 3 0",
        "3 3 2 3 3 3 1 3 3 3 0 2 2 1 2 0 0 1 0 0 2 2 0 1 3 3 0 3 3 0 3 0 0 1 1 3 3 2 1 2 1 1 1 1",
        20,
    ),
]


@pytest.mark.parametrize(("output", "reference", "edits"), FILTER_CASES)
def test_the_shift_filters_count_as_sacrebleus(output, reference, edits):
    """Cases found by removing each filter of sacreBLEU's ``_shift`` from ours: each changes
    the number of edits here."""
    output, reference = output.split(), reference.split()
    assert translation_edit_rate(output, reference) == (edits, len(reference))
    assert not differing_pairs([(output, reference)])


def beam_edge_pairs() -> Iterator[tuple[list[str], list[str]]]:
    """Short against long (and the reverse) at the length ratios where the beam widens (over
    50) or its rows only touch (exactly 50), over 1 to 8 distinct words."""
    rng = random.Random(50)
    for n, m, size in itertools.product(
        range(1, 6), (24, 25, 26, 49, 50, 51, 99, 100, 101, 150, 153, 255, 301), (1, 2, 3, 8)
    ):
        output = [f"w{rng.randrange(size)}" for _ in range(n)]
        reference = [f"w{rng.randrange(size)}" for _ in range(m)]
        yield output, reference
        yield reference, output


def test_at_the_beams_edges():
    assert not differing_pairs(list(beam_edge_pairs()))


TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), max_size=40)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(output=TOKENS, reference=TOKENS, vocabulary=st.integers(1, 6))
def test_random_sequences_over_a_small_vocabulary(output, reference, vocabulary):
    keep = "abcdef"[:vocabulary]
    output = [w if w in keep else "a" for w in output]
    reference = [w if w in keep else "a" for w in reference]
    assert not differing_pairs([(output, reference)])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    output=st.lists(st.sampled_from("abc"), max_size=8),
    reference=st.lists(st.sampled_from("abc"), min_size=30, max_size=160),
    swap=st.booleans(),
)
def test_random_sequences_of_very_different_lengths(output, reference, swap):
    pair = (reference, output) if swap else (output, reference)
    assert not differing_pairs([pair])


OPTION_TEXTS = [
    ("The Cat sat on the Mat .", ["the cat sat on the mat.", "A cat was sitting on a mat"]),
    ("AC Hotel Bella Sky (Copenhagen) has 23 floors!", ["The AC Hotel Bella Sky has 23 floors."]),
    ("It is 1,234.5 km² from São Paulo &amp; Zürich", ["São Paulo is 1,234.5 km² from Zürich."]),
    ("北京是中国的首都。", ["中国的首都是北京。", "北京 是 首都"]),
    ("Привет, мир — «hello», world...", ["hello world, привет мир"]),
    ("", ["an empty output", ""]),
    ("   ", ["   "]),
    ("don't stop -- it's 3/4 of $5 (U.S.)", ["It's 3/4 of $5 in the U.S., don't stop."]),
]


OPTIONS = list(itertools.product((False, True), repeat=4))


def option_id(options: tuple[bool, ...]) -> str:
    return "".join("01"[flag] for flag in options)


def sacrebleu_rows(options, outputs: list[str], references: list[list[str]]) -> list[list]:
    """sacreBLEU's TER with ``options`` (the metric's order): each item's statistics."""
    case_sensitive, normalized, no_punct, asian_support = options
    oracle = TER(
        case_sensitive=case_sensitive,
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
    )
    return [
        oracle._compute_segment_statistics(
            oracle._preprocess_segment(output), oracle._extract_reference_info(refs)
        )
        for output, refs in zip(outputs, references, strict=True)
    ]


def differing_items(options, outputs: list[str], references: list[list[str]]) -> list[tuple]:
    """Items whose statistics (values and types: the same floats) differ from sacreBLEU's."""
    ours = segment_rows(
        [(options, out, refs) for out, refs in zip(outputs, references, strict=True)]
    )
    oracle = sacrebleu_rows(options, outputs, references)
    return [
        (k, ours[k], oracle[k], outputs[k])
        for k in range(len(outputs))
        if ours[k] != oracle[k] or list(map(type, ours[k])) != list(map(type, oracle[k]))
    ]


@pytest.mark.parametrize("options", OPTIONS, ids=option_id)
def test_each_option_gives_sacrebleus_item_statistics(options):
    outputs, references = [out for out, _ in OPTION_TEXTS], [refs for _, refs in OPTION_TEXTS]
    assert not differing_items(options, outputs, references)


def webnlg_references(entries_of, share: int, seed: int) -> list[list[str]]:
    shared_file(WEBNLG_2017)
    entries = entries_of()
    return entry_references(random.Random(seed).sample(entries, share) if share else entries)


@pytest.mark.slow  # ~6 s of real WebNLG dev references: make test runs it
def test_generated_outputs_of_webnlg_dev_references():
    """A sample of dev entries (every size), one generated output each, every reference."""
    references = webnlg_references(dev_entries, 150, 1)
    pairs = every_pair(shift_outputs(references, 1), references)
    assert len(pairs) > 300
    assert not differing_pairs(pairs)


@pytest.mark.slow
@pytest.mark.parametrize(
    "entries_of",
    [
        pytest.param(dev_entries, marks=pytest.mark.exhaustive),  # 150 of them: the test above
        pytest.param(train_entries, marks=pytest.mark.exhaustive),
    ],
    ids=["dev", "train"],
)
def test_generated_outputs_of_every_webnlg_entry(entries_of):
    references = webnlg_references(entries_of, 0, 2)
    pairs = every_pair(shift_outputs(references, 2), references)
    assert not differing_pairs(pairs)


@pytest.mark.slow
@pytest.mark.parametrize("count", [8, pytest.param(80, marks=pytest.mark.exhaustive)])
def test_rotated_long_sequences(count):
    assert not differing_pairs(list(rotated_pairs(count, 5)))


@pytest.mark.slow
def test_outputs_over_100_words():
    references = webnlg_references(dev_entries, 40, 3)
    outputs = long_outputs(references, 3)
    assert min(len(words(output)) for output in outputs) > 100
    assert not differing_pairs(every_pair(outputs, references))


def sampled_option(options: tuple[bool, ...]) -> object:
    """Each flag alone and all together run in ``make test``; the other combinations are
    exhaustive (the flags are separate steps of the tokeniser)."""
    marks = () if sum(options) <= 1 or all(options) else (pytest.mark.exhaustive,)
    return pytest.param(options, id=option_id(options), marks=marks)


@pytest.mark.slow
@pytest.mark.parametrize("options", [sampled_option(options) for options in OPTIONS])
def test_each_option_on_generated_webnlg_outputs(options):
    references = webnlg_references(dev_entries, 120, 4)
    outputs = [
        text if k % 3 else f"{text} {random.Random(k).choice(PIECES)}"
        for k, text in enumerate(shift_outputs(references, 4))
    ]
    assert not differing_items(options, outputs, references)
