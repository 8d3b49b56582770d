"""Wall time and peak memory of the whole DRS profile on a 1,042-item test set.

The DRS test references are held back, so the test set is the first 1,042 texts (a PMB test
set's size) of the PMB 5.0.0 English dev set (../shared/data/drs). The outputs are those texts with one word dropped every
few words and a word repeated in every fifth item, varied per run (no metric at its ceiling).
Every metric of the profile runs: BLEU, METEOR (JVM), ROUGE-L, chrF and, with the semantic extra
installed, F_BERT / F_DISC / F_CONT (all-MiniLM-L6-v2 on the CPU).

* cold: ``nlg-score --profile drs`` in a new process (paraphrase table and model load
  included), peak resident memory of its process tree; the first run, which also builds the
  cache files (METEOR's tables on a new machine, the references' embeddings), apart;
* warm: a long-lived scorer (the worker) scoring new outputs against the same references.

CPU time is given beside wall time (the process and its scoring processes): on two cores
shared with other work, wall time follows the load average, printed at start and end.

Usage: python benchmarks/score_drs.py [--cold-runs 3] [--warm-runs 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from score_e2e import PeakMemory, cold_run, tree

from scorer import embeddings
from scorer.io.drs import read_sbn_file
from scorer.kinds import get_profile

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "drs"
DEV = DATA / "pmb5.0.0_en_sbn" / "seq2seq" / "dev" / "standard.sbn"
TEST_ITEMS = 1042


def tree_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads) and its live descendants."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for current in tree(pid):
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_run_cpu(refs: Path, hyp: Path) -> tuple[float, int, float]:
    """``cold_run`` and the CPU time of the ``nlg-score`` process tree."""
    before = children_cpu()
    wall, peak = cold_run(refs, hyp, "drs")
    return wall, peak, children_cpu() - before


def perturbed(texts: list[str], variant: int) -> list[str]:
    lines = []
    for index, text in enumerate(texts):
        words = text.split()
        if len(words) > 2:
            words = [w for k, w in enumerate(words) if (k + variant) % (3 + variant % 3) != 1]
        if index % 5 == variant % 5 and words:
            words.insert(0, words[0])
        lines.append(" ".join(words) or text)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--items", type=int, default=TEST_ITEMS)
    args = parser.parse_args()
    if not DEV.exists():
        raise SystemExit(f"needs the PMB 5 dev data at {DEV}")
    texts = [item.text for item in read_sbn_file(DEV.read_bytes())][: args.items]
    references = [[text] for text in texts]
    profile = get_profile("drs")
    print(
        f"test set: {len(texts)} items; metrics: {', '.join(profile.metric_ids)}"
        + ("" if embeddings.available() else " (semantic extra NOT installed: no F_*)")
        + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        refs = Path(tmp) / "refs.raw"
        refs.write_text("\n".join(texts) + "\n", encoding="utf-8")
        variants = []
        for k in range(max(args.cold_runs, args.warm_runs) + 1):
            path = Path(tmp) / f"out{k}.txt"
            path.write_text("\n".join(perturbed(texts, k)) + "\n", encoding="utf-8")
            variants.append(path)
        first, _, first_cpu = cold_run_cpu(refs, variants[-1])
        print(f"first cold run (builds the cache files): {first:.2f} s wall, {first_cpu:.2f} s CPU")
        cold = [cold_run_cpu(refs, variants[k]) for k in range(args.cold_runs)]
        print(
            f"cold (new process): median {statistics.median(t for t, _, _ in cold):.2f} s wall, "
            f"{statistics.median(c for _, _, c in cold):.2f} s CPU, "
            f"peak {max(m for _, m, _ in cold) / 2**30:.2f} GiB  (runs: "
            + ", ".join(f"{t:.2f}" for t, _, _ in cold)
            + ")"
        )
        start = time.perf_counter()
        profile.warm_up()
        scores = profile.score(perturbed(texts, 0), references)
        print(f"warm-up (JVMs, model, reference statistics): {time.perf_counter() - start:.2f} s")
        print("  " + "  ".join(f"{s.metric} {s.value:.2f}" for s in scores))
        warm, warm_cpu = [], []
        with PeakMemory(os.getpid()) as memory:
            for k in range(args.warm_runs):
                outputs = perturbed(texts, k + 1)
                start, cpu = time.perf_counter(), tree_cpu(os.getpid())
                profile.score(outputs, references)
                warm.append(time.perf_counter() - start)
                warm_cpu.append(tree_cpu(os.getpid()) - cpu)
        print(
            f"warm (long-lived scorer, new outputs each run): median "
            f"{statistics.median(warm):.2f} s wall, {statistics.median(warm_cpu):.2f} s CPU, "
            f"peak {memory.peak / 2**30:.2f} GiB  (runs: "
            + ", ".join(f"{t:.2f}" for t in warm)
            + ")"
        )
        print("warm, per metric (one run; F_BERT embeds the outputs, F_DISC/F_CONT reuse them):")
        outputs = perturbed(texts, 99)
        for metric in profile.available_metrics:
            single = dataclasses.replace(profile, metrics=(metric,))
            start, cpu = time.perf_counter(), tree_cpu(os.getpid())
            single.score(outputs, references)
            print(
                f"  {metric:<13} {time.perf_counter() - start:.2f} s wall, "
                f"{tree_cpu(os.getpid()) - cpu:.2f} s CPU"
            )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
