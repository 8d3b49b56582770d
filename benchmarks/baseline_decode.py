"""Decoding speed of the bundled baselines trained here (instance/baselines/<name>/).

TGen: the 630 E2E test MRs (beam 10 + reranker); bi-LSTM: the first 200 PMB 5 dev SBNs (beam
10, up to 300 characters). Each run loads the model and decodes every input, as
``nlgboard baselines decode`` does (loading takes well under a second); the figure is the median
of the runs, with inputs per second. Training times are not benchmarked here: a full
training takes 20-75 minutes and ``nlgboard baselines train`` records its own (training.json).

Usage: python benchmarks/baseline_decode.py [--runs 3] [--threads 1] [--only tgen|bilstm]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch

from baselines import registry

INPUTS = {
    "tgen": ("e2e/testset_inputs.csv", None),
    "bilstm": ("drs/pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn", 200),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", choices=sorted(INPUTS))
    parser.add_argument("--instance", type=Path, default=ROOT / "instance")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    for name, (relative, limit) in INPUTS.items():
        if args.only and name != args.only:
            continue
        model_dir = registry.model_dir(args.instance, name)
        path = registry.SHARED_DATA / relative
        if not (model_dir / registry.REPORT_FILE).exists() or not path.exists():
            print(f"{name}: skipped (no trained model in {model_dir} or no {path})")
            continue
        baseline = registry.BASELINES[name]
        inputs = baseline.read_inputs(path)[:limit]
        baseline.decode(model_dir, inputs[:5])  # load and warm up
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            baseline.decode(model_dir, inputs)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        print(
            f"{name}: {len(inputs)} inputs in {median:.1f} s (median of {args.runs}), "
            f"{len(inputs) / median:.1f} inputs/s, {args.threads} thread(s)"
        )


if __name__ == "__main__":
    main()
