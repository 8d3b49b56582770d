"""BLEU and NIST against the official E2E script (``../shared/oracles/e2e-mteval``: the
challenge's own file reading and ``mteval-v13a-sig.pl``), on generated and real-layout files.

Each case writes a reference CSV and an output file in one of the layouts of the real E2E
files, has the oracle score it (keeping mteval's per-segment statistics) and demands the same
corpus BLEU and NIST to the 4th decimal *and* the same statistics for every segment. Small
corpora keep an oracle run under a second, so hypothesis can try many of them; one full dev-set
run covers items with up to 43 references. Cases that once disagreed are kept as files under
``tests/data/mteval_regressions`` with the oracle's figures, checked even without the oracle.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.io.e2e import read_dataset_csv
from scorer.kinds import get_profile
from scorer.metrics import get_metric, mteval
from scorer.references import ReferenceSet
from tests.support.e2e_cases import OUTPUT_LAYOUTS, REFERENCE_LAYOUTS, Case, generate
from tests.support.mteval_oracle import differing_segments, run_oracle, same_to_4_decimals
from tests.support.paths import PROJECT_ROOT, e2e_file, require_mteval_oracle

pytestmark = pytest.mark.oracle

REGRESSIONS = PROJECT_ROOT / "tests" / "data" / "mteval_regressions"


@pytest.fixture(scope="module")
def oracle() -> Path:
    return require_mteval_oracle()


@functools.cache
def dev_items() -> list[tuple[str, list[str]]]:
    """The dev set's MRs and references (not a fixture: hypothesis prints its arguments)."""
    items = read_dataset_csv(e2e_file("devset.csv").read_bytes(), "devset.csv")
    return [(item.input, list(item.references)) for item in items]


def score_files(refs: Path, hyp: Path) -> tuple[float, float, list[str], ReferenceSet]:
    """BLEU and NIST as nlg-score computes them (same readers, same profile)."""
    profile = get_profile("e2e")
    items = profile.read_references(refs.read_bytes(), refs.name)
    outputs = profile.read_outputs(hyp.read_bytes(), [item.input for item in items], hyp.name)
    references = ReferenceSet.from_items(items)
    bleu = get_metric("BLEU").corpus_score(outputs, references).value
    nist = get_metric("NIST").corpus_score(outputs, references).value
    return bleu, nist, outputs, references


def check_against_oracle(oracle: Path, folder: Path, case: Case, ref_layout: str, out_layout: str):
    folder.mkdir(parents=True, exist_ok=True)
    refs = folder / "refs.csv"
    refs.write_bytes(REFERENCE_LAYOUTS[ref_layout](case))
    name, data = OUTPUT_LAYOUTS[out_layout](case)
    hyp = folder / name
    hyp.write_bytes(data)
    expected = run_oracle(oracle, refs, hyp, folder / "keep")
    bleu, nist, outputs, references = score_files(refs, hyp)
    differing = differing_segments(mteval.corpus_stats(outputs, references), expected)
    assert not differing, [(i, case.transforms[i], outputs[i]) for i in differing[:5]]
    assert same_to_4_decimals(bleu, expected.bleu), (bleu, expected.bleu)
    assert same_to_4_decimals(nist, expected.nist), (nist, expected.nist)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_generated_small_corpora_equal_the_official_script(oracle, tmp_path_factory, data):
    """Outputs lower-cased, tokenised, truncated, blank, repeated, shuffled, very long, with
    non-ASCII, entities and odd spacing; items with 1 to 43 references; every file layout."""
    items = dev_items()
    picks = data.draw(
        st.lists(st.integers(0, len(items) - 1), min_size=1, max_size=30, unique=True)
    )
    rng = data.draw(st.randoms(use_true_random=False))
    case = generate([items[i] for i in picks], rng, odd_references=0.1)
    ref_layout = data.draw(st.sampled_from(sorted(REFERENCE_LAYOUTS)))
    out_layout = data.draw(st.sampled_from(sorted(OUTPUT_LAYOUTS)))
    folder = tmp_path_factory.mktemp("mteval")
    check_against_oracle(oracle, folder, case, ref_layout, out_layout)


@pytest.mark.exhaustive  # make test runs the whole dev set once, on the shipped LOO files below
def test_full_dev_set_of_generated_outputs_equals_the_official_script(oracle, tmp_path):
    """547 items, 2 to 43 references each: the padding and NIST's average reference length
    matter most here."""
    case = generate(dev_items(), seed=2018)
    check_against_oracle(oracle, tmp_path, case, "csv-quoted-header-all-quoted", "tsv-all-quoted")


def test_dev_leave_one_out_files_as_shipped(oracle, tmp_path):
    refs, hyp = e2e_file("dev_loo_refs.csv"), e2e_file("dev_loo_output.tsv")
    expected = run_oracle(oracle, refs, hyp, tmp_path)
    bleu, nist, _, _ = score_files(refs, hyp)
    assert (round(bleu, 4), round(nist, 4)) == (expected.bleu, expected.nist) == (0.5995, 8.5789)


def regression_cases() -> list[Path]:
    return sorted(REGRESSIONS.glob("*/expected.json"))


@pytest.mark.parametrize("expected_file", regression_cases(), ids=lambda p: p.parent.name)
def test_cases_that_once_disagreed(expected_file: Path):
    """Recorded with the oracle; checked here without it, so a clone of the project alone
    still guards them."""
    folder = expected_file.parent
    expected = json.loads(expected_file.read_text())
    bleu, nist, _, _ = score_files(folder / expected["refs"], folder / expected["hyp"])
    assert (round(bleu, 4), round(nist, 4)) == (expected["BLEU"], expected["NIST"]), expected["why"]


@pytest.mark.parametrize("expected_file", regression_cases(), ids=lambda p: p.parent.name)
def test_regression_figures_are_the_oracles(oracle, expected_file: Path, tmp_path):
    folder = expected_file.parent
    expected = json.loads(expected_file.read_text())
    run = run_oracle(oracle, folder / expected["refs"], folder / expected["hyp"], tmp_path)
    assert (run.bleu, run.nist) == (expected["BLEU"], expected["NIST"])
