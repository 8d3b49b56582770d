"""System-output similarity (E2E paper Sect. 8.3) on real dev data: how long the pairwise matrix
takes. Systems are stand-ins (each draws one dev reference per MR with its own seed), since real
system outputs are held back; the figure that matters is seconds per ordered pair.

Usage: python benchmarks/e2e_similarity.py [--systems 4]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.compare.similarity import similarity_matrix
from scorer.io.e2e import read_dataset_csv
from scorer.kinds import get_profile
from scorer.references import ReferenceSet

DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", ROOT.parent / "shared" / "data")) / "e2e"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=4)
    args = parser.parse_args()
    if not DATA.exists():
        raise SystemExit(f"needs the E2E dev data at {DATA}")
    items = read_dataset_csv((DATA / "devset.csv").read_bytes())
    references = ReferenceSet((i.references for i in items), inputs=[i.input for i in items])
    systems = {
        f"S{k}": [random.Random(k).choice(item.references) for item in items]
        for k in range(args.systems)
    }
    profile = get_profile("e2e")
    profile.warm_up()
    start = time.perf_counter()
    matrix = similarity_matrix(profile, systems, references)
    elapsed = time.perf_counter() - start
    pairs = sum(v is not None for row in matrix.values for v in row)
    print(
        f"{args.systems} systems x {len(items)} outputs: {pairs} ordered pairs (with the two "
        f"reference rows) in {elapsed:.1f} s, {elapsed / pairs:.2f} s per pair; "
        f"21 systems (E2E) would take ~{21 * 22 * elapsed / pairs / 60:.0f} min"
    )
    for name in matrix.tested:
        print(f"  {name}: mean similarity {matrix.mean(name):.4f}")


if __name__ == "__main__":
    main()
