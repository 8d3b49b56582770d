"""METEOR's compiled inner loops and the slot checks' name look-up, each against the same
Python steps they replace, in one process on an E2E-test-sized set.

* METEOR: one scoring process's statistics for 630 outputs against ~4,750 references (the
  test set of ``score_e2e.py``; new outputs each run, references prepared once), with
  ``scorer/meteor/_search.c`` and with the Python search, candidates and bound
  (``aligner.COMPILED`` set to None);
* SER: the slot checks of the same 630 outputs with and without looking a name up before
  running its pattern.

Both pairs give the same statistics (checked here too). Usage:
python benchmarks/meteor_search.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["NLGBOARD_METEOR_PROCESSES"] = "1"  # this process only: its CPU is the figure

from score_e2e import DATA, build_test_set

from scorer.io.e2e import read_dataset_csv
from scorer.kinds import get_profile
from scorer.meteor import aligner
from scorer.metrics import get_metric
from scorer.references import ReferenceSet
from scorer.semantics import e2e_slots


def timed(work: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = work()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"needs the E2E dev data at {DATA}")
    if aligner.COMPILED is None:
        raise SystemExit("scorer.meteor._search is not built (no C compiler at install)")
    with tempfile.TemporaryDirectory() as tmp:
        refs_csv, variants = build_test_set(Path(tmp))
        items = read_dataset_csv(refs_csv.read_bytes())
        inputs = [item.input for item in items]
        references = ReferenceSet((item.references for item in items), inputs=inputs)
        profile = get_profile("e2e")
        outputs = [profile.read_outputs(v.read_bytes(), inputs, v.name) for v in variants]
    meteor = get_metric("METEOR")
    prepared = [profile._prepared("METEOR", texts, references) for texts in outputs]
    meteor.segment_statistics(*prepared[0])  # the lexicon and the references, once
    load = os.getloadavg()[0]
    print(f"{len(items)} outputs, {sum(map(len, references))} references; load average {load:.1f}")

    def meteor_runs() -> list:
        return [meteor.segment_statistics(*prepared[k]).tolist() for k in range(1, 4)]

    built, rows = timed(meteor_runs, args.runs)
    compiled, aligner.COMPILED = aligner.COMPILED, None
    try:
        python, python_rows = timed(meteor_runs, args.runs)
    finally:
        aligner.COMPILED = compiled
    assert rows == python_rows, "the two METEOR paths differ"
    print(
        f"METEOR, CPU per 630 outputs (median of {args.runs} x 3): compiled {built / 3:.2f} s, "
        f"Python {python / 3:.2f} s ({python / built:.1f}x)"
    )

    texts = outputs[1]

    def checks() -> list:
        return [e2e_slots.check_output(mr, text) for mr, text in zip(inputs, texts, strict=True)]

    looked_up, found = timed(checks, args.runs)
    every = e2e_slots._MATCHERS
    e2e_slots._MATCHERS = [(slot, value, pattern, None) for slot, value, pattern, _ in every]
    try:
        unfiltered, unfiltered_found = timed(checks, args.runs)
    finally:
        e2e_slots._MATCHERS = every
    assert found == unfiltered_found, "the slot checks differ"
    print(
        f"slot checks, CPU per 630 outputs (median of {args.runs}): names looked up first "
        f"{looked_up:.3f} s, every pattern run {unfiltered:.3f} s ({unfiltered / looked_up:.1f}x)"
    )


if __name__ == "__main__":
    main()
