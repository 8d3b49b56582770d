"""BLEU against hand-checkable cases and the official E2E script's published dev figures."""

import pytest

from scorer.io.e2e import read_dataset_csv, read_grouped_references
from scorer.metrics import get_metric
from scorer.profiles import get_profile
from tests.support.paths import e2e_file


def test_identical_output_scores_one_and_disjoint_scores_zero():
    bleu = get_metric("BLEU")
    refs = [("the cat sat on the mat",), ("a dog ran in the park",)]
    assert bleu.corpus_score(["the cat sat on the mat", "a dog ran in the park"], refs).value == (
        pytest.approx(1.0)
    )
    assert bleu.corpus_score(["xx yy zz ww", "qq rr ss tt"], refs).value == 0.0


def test_multi_reference_clipping_uses_the_best_reference():
    bleu = get_metric("BLEU")
    one = bleu.corpus_score(["the cat sat on the mat"], [("a cat sat on a mat",)]).value
    two = bleu.corpus_score(
        ["the cat sat on the mat"], [("a cat sat on a mat", "the cat sat on the mat")]
    ).value
    assert two == pytest.approx(1.0) and one < two


def test_signature_names_tokeniser_case_and_version():
    score = get_metric("BLEU").corpus_score(["a b"], [("a b",)])
    assert "tok:13a" in score.signature and "case:lc" in score.signature
    assert "nlgboard-scorer:" in score.signature


def test_dev_leave_one_out_matches_official_script():
    profile = get_profile("e2e")
    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    outputs = profile.read_outputs(
        e2e_file("dev_loo_output.tsv").read_bytes(), [i.input for i in items], "dev_loo_output.tsv"
    )
    (bleu,) = profile.score(outputs, [item.references for item in items])
    assert bleu.value == pytest.approx(0.5995, abs=0.0005)


def test_tgen_first10_sample_matches_official_script():
    refs = read_grouped_references(e2e_file("devset_first10_refs_grouped.txt").read_bytes())
    outputs = e2e_file("tgen_dev_first10_output.txt").read_text().splitlines()
    assert get_metric("BLEU").corpus_score(outputs, refs).value == pytest.approx(0.7203, abs=5e-4)


def test_references_counted_per_row_cannot_be_scored():
    """The GEM-metrics #27 bug treated each CSV row as an item; the scorer refuses such input."""
    items = read_dataset_csv(e2e_file("dev_loo_refs.csv").read_bytes())
    rows = [(ref,) for item in items for ref in item.references]
    outputs = [item.references[0] for item in items]
    with pytest.raises(ValueError, match="547 outputs for 4125 items"):
        get_profile("e2e").score(outputs, rows)
