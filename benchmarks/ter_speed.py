"""TER (tercom, as the ``webnlg2017`` profile runs it): sacreBLEU's port beside ours
(``scorer.metrics.tercom_search``) on the same inputs, one process each, and the metric as
``nlg-score`` runs it (the scoring processes).

The inputs are score_webnlg.py's: 997 entries (the 2017 dev set plus 125 relabelled training
entries, up to 8 references each, tests/support/webnlg_cases.py) with generated outputs (seed 0),
normalised as the profile reads them. Both give every item's statistics (best edits, average
reference length); the benchmark stops if a single one differs.

Usage: python benchmarks/ter_speed.py [--runs 3] [--old-runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sacrebleu.metrics import TER

from scorer.kinds import get_profile
from scorer.metrics import get_metric
from scorer.metrics.ter_tercom import segment_rows
from scorer.references import ReferenceSet
from tests.support.webnlg_cases import lex_texts, outputs, test_like_xml

DEFAULTS = (False, False, False, False)  # tercom's: ter_eval.sh passes no option


def inputs() -> tuple[list[str], ReferenceSet]:
    xml = test_like_xml(2017)
    profile = get_profile("webnlg2017")
    items = profile.read_references(xml, "testdata_with_lex.xml")
    texts = "".join(f"{x}\n" for x in outputs(lex_texts(xml), 0)).encode()
    normalised = profile.read_outputs(texts, [item.input for item in items], "out.txt")
    return normalised, ReferenceSet.from_items(items)


def sacrebleu_rows(hypotheses: list[str], references: ReferenceSet) -> list[list[float]]:
    ter = TER()
    return [
        ter._compute_segment_statistics(
            ter._preprocess_segment(hypothesis), ter._extract_reference_info(refs)
        )
        for hypothesis, refs in zip(hypotheses, references, strict=True)
    ]


def timed(function: Callable[[], object], runs: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return times, result


def line(label: str, times: list[float]) -> str:
    runs = ", ".join(f"{t:.2f}" for t in times)
    return f"{label}: median {statistics.median(times):.2f} s  (runs: {runs})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--old-runs", type=int, default=3)
    args = parser.parse_args()
    hypotheses, references = inputs()
    pairs = sum(len(refs) for refs in references)
    print(f"TER on {len(hypotheses)} items, {pairs} (output, reference) pairs")
    work = [(DEFAULTS, hyp, list(refs)) for hyp, refs in zip(hypotheses, references, strict=True)]
    new_times, new_rows = timed(lambda: segment_rows(work), args.runs)
    old_times, old_rows = timed(lambda: sacrebleu_rows(hypotheses, references), args.old_runs)
    if new_rows != old_rows:
        raise SystemExit("the statistics differ from sacreBLEU's: not comparable")
    print(line("sacreBLEU's lib_ter (one process)", old_times))
    print(line("scorer.metrics.tercom_search (one process)", new_times))
    print(
        f"same statistics for every item; {statistics.median(old_times) / statistics.median(new_times):.0f}x"
    )
    metric = get_metric("TER")
    metric_times, _ = timed(lambda: metric.segment_statistics(hypotheses, references), args.runs)
    print(
        line(
            "metric TER as nlg-score runs it (scoring processes, first run starts them)",
            metric_times,
        )
    )


if __name__ == "__main__":
    main()
