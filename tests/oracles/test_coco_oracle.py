"""METEOR, ROUGE_L and CIDEr against the official E2E script's own COCO code and jars, on the
same kind of generated files as the BLEU/NIST differential tests (tests/support/e2e_cases.py),
in the real file layouts. Each oracle run starts METEOR's JVM (~25 s), so two corpora of 150
items: one quoted-header CSV with a quoted-MR TSV (BOM, CRLF), one CRLF CSV with plain text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scorer.io.e2e import read_dataset_csv
from scorer.kinds import get_profile
from scorer.metrics import get_metric
from scorer.references import ReferenceSet
from tests.support.coco_oracle import prepare, run_coco
from tests.support.e2e_cases import OUTPUT_LAYOUTS, REFERENCE_LAYOUTS, generate
from tests.support.paths import ORACLES, e2e_file, require_binary, shared_file

pytestmark = pytest.mark.oracle

METRICS = ("METEOR", "ROUGE_L", "CIDEr")


@pytest.fixture(scope="module")
def oracle_copy(tmp_path_factory) -> Path:
    require_binary("java")
    return prepare(shared_file(ORACLES / "e2e-metrics"), tmp_path_factory.mktemp("coco"))


@pytest.mark.parametrize(
    ("seed", "ref_layout", "out_layout"),
    [
        (1, "csv-quoted-header-all-quoted", "tsv-quoted-mr-bom-crlf"),
        (2, "csv-crlf-bom", "plain-text"),
    ],
)
def test_generated_files_equal_the_official_script(
    oracle_copy, tmp_path, seed, ref_layout, out_layout
):
    dev = read_dataset_csv(e2e_file("devset.csv").read_bytes(), "devset.csv")
    rng = random.Random(seed)
    picked = rng.sample([(item.input, list(item.references)) for item in dev], 150)
    case = generate(picked, rng, odd_references=0.1)
    refs = tmp_path / "refs.csv"
    refs.write_bytes(REFERENCE_LAYOUTS[ref_layout](case))
    name, data = OUTPUT_LAYOUTS[out_layout](case)
    hyp = tmp_path / name
    hyp.write_bytes(data)
    expected = run_coco(oracle_copy, refs, hyp)
    profile = get_profile("e2e")
    items = profile.read_references(refs.read_bytes(), refs.name)
    outputs = profile.read_outputs(hyp.read_bytes(), [item.input for item in items], hyp.name)
    references = ReferenceSet.from_items(items)
    ours = {
        metric: get_metric(metric).corpus_score(outputs, references).value for metric in METRICS
    }
    assert ours == pytest.approx(expected, abs=1e-6)
