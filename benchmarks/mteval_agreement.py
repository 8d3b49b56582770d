"""How often our BLEU/NIST disagree with the official E2E script on generated corpora.

Generates corpora from the E2E dev set (tests/support/e2e_cases.py: outputs lower-cased,
tokenised, truncated, blank, repeated, shuffled, very long, with non-ASCII, entities and odd
spacing; 1 to 43 references per item), has the oracle (../shared/oracles/e2e-mteval, Perl) and
our scorer score each, and prints how many corpora differ at the 4th decimal and how many
segments' mteval statistics differ. Test-only tooling: needs ../shared and Perl's XML::Twig.

Usage: python benchmarks/mteval_agreement.py [--corpora 200] [--items 40] [--layout LAYOUT]
(``--layout plain`` writes a bare-header CSV and plain-text outputs, readable by older readers)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.io.e2e import read_dataset_csv
from scorer.kinds import get_profile
from scorer.metrics import get_metric, mteval
from scorer.references import ReferenceSet
from tests.support.e2e_cases import OUTPUT_LAYOUTS, REFERENCE_LAYOUTS, generate
from tests.support.mteval_oracle import differing_segments, run_oracle
from tests.support.paths import E2E_DATA, ORACLES


def one_corpus(index: int, args, items, folder: Path) -> tuple[bool, bool, int, int]:
    rng = random.Random(index)
    picked = rng.sample(items, args.items)
    case = generate(picked, rng, odd_references=0.1)
    if args.layout == "plain":
        ref_layout, out_layout = "csv-bare-header", "plain-text"
    else:
        ref_layout = rng.choice(sorted(REFERENCE_LAYOUTS))
        out_layout = rng.choice(sorted(OUTPUT_LAYOUTS))
    work = folder / str(index)
    work.mkdir()
    refs = work / "refs.csv"
    refs.write_bytes(REFERENCE_LAYOUTS[ref_layout](case))
    name, data = OUTPUT_LAYOUTS[out_layout](case)
    hyp = work / name
    hyp.write_bytes(data)
    oracle = run_oracle(ORACLES / "e2e-mteval", refs, hyp, work / "keep")
    profile = get_profile("e2e")
    read = profile.read_references(refs.read_bytes(), refs.name)
    outputs = profile.read_outputs(hyp.read_bytes(), [item.input for item in read], hyp.name)
    references = ReferenceSet(item.references for item in read)
    bleu = round(get_metric("BLEU").corpus_score(outputs, references).value, 4)
    nist = round(get_metric("NIST").corpus_score(outputs, references).value, 4)
    segments = differing_segments(mteval.corpus_stats(outputs, references), oracle)
    return bleu != oracle.bleu, nist != oracle.nist, len(segments), len(outputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=int, default=200)
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--layout", choices=["any", "plain"], default="any")
    args = parser.parse_args()
    dev = read_dataset_csv((E2E_DATA / "devset.csv").read_bytes(), "devset.csv")
    items = [(item.input, list(item.references)) for item in dev]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:
        results = list(
            pool.map(lambda i: one_corpus(i, args, items, Path(tmp)), range(args.corpora))
        )
    bleu = sum(r[0] for r in results)
    nist = sum(r[1] for r in results)
    either = sum(r[0] or r[1] for r in results)
    segments = sum(r[2] for r in results)
    total = sum(r[3] for r in results)
    print(f"{args.corpora} corpora of {args.items} items ({total} segments), layout {args.layout}")
    print(f"corpora differing at the 4th decimal: BLEU {bleu}, NIST {nist}, either {either}")
    print(f"segments whose mteval statistics differ: {segments} of {total}")
    print(f"time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
