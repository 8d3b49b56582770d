"""E2E measures beyond word overlap on real data: slot error rate and textual statistics.

* SER of the dev-set references themselves, each reference checked against its MR (the E2E
  paper, Table 5, found by hand that ~40% of references miss or add content);
* textual statistics of the dev references ("all" and one random reference per MR), printed
  beside the paper's Table 10 figures for the *test* set (the test references are held back,
  so these are the same kind of data, not the same data);
* speed: SER + textual statistics for one E2E-test-sized submission (630 outputs), median of
  runs, against the ~0.65 s per system of the official slot-error script.

D-level syntactic complexity is not implemented yet (see the issue note).

Usage: python benchmarks/e2e_descriptive.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.io.e2e import read_dataset_csv
from scorer.profiles import describe_e2e, describe_references, get_profile
from scorer.references import ReferenceSet
from scorer.semantics.e2e_slots import categories, check_output, slot_error_rate

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"
PAPER_TABLE_10 = {  # test set all / test set rand
    "distinct tokens": (1079, 542),
    "distinct trigrams": (16797, 5166),
    "unique trigrams %": (44.66, 69.13),
    "entropy-1": (6.40, 6.37),
    "cond-entropy-2": (2.92, 2.70),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"needs the E2E dev data at {DATA}")
    items = read_dataset_csv((DATA / "devset.csv").read_bytes())
    checks = [check_output(item.input, ref) for item in items for ref in item.references]
    shares = categories(checks)
    print(
        f"dev references ({len(checks)}): SER {slot_error_rate(checks):.2f}%, "
        + ", ".join(f"{c} {100 * shares[c] / len(checks):.1f}%" for c in ("OK", "A", "M", "A+M"))
        + f" -> {100 * (1 - shares['OK'] / len(checks)):.0f}% miss or add (paper, by hand: ~40%)"
    )

    references = ReferenceSet((item.references for item in items), inputs=[i.input for i in items])
    rows = describe_references(get_profile("e2e"), references)
    print(f"{'statistic':18} {'dev all':>10} {'dev rand':>10}   paper test all / rand")
    for name in rows["test set all"]:
        paper = PAPER_TABLE_10.get(name)
        print(
            f"{name:18} {rows['test set all'][name]:10.3f} {rows['test set rand'][name]:10.3f}"
            + (f"   {paper[0]} / {paper[1]}" if paper else "")
        )

    rng = random.Random(0)
    order = [k % len(items) for k in range(630)]
    submission = ReferenceSet(
        (items[k].references for k in order), inputs=[f"{items[k].input}" for k in order]
    )
    timings = []
    for _ in range(args.runs):
        outputs = [rng.choice(items[k].references) for k in order]
        start = time.perf_counter()
        sers = [check_output(mr, text) for mr, text in zip(submission.inputs, outputs)]
        describe_e2e(outputs, submission)
        timings.append(time.perf_counter() - start)
    print(
        f"630 outputs, SER + textual statistics: median {statistics.median(timings):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in timings)}); SER of this sample "
        f"{slot_error_rate(sers):.2f}%"
    )


if __name__ == "__main__":
    main()
