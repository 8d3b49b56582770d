"""What the track page's significance groups and interval plot cost, on real E2E dev data.

21 stand-in systems (real outputs are held back): 12 variants of the dev leave-one-out outputs
with every k-th word dropped, and 9 systems that draw one dev reference per MR with their own
seed. Each system's per-item statistics are computed once (as the worker stores them); then,
timed: resampling each system's normalised average on 1,000 shared bootstrap resamples (what
the page caches per submission), the rank groups from them (paired bootstrap, leader against
the rest, repeated on what is left), and drawing the bar chart with the 95% intervals. Without
cached resamples this is a first view's cost; afterwards only a new submission's own share.

Usage: python benchmarks/leaderboard_significance.py [--repeats 3]
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

from app.web.services.plots import metric_bars
from app.web.services.rank_groups import metric_ids_for, rank_groups, resample
from scorer.compare.similarity import overlap_profile
from scorer.io.e2e import read_dataset_csv, read_outputs
from scorer.kinds import get_profile
from scorer.metrics import normalised_average as norm_avg
from scorer.references import ReferenceSet

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"
COLUMN = norm_avg.NAME


def systems(items, loo_outputs) -> dict[str, list[str]]:
    found = {}
    for drop_every in range(12):
        found[f"drop-{drop_every}"] = [
            " ".join(
                w for k, w in enumerate(text.split(), 1) if not drop_every or k % (drop_every + 2)
            )
            for text in loo_outputs
        ]
    for seed in range(9):
        found[f"ref-{seed}"] = [random.Random(seed).choice(item.references) for item in items]
    return found


def median_time(function, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"needs the E2E dev data at {DATA}")
    items = read_dataset_csv((DATA / "dev_loo_refs.csv").read_bytes())
    loo_outputs, _ = read_outputs((DATA / "dev_loo_output.tsv").read_bytes())
    references = ReferenceSet((i.references for i in items), inputs=[i.input for i in items])
    profile = get_profile("e2e")
    profile.warm_up()
    ids = metric_ids_for(profile, COLUMN)
    scoring = overlap_profile(profile)  # the five metrics the normalised average needs
    start = time.perf_counter()
    stats = {}
    scores = {}
    for number, (name, outputs) in enumerate(systems(items, loo_outputs).items(), 1):
        computed = scoring.statistics([profile.normalise(t) for t in outputs], references)
        stats[number] = {i: computed[i] for i in ids}
        scores[number] = (name, profile.scores_from_statistics(stats[number])[COLUMN])
    prepared = time.perf_counter() - start
    order = sorted(scores, key=lambda k: -scores[k][1])
    print(
        f"{len(order)} systems x {len(items)} dev MRs: statistics computed in {prepared:.0f} s "
        f"(the worker does this while scoring; not part of a page view)"
    )
    resample_time, resampled = median_time(
        lambda: {k: resample(profile, stats[k], COLUMN) for k in order}, args.repeats
    )
    print(
        f"resampling {len(order)} systems ({COLUMN}, 1,000 shared resamples; cached per "
        f"submission afterwards): median {resample_time:.2f} s"
    )
    groups_time, groups = median_time(lambda: rank_groups(order, resampled), args.repeats)
    print(
        f"rank groups from the resamples: median {groups_time * 1000:.1f} ms; "
        f"{max(groups.values())} groups, sizes "
        f"{[list(groups.values()).count(g) for g in range(1, max(groups.values()) + 1)]}"
    )
    intervals = [resampled[k].interval for k in order]
    draw_time, svg = median_time(
        lambda: metric_bars(
            COLUMN,
            [scores[k][0] for k in order],
            [scores[k][1] for k in order],
            intervals,
            [False] * len(order),
        ),
        args.repeats,
    )
    print(f"bar chart SVG ({len(svg) / 1024:.0f} kB): median {draw_time:.2f} s")
    for k in order[:5]:
        print(f"  {scores[k][0]:<8} {COLUMN} {scores[k][1]:.4f}  group {groups[k]}")


if __name__ == "__main__":
    main()
