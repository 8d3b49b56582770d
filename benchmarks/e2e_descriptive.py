"""E2E measures beyond word overlap on real data: slot error rate and textual statistics.

* SER of the dev-set references themselves, each reference checked against its MR (the E2E
  paper, Table 5, found by hand that ~40% of references miss or add content);
* textual statistics of the dev references ("all" and one random reference per MR), printed
  beside the paper's Table 10 figures for the *test* set (the test references are held back,
  so these are the same kind of data, not the same data);
* D-level distribution of the dev references (every sentence of every reference), beside the
  paper's figures for the whole E2E dataset (Sect. 4.3: 46% levels 0-1, 14% level 2, 18% level 3,
  15% levels 6-7, mean 2.17);
* speed: SER + textual statistics + D-levels for one E2E-test-sized submission (630 outputs,
  human references drawn at random, so the hard case for the parser), median of runs, against
  the ~0.65 s per system of the official slot-error script.

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

from scorer.describe import dlevel
from scorer.describe.textstats import STATISTICS
from scorer.io.e2e import read_dataset_csv
from scorer.kinds import describe_e2e, describe_references, get_profile
from scorer.references import ReferenceSet
from scorer.semantics.e2e_slots import categories, check_output, slot_error_rate

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"
PAPER_DLEVEL = {  # E2E paper Sect. 4.3, whole dataset
    "D-level 0-1 %": 46,
    "D-level 2 %": 14,
    "D-level 3 %": 18,
    "D-level 6-7 %": 15,
    "D-level mean": 2.17,
}
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
    for name in STATISTICS:
        paper = PAPER_TABLE_10.get(name)
        print(
            f"{name:18} {rows['test set all'][name]:10.3f} {rows['test set rand'][name]:10.3f}"
            + (f"   {paper[0]} / {paper[1]}" if paper else "")
        )

    every = rows["test set all"]
    if "D-level mean" in every:
        print(
            f"D-level of the dev references ({every['D-level sentences']:.0f} sentences, "
            f"{every['D-level unparsed']:.0f} unparsed), paper's whole dataset in brackets:"
        )
        print(
            "  "
            + ", ".join(f"{name} {every[name]:.2f} ({PAPER_DLEVEL[name]})" for name in PAPER_DLEVEL)
        )
        print(
            "  by level: "
            + ", ".join(f"{lvl}: {every[f'D-level {lvl} %']:.1f}%" for lvl in dlevel.LEVELS)
        )
    else:
        print("D-level not computed: the link grammar parser is not installed")

    rng = random.Random(0)
    order = [k % len(items) for k in range(630)]
    submission = ReferenceSet(
        (items[k].references for k in order), inputs=[f"{items[k].input}" for k in order]
    )
    timings = []
    for _ in range(args.runs):
        outputs = [rng.choice(items[k].references) for k in order]
        start = time.perf_counter()
        sers = [check_output(mr, text) for mr, text in zip(submission.inputs, outputs, strict=True)]
        describe_e2e(outputs, submission)
        timings.append(time.perf_counter() - start)
    print(
        f"630 outputs, SER + textual statistics + D-level: median {statistics.median(timings):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in timings)}); SER of this sample "
        f"{slot_error_rate(sers):.2f}%"
    )


if __name__ == "__main__":
    main()
