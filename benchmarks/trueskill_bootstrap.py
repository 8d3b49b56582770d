"""TrueSkill over an E2E-sized RankME campaign (E2E Sect. 8.4): 2,979 rankings of five of 21
systems = 29,790 pairwise comparisons (naturalness: 4,239 -> 42,390), 200 runs, by the WMT
procedure (default) or the older bootstrap one. Ratings are simulated (the published file is not
here; scores in steps of five, some ties); the figure is seconds per analysis.

Usage: python benchmarks/trueskill_bootstrap.py [--repeats 5] [--runs 200] [--rankings 2979]
       [--procedure wmt|bootstrap]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.human import trueskill_rank


def simulated_rankings(rankings: int, systems: int = 21, seed: int = 0) -> list[dict[str, float]]:
    """Scores on a 0-100 slider in steps of five; the best systems often hit 100 and tie."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(115, 45, systems)
    rows = []
    for _ in range(rankings):
        chosen = rng.choice(systems, size=5, replace=False)
        scores = np.clip(np.round((quality[chosen] + rng.normal(0, 12, 5)) / 5) * 5, 0, 100)
        rows.append({f"sys{k:02d}": float(v) for k, v in zip(chosen, scores, strict=True)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--runs", type=int, default=trueskill_rank.RUNS)
    parser.add_argument("--rankings", type=int, default=2979)
    parser.add_argument("--procedure", choices=trueskill_rank.PROCEDURES, default="wmt")
    args = parser.parse_args()
    comparisons = trueskill_rank.pairwise(simulated_rankings(args.rankings))
    print(
        f"{args.rankings} rankings -> {len(comparisons)} comparisons of "
        f"{len(comparisons.systems)} systems, {comparisons.tie_share:.1%} ties; {args.runs} runs "
        f"({args.procedure})"
    )
    times = []
    for repeat in range(args.repeats):
        start = time.perf_counter()
        result = trueskill_rank.rank(
            comparisons, procedure=args.procedure, runs=args.runs, seed=repeat
        )
        times.append(time.perf_counter() - start)
        print(f"  run {repeat + 1}: {times[-1]:.2f} s, {result.rows[-1].cluster} clusters")
    print(f"median {statistics.median(times):.2f} s (min {min(times):.2f}, max {max(times):.2f})")


if __name__ == "__main__":
    main()
