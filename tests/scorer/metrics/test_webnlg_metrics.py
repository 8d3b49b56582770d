"""The metrics WebNLG 2017 and WebNLG+ 2020 report, on cases worked by hand (the official
tools' own figures on generated files are in tests/oracles/test_webnlg20*_oracle.py), and the
registry's options."""

from __future__ import annotations

import math
import random

import numpy as np
import pyter
import pytest

from scorer.errors import UnknownMetric
from scorer.metrics import get_metric, metric_options
from scorer.metrics.chrf_plus_plus import EPSILON
from scorer.metrics.multibleu_detok import tokenization
from scorer.metrics.ter_pyter import item_ter, ter
from scorer.normalise import (
    NORMALISATIONS,
    first_references,
    webnlg2017_output,
    webnlg2017_reference,
)
from scorer.references import ReferenceSet

HYPS = ["a b c d e", "x"]
REFS = [["a b c d f g"], ["y z w"]]


def test_multi_bleu_counts_clipped_ngrams_and_the_closest_reference_length():
    # item 1: 1-grams 4 of 5, 2-grams 3 of 4, 3-grams 2 of 3, 4-grams 1 of 2; c = 5, r = 6
    # item 2: nothing matches; c = 1, r = 3
    rows = get_metric("BLEU-multibleu").segment_statistics(HYPS, ReferenceSet(REFS))
    assert rows.tolist() == [[4, 3, 2, 1, 5, 4, 3, 2, 5, 6], [0, 0, 0, 0, 1, 0, 0, 0, 1, 3]]
    bleu = get_metric("BLEU-multibleu").corpus_score(HYPS, REFS).value
    expected = (
        100
        * math.exp(1 - 9 / 6)
        * math.exp((math.log(4 / 6) + math.log(3 / 4) + math.log(2 / 3) + math.log(1 / 2)) / 4)
    )
    assert bleu == pytest.approx(expected, rel=1e-15)


def test_empty_reference_lines_of_parallel_files_can_be_the_closest_length():
    """With 2 reference files, item 2 (one word) is closer to the empty line (0) than to
    its reference (3 words): r = 6 + 0, no brevity penalty -- multi-bleu.perl's quirk."""
    metric = get_metric("BLEU-multibleu", references=2)
    assert metric.segment_statistics(HYPS, ReferenceSet(REFS))[:, -1].tolist() == [6, 0]
    assert metric.corpus_score(HYPS, REFS).value == pytest.approx(100 * (1 / 6) ** 0.25, rel=1e-15)


def test_multi_bleu_has_no_smoothing_and_survives_what_kills_the_script():
    assert get_metric("BLEU-multibleu").corpus_score(["a b c"], [["a b d"]]).value == 0.0
    assert get_metric("BLEU-multibleu").corpus_score([""], [["a b"]]).value == 0.0  # c = 0
    assert get_metric("BLEU-multibleu", references=2).corpus_score([""], [["a b"]]).value == 0.0


def test_lc_lowercases_ascii_only_and_tokens_split_on_ascii_whitespace_only():
    """Perl's lc and split on bytes: É stays, U+00A0 and U+001C are inside words."""
    lower = get_metric("BLEU-multibleu", lowercase=True)
    row = lower.segment_statistics(["ÉTÉ A\u00a0B C\x1cD"], ReferenceSet([["Été a\u00a0b c\x1cd"]]))
    assert row[0, :4].tolist() == [2, 1, 0, 0]  # "a\u00a0b" and "c\x1cd" match, "ÉtÉ" does not
    assert row[0, 8] == 3


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Hello, world.", "Hello , world ."),
        ("It costs 3.5 or 1,000 (at 2-3 p.m.)", "It costs 3.5 or 1,000 ( at 2 - 3 p . m . )"),
        ("a-b &quot;q&quot; &amp; <skipped>x", 'a-b " q " & x'),
        ("U.S.A", "U . S . A"),
    ],
)
def test_multi_bleu_detok_tokenises_as_mteval_v13a(text, tokens):
    assert tokenization(text) == tokens


def test_multi_bleu_detok_lowercases_outputs_before_and_references_after_tokenising():
    metric = get_metric("BLEU-multibleu-detok", lowercase=True)
    row = metric.segment_statistics(["&QUOT;"], ReferenceSet([["&QUOT;"]]))
    assert row[0, :1].tolist() == [0]  # output: '"'; reference: '& quot ;'


def test_chrf_plus_plus_averages_the_f_scores_of_all_eight_orders_even_when_empty():
    """'ab' against itself: character 1- and 2-grams and word unigrams match fully; the five
    orders neither side has score 1e-16 each (chrF.py's rule), so the figure is about 3/8."""
    value = get_metric("chrF++").corpus_score(["ab"], [["ab"]]).value
    assert value == (1.0 + 1.0 + EPSILON + EPSILON + EPSILON + EPSILON + 1.0 + EPSILON) / 8.0


def test_chrf_plus_plus_keeps_the_best_reference_counts():
    metric = get_metric("chrF++")
    alone = metric.corpus_score(["the cat sat"], [["the cat sat"]]).value
    with_worse = metric.corpus_score(["the cat sat"], [["a dog ran off", "the cat sat"]]).value
    assert alone == with_worse == pytest.approx(1.0, abs=1e-15)


def test_pyter_ter_of_its_own_example():
    ref = "SAUDI ARABIA denied THIS WEEK information published in the AMERICAN new york times"
    hyp = "THIS WEEK THE SAUDIS denied information published in the new york times"
    assert ter(hyp.split(), ref.split()) == 4 / 13  # one shift, three edits, 13 words


