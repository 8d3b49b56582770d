"""The word-overlap suite against hand-worked cases and the official E2E script's figures.

Published figures (../shared/data/e2e/README.txt), official e2e-metrics script:
  547-MR leave-one-out dev run: BLEU 0.5995 NIST 8.5789 METEOR 0.4498 ROUGE_L 0.6528 CIDEr 1.8543
  10-line TGen sample:          BLEU 0.7203 NIST 7.8212 METEOR 0.4801 ROUGE_L 0.7910 CIDEr 2.3039
"""

import math

import pytest

from scorer.io.e2e import read_dataset_csv, read_grouped_references
from scorer.kinds import get_profile
from scorer.metrics import get_metric
from scorer.references import ReferenceSet
from tests.support.paths import e2e_file, require_binary

TOLERANCE = {"BLEU": 5e-4, "NIST": 5e-3, "METEOR": 5e-4, "ROUGE_L": 5e-4, "CIDEr": 5e-3}
LOO = {"BLEU": 0.5995, "NIST": 8.5789, "METEOR": 0.4498, "ROUGE_L": 0.6528, "CIDEr": 1.8543}
TGEN10 = {"BLEU": 0.7203, "NIST": 7.8212, "METEOR": 0.4801, "ROUGE_L": 0.7910, "CIDEr": 2.3039}


@pytest.fixture(scope="module")
def java():
    return require_binary("java")


def loo_data():
    profile = get_profile("e2e")
    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    outputs = profile.read_outputs(
        e2e_file("dev_loo_output.tsv").read_bytes(), [i.input for i in items], "dev_loo_output.tsv"
    )
    return outputs, ReferenceSet(item.references for item in items)


def tgen10_data():
    refs = read_grouped_references(e2e_file("devset_first10_refs_grouped.txt").read_bytes())
    return e2e_file("tgen_dev_first10_output.txt").read_text().splitlines(), ReferenceSet(refs)


@pytest.mark.parametrize("metric", ["BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr"])
@pytest.mark.parametrize(
    ("data", "expected"),
    [pytest.param(loo_data, LOO, marks=pytest.mark.slow), (tgen10_data, TGEN10)],
    ids=["dev-leave-one-out", "tgen-first10"],
)
def test_reproduces_the_official_e2e_script(java, metric, data, expected):
    outputs, references = data()
    value = get_metric(metric).corpus_score(outputs, references).value
    assert value == pytest.approx(expected[metric], abs=TOLERANCE[metric])


def test_bleu_hand_worked_mteval_smoothing():
    """No match at any order: p_n = 1/(2^k t_n) -> (1/16 * 1/24 * 1/32 * 1/32)^(1/4) * e^-0.5."""
    refs = [("the cat sat on the mat",), ("a dog ran in the park",)]
    bleu = get_metric("BLEU")
    assert bleu.corpus_score(list(sum(refs, ())), refs).value == pytest.approx(1.0)
    expected = (1 / 16 * 1 / 24 * 1 / 32 * 1 / 32) ** 0.25 * math.exp(1 - 12 / 8)
    assert bleu.corpus_score(["xx yy zz ww", "qq rr ss tt"], refs).value == pytest.approx(expected)


def test_bleu_clips_by_the_best_reference_and_mteval_lowercases_ascii_only():
    bleu = get_metric("BLEU")
    one = bleu.corpus_score(["the cat sat on the mat"], [("a cat sat on a mat",)]).value
    two = bleu.corpus_score(
        ["The Cat sat on the mat"], [("a cat sat on a mat", "the cat sat on the mat")]
    )
    assert two.value == pytest.approx(1.0) and one < two.value
    assert "case:lc-ascii" in two.signature and "tok:13a" in two.signature


def test_bleu_agrees_with_sacrebleu_where_no_padding_is_involved():
    import sacrebleu

    outputs, references = loo_data()
    single = ReferenceSet((refs[0],) for refs in references)
    ours = get_metric("BLEU").corpus_score(outputs, single).value
    theirs = sacrebleu.corpus_bleu(outputs, [[r[0] for r in single]], lowercase=True).score / 100
    assert ours == pytest.approx(theirs, abs=1e-4)


def test_nist_hand_worked_single_word():
    """One reference word 'a' twice in the corpus of references: info(a) = log2(2/2) = 0."""
    nist = get_metric("NIST")
    assert nist.corpus_score(["a"], [("a",)]).value == pytest.approx(0.0)
    # 'a b' vs 'a b': info(a)=info(b)=log2(2/1)=1, info(a b)=log2(1/1)=0 -> 2/2 + 0/1 = 1
    assert nist.corpus_score(["a b"], [("a b",)]).value == pytest.approx(1.0)


def test_rouge_l_hand_worked(java):
    # LCS('a b c d', 'a c d e') = 3: P = 3/4, R = 3/4 -> F = 0.75 whatever beta
    rouge = get_metric("ROUGE_L")
    assert rouge.corpus_score(["a b c d"], [("a c d e",)]).value == pytest.approx(0.75)
    # P = 2/2, R = 2/4: F = (1 + 1.44) * 1 * 0.5 / (0.5 + 1.44) = 0.62887
    assert rouge.corpus_score(["a b"], [("a b c d",)]).value == pytest.approx(1.22 / 1.94)


