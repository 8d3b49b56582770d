"""The SR'18 profile: hand-worked figures, and the real dev data of every language."""

import math

import pytest

from scorer.io.conllu import read_trees
from scorer.io.sr18 import read_sentences
from scorer.kinds import get_profile
from tests.support.paths import sr18_file
from tests.support.tracks import DEEP_INPUTS, SHALLOW_INPUTS
from tests.support.tracks import SR18_DEV_SIZES as DEV_SIZES

SR18 = get_profile("sr18")

# Table 2 of the SR'18 overview paper, dev column.


def scores(outputs, references) -> dict[str, float]:
    return {s.metric: s.value for s in SR18.score(outputs, [(r,) for r in references])}


def test_hand_worked_figures_with_one_word_dropped():
    refs = ["The cat sat on the mat .", "It rains ."]
    got = scores(["the cat on the mat .", "it ."], refs)
    # clipped n-gram matches / hyp n-grams, n = 1..4 (NLTK: a denominator is at least 1 per
    # sentence): 8/8, 4/6, 2/5, 1/4; method 2 adds 1 to each: 9/9, 5/7, 3/6, 2/5.
    # c = 8, r = 10 -> BP = exp(1 - 10/8).
    assert got["BLEU"] == pytest.approx(100 * math.exp(-0.25) * (5 / 7 * 3 / 6 * 2 / 5) ** 0.25)
    # token edits 1 + 1 over max lengths 7 + 3
    assert got["DIST"] == pytest.approx(100 * (1 - 2 / 10))
    # chars: 'sat ' (4 of 24), 'rains ' (6 of 10)
    assert got["DIST_char"] == pytest.approx(100 * ((1 - 4 / 24) + (1 - 6 / 10)) / 2)
    # info from the 10 reference words: unigrams the/. log2(10/2), the rest log2(10); bigrams
    # 'the cat', 'the mat' log2(2/1), 'on the', 'mat .' 0; longer matches carry 0 information.
    unigrams = (3 * math.log2(5) + 3 * math.log2(10) + math.log2(10) + math.log2(5)) / 8
    beta = math.log(0.5) / math.log(1.5) ** 2
    assert got["NIST"] == pytest.approx((unigrams + 2 / 6) * math.exp(beta * math.log(0.8) ** 2))
    assert got["coverage"] == 100


def test_missing_outputs_score_zero_and_lower_coverage():
    refs = ["The cat sat on the mat .", "It rains ."]
    got = scores(["the cat sat on the mat .", ""], refs)
    assert got["coverage"] == 50
    assert got["DIST"] == pytest.approx(100 * (1 - 3 / 10))  # three deletions
    assert got["BLEU"] < scores(["the cat sat on the mat .", "it rains ."], refs)["BLEU"] < 100


def test_nltk_counts_a_sentence_shorter_than_n_as_one_unmatched_n_gram():
    # 'it rains .' has no 4-gram, yet adds 1 to the 4-gram denominator: 3/(3+1) + 1 smoothing
    refs = ["The cat sat on the mat .", "It rains ."]
    perfect = scores([r.lower() for r in refs], refs)["BLEU"]
    assert perfect == pytest.approx(100 * ((4 + 1) / (5 + 1)) ** 0.25)
    assert scores(["the cat sat on the mat ."], refs[:1])["BLEU"] == 100


@pytest.mark.parametrize("language", sorted(DEV_SIZES))
def test_real_dev_references_match_table_2(language):
    path = sr18_file(f"Sentences/{language}-ud-dev_sentences.txt")
    sentences = read_sentences(path.read_bytes(), path.name)
    assert len(sentences) == DEV_SIZES[language]
    assert all(sentences)


@pytest.mark.parametrize(
    "path",
    [f"T1-input/{lang}-ud-dev.conll" for lang in SHALLOW_INPUTS]
    + [f"T2-input/T2_{lang}-ud-dev.conll" for lang in DEEP_INPUTS],
)
def test_real_dev_inputs_validate_and_align_with_the_references(path):
    trees = read_trees(sr18_file(path).read_bytes(), path)
    language = path.split("/")[1].removeprefix("T2_").split("-")[0]
    assert len(trees) == DEV_SIZES[language]


def test_real_english_dev_with_the_first_word_of_every_sentence_dropped():
    """Dropping the first word leaves every output a contiguous piece of its reference, so each
    n-gram of it matches, and the figures follow from the lengths alone."""
    refs = read_sentences(sr18_file("Sentences/en-ud-dev_sentences.txt").read_bytes())
    tokens = [ref.lower().split() for ref in refs]
    outputs = [" ".join(words[1:]) for words in tokens]
    got = scores(outputs, refs)

    hyp_lengths = [len(words) - 1 for words in tokens]
    ref_total, hyp_total = sum(map(len, tokens)), sum(hyp_lengths)
    smoothed = 1.0
    for n in range(1, 5):
        matches = sum(max(0, h - n + 1) for h in hyp_lengths)
        counted = sum(max(1, h - n + 1) for h in hyp_lengths)
        smoothed *= (matches + 1) / (counted + 1)
    expected_bleu = 100 * math.exp(1 - ref_total / hyp_total) * smoothed**0.25
    assert got["BLEU"] == pytest.approx(expected_bleu)
    assert got["BLEU"] < 100
    assert got["DIST"] == pytest.approx(100 * (1 - len(refs) / ref_total))
    assert got["DIST"] < 100
    char_scores = [
        1 - (len(words[0]) + (len(words) > 1)) / len(" ".join(words)) for words in tokens
    ]
    assert got["DIST_char"] == pytest.approx(100 * sum(char_scores) / len(char_scores))
    assert 0 < got["NIST"] < scores([" ".join(words) for words in tokens], refs)["NIST"]
    assert got["coverage"] == pytest.approx(100 * sum(h > 0 for h in hyp_lengths) / len(refs))