def test_pyter_ter_equals_pyter3_on_random_sequences():
    """Small vocabularies (many tied shifts: pyter keeps the shifted list that sorts last),
    words whose order differs from their first appearance, outputs longer and shorter."""
    rng = random.Random(3)
    for _ in range(400):
        vocabulary = [f"{chr(97 + rng.randrange(26))}{k}" for k in range(rng.choice([1, 2, 3, 6]))]
        hyp = [rng.choice(vocabulary) for _ in range(rng.randint(0, 14))]
        ref = [rng.choice(vocabulary) for _ in range(rng.randint(1, 14))]
        assert ter(hyp, ref) == pyter.ter(hyp, ref), (hyp, ref)


def test_eval_py_scores_an_empty_reference_one_and_takes_the_minimum():
    assert item_ter("a b c", ["x y"]) == 1.5
    assert item_ter("a b c", ["x y"], files=2) == 1.0  # the second file's empty line
    assert item_ter("a b c", ["x y", "   "]) == 1.0
    assert item_ter("", ["x y"]) == 1.0
    with pytest.raises(ZeroDivisionError):
        ter(["a"], [])


def test_tercom_ter_takes_the_fewest_edits_over_the_mean_reference_length():
    metric = get_metric("TER")
    hyps = ["the cat sat on the mat"]
    assert metric.corpus_score(hyps, [["the cat is on the mat"]]).value == 1 / 6
    two = [["the cat is on the mat", "a cat sat on a mat here"]]
    assert metric.corpus_score(hyps, two).value == 1 / 6.5
    assert metric.corpus_score(["The Cat"], [["the cat"]]).value == 0.0  # tercom lowercases
    assert (
        get_metric("TER", case_sensitive=True).corpus_score(["The Cat"], [["the cat"]]).value == 1.0
    )


@pytest.mark.parametrize(
    ("metric", "expected"),
    [("ROUGE-1", 2 / 3), ("ROUGE-2", 1 / 2), ("ROUGE-L", 2 / 3), ("ROUGE-Lsum", 2 / 3)],
)
def test_google_rouge_takes_the_best_reference_by_f_measure(metric, expected):
    value = get_metric(metric).corpus_score(["The cat sat."], [["a dog ran", "the cat ran"]]).value
    assert value == pytest.approx(expected, abs=1e-15)


def test_meteor_on_files_uses_the_first_n_references():
    metric = get_metric("METEOR-files", references=1)
    first = metric.corpus_score(["the cat sat"], [["a dog ran", "the cat sat"]]).value
    assert first == get_metric("METEOR-files").corpus_score(["the cat sat"], [["a dog ran"]]).value
    assert (
        get_metric("METEOR-files")
        .corpus_score(["the cat sat"], [["a dog ran", "the cat sat"]])
        .value
        > 0.9
    )


def test_options_are_checked_listed_and_part_of_the_signature():
    assert metric_options("BLEU-multibleu") == {"lowercase": False, "references": None}
    assert metric_options("BLEU-webnlg2017") == {}
    with pytest.raises(
        UnknownMetric, match="has no option lowercas; options: lowercase, references"
    ):
        get_metric("BLEU-multibleu", lowercas=True)
    with pytest.raises(UnknownMetric, match=r"preset .* its options are fixed"):
        get_metric("BLEU-webnlg2017", lowercase=False)
    with pytest.raises(UnknownMetric, match="unknown metric 'BLEU-nope'"):
        get_metric("BLEU-nope")
    with pytest.raises(ValueError, match="option references: expected an integer from 1 to 100"):
        get_metric("METEOR-files", references=0)
    preset = get_metric("BLEU-webnlg2017").signature
    assert preset == get_metric("BLEU-multibleu", lowercase=True, references=3).signature
    assert "case:lc-ascii" in preset and "refs:3-files" in preset
    assert get_metric("BLEU-multibleu").signature != preset


@pytest.mark.parametrize(
    ("raw", "output", "reference"),
    [
        ("Aarhus Airport's runway is 2702.0 m.", "aarhus airport ' s runway is 2702 . 0 m .", None),
        ("  Café  Zürich  ", "cafe zurich", None),
        ("The_X-ray (U.S.)", "the_x - ray ( u . s . )", None),
        # unidecode before splitting (outputs) or after (references): ½ -> "1/2"
        ("1½ miles", "1 1 / 2 miles", "1 1/2 miles"),
        ("北京 is big", "bei jing is big", "Bei Jing  is big"),
    ],
)
def test_webnlg2017_normalisation_in_the_scripts_order(raw, output, reference):
    assert webnlg2017_output(raw) == output
    assert webnlg2017_reference(raw) == (reference if reference is not None else output)
    assert NORMALISATIONS["webnlg2017"].reference(raw) == webnlg2017_reference(raw)


def test_first_references():
    assert first_references(["a", "b", "c", "d"], 3) == ("a", "b", "c")
    assert first_references(["a"], 3) == ("a",)


def test_statistics_rows_add_up_to_the_corpus_figure():
    """Per-item sufficient statistics: subsets and bootstrap resamples are sums of rows."""
    hyps, refs = ["a b c d", "e f g h i", "x"], [["a b c d"], ["e f g x i", "e f"], ["y"]]
    for metric_id in ("BLEU-multibleu", "chrF++", "TER", "TER-pyter"):
        metric = get_metric(metric_id)
        rows = metric.segment_statistics(hyps, ReferenceSet(refs))
        whole = metric.corpus_score(hyps, refs).value
        assert metric.score_from_totals(np.sum(rows, axis=0)) == whole