def test_cider_is_zero_without_overlap_and_ten_for_its_own_references(java):
    """Output = reference: every TF-IDF vector equals its reference's, cosine 1, times 10."""
    cider = get_metric("CIDEr")
    refs = [("zebra grazes near water",), ("kettle boils on stove",)]
    assert cider.corpus_score(["qq ww ee", "rr tt yy"], refs).value == 0.0
    assert cider.corpus_score([r[0] for r in refs], refs).value == pytest.approx(10.0)


@pytest.mark.slow  # ~6 s (the jar): make test runs it, make check leaves it
def test_meteor_python_aggregate_equals_the_jar_eval(java):
    from scorer.meteor import jar as meteor
    from scorer.tokenizers.ptb import ptb_tokenize, ptb_tokenize_references

    outputs, references = tgen10_data()
    stats = get_metric("METEOR").segment_statistics(outputs, references)
    refs = ptb_tokenize_references(references)
    lines = [meteor.score_line(h, r) for h, r in zip(ptb_tokenize(outputs), refs, strict=True)]
    _, jar_score = meteor.pool().processes[0].evaluate(meteor.pool().statistics(lines))
    assert meteor.meteor_from_totals(stats.sum(axis=0)) == pytest.approx(jar_score, abs=1e-12)


def test_chrf_equals_sacrebleu():
    import sacrebleu

    hyps = ["the cat sat on the mat", "hello there"]
    refs = [("the cat sat on a mat", "x"), ("hello here",)]
    expected = sacrebleu.corpus_chrf(hyps, [["the cat sat on a mat", "hello here"], ["x", None]])
    assert get_metric("chrF").corpus_score(hyps, refs).value == pytest.approx(expected.score)


def test_dist_token_level_corpus_vs_char_level_sentence_mean():
    hyps, refs = ["The cat sat", "a b"], [("the cat sat down",), ("a c",)]
    # tokens: edits 1 + 1 over max lengths 4 + 2 -> 1 - 2/6
    assert get_metric("DIST").corpus_score(hyps, refs).value == pytest.approx(100 * (1 - 2 / 6))
    # chars, lowercased: 'the cat sat' -> 'the cat sat down': 5 over 16; 'a b' -> 'a c': 1 over 3
    expected = 100 * ((1 - 5 / 16) + (1 - 1 / 3)) / 2
    assert get_metric("DIST_char").corpus_score(hyps, refs).value == pytest.approx(expected)


TABLE_8 = """TGen 0.6593 8.6094 0.4483 0.6850 2.2338 0.5754
Slug 0.6619 8.6130 0.4454 0.6772 2.2615 0.5744
TNT1 0.6561 8.5105 0.4517 0.6839 2.2183 0.5729
NLE 0.6534 8.5300 0.4435 0.6829 2.1539 0.5696
TNT2 0.6502 8.5211 0.4396 0.6853 2.1670 0.5688
Harv 0.6496 8.5268 0.4386 0.6872 2.0850 0.5673
Zhang 0.6545 8.1840 0.4392 0.7083 2.1012 0.5661
Gong 0.6422 8.3453 0.4469 0.6645 2.2721 0.5631
TR1 0.6336 8.1848 0.4322 0.6828 2.1425 0.5563
Sheff1 0.6015 8.3075 0.4405 0.6778 2.1775 0.5537
DANGNT 0.5990 7.9277 0.4346 0.6634 2.0783 0.5395
Slug-alt 0.6035 8.3954 0.4369 0.5991 2.1019 0.5378
ZHAW2 0.6004 8.1394 0.4388 0.6119 1.9188 0.5314
TUDA 0.5657 7.4544 0.4529 0.6614 1.8206 0.5215
ZHAW1 0.5864 8.0212 0.4322 0.5998 1.8173 0.5205
Adapt 0.5092 7.1954 0.4025 0.5872 1.5039 0.4738
Chen 0.5859 5.4383 0.3836 0.6714 1.5790 0.4685
FORGe3 0.4599 7.1092 0.3858 0.5611 1.5586 0.4547
Sheff2 0.5436 5.7462 0.3561 0.6152 1.4130 0.4462
TR2 0.4202 6.7686 0.3968 0.5481 1.4389 0.4372
FORGe1 0.4207 6.5139 0.3685 0.5437 1.3106 0.4231"""


@pytest.mark.parametrize("row", TABLE_8.splitlines(), ids=lambda r: r.split()[0])
def test_normalised_average_reproduces_e2e_table_8(row):
    from scorer.metrics.normalised_average import normalised_average

    _, *values = row.split()
    bleu, nist, meteor, rouge, cider, expected = map(float, values)
    scores = {"BLEU": bleu, "NIST": nist, "METEOR": meteor, "ROUGE_L": rouge, "CIDEr": cider}
    assert normalised_average(scores) == pytest.approx(expected, abs=6e-5)


def test_references_counted_per_row_cannot_be_scored():
    """The GEM-metrics #27 bug treated each CSV row as an item; the scorer refuses such input."""
    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    rows = [(ref,) for item in items for ref in item.references]
    outputs = [item.references[0] for item in items]
    with pytest.raises(ValueError, match="547 outputs for 4125 items"):
        get_profile("e2e").statistics(outputs, rows)
