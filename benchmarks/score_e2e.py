"""Wall time and peak memory of scoring one E2E-test-sized submission with all five metrics.

Builds a 630-item test set from the E2E dev set (../shared/data/e2e/dev_loo_refs.csv: the 547
leave-one-out MRs, then the first 83 again), ~4,750 references, and system outputs from
dev_loo_output.tsv (variants with words dropped, so that no two runs share outputs).

* cold: a new ``nlg-score --json`` process per run (JVM start-ups, paraphrase table, tokenising
  the references included) -- what a participant sees offline;
* warm: a long-lived scorer (as in a worker) after one warm-up submission; each run scores a
  different output file against the same test set;
* side by side in the same run: ``nlg-score --meteor jar`` (the official jars in JVMs) and the
  official E2E script itself (``../shared/oracles/e2e-metrics``' ``measure_scores.py``, with
  the jars of the pycocoevalcap wheel and Perl's mteval), cold, on the same files.

* first runs (``--first-runs N``): the README's ``nlg-score`` command on the dev LOO files, each
  in a new, empty cache folder (``NLGBOARD_CACHE``), as on a machine where it never ran: the
  lexicon and tokeniser tables built, then the scoring; with the load average before each run.

Peak memory is the largest summed RSS of the process and its children (the JVMs), sampled every
20 ms. The official e2e-metrics script takes about 28 s and 1.3 GB here for the 547-MR run.

Usage: python benchmarks/score_e2e.py [--cold-runs 3] [--warm-runs 7] [--no-official]
       python benchmarks/score_e2e.py --first-runs 3 --first-only
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from collections.abc import Iterator
from typing import Self

from scorer.io.e2e import read_dataset_csv, read_outputs
from scorer.kinds import get_profile
from scorer.references import ReferenceSet

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"
TEST_ITEMS = 630


def tree(pid: int) -> Iterator[int]:
    """A process and all its live descendants (through every thread's children)."""
    stack = [pid]
    while stack:
        current = stack.pop()
        yield current
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack.extend(int(child) for child in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue


def tree_rss(pid: int) -> int:
    """Summed resident set size (bytes) of a process and all its descendants."""
    total = 0
    for current in tree(pid):
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its descendants (live ones,
    and those that ended and were waited for)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for current in tree(pid):
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += sum(int(f) for f in fields[11:15]) / ticks
    return total


class PeakMemory:
    """Sample the summed RSS of a process tree in a thread; ``peak`` holds the maximum."""

    def __init__(self, pid: int, interval: float = 0.02):
        """``interval``: seconds between samples (each reads /proc for the whole tree, which
        costs CPU beside a long, busy run)."""
        self.pid, self.peak, self.interval = pid, 0, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(self.pid))
            self._stop.wait(self.interval)


def build_test_set(workdir: Path) -> tuple[Path, list[Path]]:
    items = read_dataset_csv((DATA / "dev_loo_refs.csv").read_bytes())
    outputs, _mrs = read_outputs((DATA / "dev_loo_output.tsv").read_bytes())
    order = [i % len(items) for i in range(TEST_ITEMS)]
    refs_csv = workdir / "refs.csv"
    with refs_csv.open("w", encoding="utf-8") as handle:
        handle.write("mr,ref\n")
        for position, index in enumerate(order):
            mr = f"{items[index].input}, copy[{position}]"  # repeated MRs stay distinct items
            for ref in items[index].references:
                handle.write('"{}","{}"\n'.format(mr.replace('"', '""'), ref.replace('"', '""')))
    variants = []
    for drop_every in range(12):
        path = workdir / f"outputs-{drop_every}.txt"
        lines = []
        for index in order:
            words = outputs[index].split()
            if drop_every:
                words = [w for k, w in enumerate(words, 1) if k % (drop_every + 2) != 0]
            lines.append(" ".join(words))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        variants.append(path)
    return refs_csv, variants


OFFICIAL_RUNNER = """
import os, runpy
sys.argv = ["measure_scores.py", sys.argv[2], sys.argv[3]]
runpy.run_path(os.path.join(sys.path[0], "measure_scores.py"), run_name="__main__")
"""
"""The whole official script, on argv[2] (references) and argv[3] (outputs)."""


def official_run(copy: Path, refs: Path, hyp: Path) -> tuple[float, int, str]:
    """The official E2E script in a new process: wall time, peak memory, what it printed."""
    from tests.support.coco_oracle import STUBS

    runner = copy.parent / "run_official.py"
    runner.write_text(STUBS + OFFICIAL_RUNNER)
    command = [sys.executable, str(runner), str(copy), str(refs), str(hyp)]
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with PeakMemory(process.pid) as memory:
        out, err = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"the official script failed: {err.decode()[-1500:]}")
    return time.perf_counter() - start, memory.peak, out.decode()


def cold_run(
    refs: Path, hyp: Path, profile: str = "e2e", meteor: str = "python", cache: Path | None = None
) -> tuple[float, int]:
    """``nlg-score`` in a new process: wall time and peak memory of its process tree (with
    ``cache`` as its cache folder when given)."""
    command = [
        sys.executable,
        "-m",
        "scorer.cli.score",
        "--profile",
        profile,
        "--refs",
        str(refs),
        "--hyp",
        str(hyp),
        "--json",
        "--meteor",
        meteor,
    ]
    start = time.perf_counter()
    environment = os.environ | ({"NLGBOARD_CACHE": str(cache)} if cache else {})
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, env=environment)
    with PeakMemory(process.pid) as memory:
        process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"nlg-score failed with exit code {process.returncode}")
    return time.perf_counter() - start, memory.peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold-runs", type=int, default=3)
    parser.add_argument("--warm-runs", type=int, default=7)
    parser.add_argument(
        "--no-official", action="store_true", help="Skip the jar and official runs."
    )
    parser.add_argument(
        "--first-runs", type=int, default=0, help="Runs in a new, empty cache folder each."
    )
    parser.add_argument("--first-only", action="store_true", help="Only the first runs.")
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"needs the E2E dev data at {DATA}")
    if args.first_runs:
        first_runs(args.first_runs)
    if args.first_only:
        return
    with tempfile.TemporaryDirectory() as tmp:
        refs_csv, variants = build_test_set(Path(tmp))
        items = read_dataset_csv(refs_csv.read_bytes())
        inputs = [item.input for item in items]
        references = ReferenceSet((item.references for item in items), inputs=inputs)  # SER too
        print(f"test set: {len(items)} items, {sum(map(len, references))} references")

        cold_run(refs_csv, variants[-1])  # builds the cache files on a new machine
        cold = [cold_run(refs_csv, variants[k % len(variants)]) for k in range(args.cold_runs)]
        print(
            f"cold (new process): median {statistics.median(t for t, _ in cold):.2f} s wall, "
            f"peak {max(m for _, m in cold) / 2**30:.2f} GiB  (runs: "
            + ", ".join(f"{t:.2f}" for t, _ in cold)
            + ")"
        )
        official_median = None
        if not args.no_official:
            jar = [
                cold_run(refs_csv, variants[k % len(variants)], meteor="jar")
                for k in range(args.cold_runs)
            ]
            print(
                f"cold with --meteor jar: median {statistics.median(t for t, _ in jar):.2f} s "
                f"wall, peak {max(m for _, m in jar) / 2**30:.2f} GiB  (runs: "
                + ", ".join(f"{t:.2f}" for t, _ in jar)
                + ")"
            )
            official = official_runs(Path(tmp), refs_csv, variants, args.cold_runs)
            if official:
                official_median = statistics.median(t for t, _, _ in official)
                print(
                    f"official E2E script: median {official_median:.2f} s wall, peak "
                    f"{max(m for _, m, _ in official) / 2**30:.2f} GiB  (runs: "
                    + ", ".join(f"{t:.2f}" for t, _, _ in official)
                    + ")\n  it printed: "
                    + " ".join(official[0][2].split()[-10:])
                )

        profile = get_profile("e2e")
        start = time.perf_counter()
        profile.warm_up()
        first = profile.read_outputs(variants[0].read_bytes(), inputs, variants[0].name)
        scores = profile.score(first, references)
        print(
            f"warm-up (JVMs, paraphrase table, reference statistics): "
            f"{time.perf_counter() - start:.2f} s"
        )
        print("  " + "  ".join(f"{s.metric} {s.value:.4f}" for s in scores))
        warm = []
        with PeakMemory(os.getpid()) as memory:
            for k in range(args.warm_runs):
                path = variants[1 + k % (len(variants) - 1)]
                start = time.perf_counter()
                outputs = profile.read_outputs(path.read_bytes(), inputs, path.name)
                profile.score(outputs, references)
                warm.append(time.perf_counter() - start)
        median = statistics.median(warm)
        print(
            f"warm (long-lived scorer, new outputs each run): median {median:.2f} s wall, "
            f"peak {memory.peak / 2**30:.2f} GiB  (runs: "
            + ", ".join(f"{t:.2f}" for t in warm)
            + ")"
        )
        if official_median:
            print(
                f"vs the official script ({official_median:.1f} s in this run): cold "
                f"{official_median / statistics.median(t for t, _ in cold):.1f}x, "
                f"warm {official_median / median:.1f}x faster"
            )


def first_runs(runs: int) -> None:
    """``nlg-score --profile e2e`` on the dev LOO files, each run with a new cache folder."""
    refs, hyp = DATA / "dev_loo_refs.csv", DATA / "dev_loo_output.tsv"
    times, loads = [], []
    for _ in range(runs):
        loads.append(Path("/proc/loadavg").read_text().split()[0])
        with tempfile.TemporaryDirectory(prefix="nlgboard-cache-") as cache:
            times.append(cold_run(refs, hyp, cache=Path(cache))[0])
    print(
        f"first run (new cache folder: lexicon and tokeniser tables built): median "
        f"{statistics.median(times):.2f} s wall  (runs: "
        + ", ".join(f"{t:.2f} s at load {load}" for t, load in zip(times, loads, strict=True))
        + f"; {os.cpu_count()} cores)"
    )


def official_runs(
    work: Path, refs: Path, variants: list[Path], runs: int
) -> list[tuple[float, int, str]]:
    """The official script on the same files (skipped, saying so, without ../shared/oracles)."""
    from tests.support.coco_oracle import prepare

    oracle = DATA.parent.parent / "oracles" / "e2e-metrics"
    if not oracle.exists():
        print(f"official E2E script: not found at {oracle}, skipped")
        return []
    copy = prepare(oracle, work / "official")
    return [official_run(copy, refs, variants[k % len(variants)]) for k in range(runs)]


if __name__ == "__main__":
    main()
