"""Running the official E2E BLEU/NIST script (a test oracle) and reading what it computed.

``e2e-mteval REFS HYP --keep DIR`` leaves mteval's per-segment statistics log, one line per
segment (once for NIST, once more for BLEU): reference slots | closest reference length |
matches 1-9 | test n-grams 1-9 | reference n-grams 1-9 | test info 1-9 | reference info 1-9 | id.
Comparing those lines with our statistics rows checks every segment, not just a corpus figure.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.metrics import mteval


@dataclass(frozen=True)
class OracleRun:
    bleu: float
    nist: float
    items: int
    segments: list[list[float]]
    """Per segment: matches 1-5, test n-grams 1-5, test info 1-5, closest reference length."""


def run_tool(command: list[str], what: str, timeout: int = 900) -> str:
    """Run an official tool; its standard output, or a failure showing the end of its errors."""
    out = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if out.returncode != 0:
        raise AssertionError(f"{what} failed:\n{out.stderr[-2000:]}")
    return out.stdout


def run_oracle(runner: Path, refs: Path, hyp: Path, keep: Path) -> OracleRun:
    command = [str(runner), str(refs), str(hyp), "--keep", str(keep)]
    figures = json.loads(run_tool(command, f"the mteval oracle on {hyp.name}"))
    lines = (keep / "mteval_log.txt").read_text(encoding="utf-8").splitlines()
    segments = []
    for line in lines[: figures["items"]]:
        fields = [part.split() for part in line.split("|")]
        matches, tests, info = fields[2][:5], fields[3][:5], fields[5][:5]
        segments.append([float(x) for x in [*matches, *tests, *info, fields[1][0]]])
    return OracleRun(figures["BLEU"], figures["NIST"], figures["items"], segments)


def differing_segments(ours: np.ndarray, oracle: OracleRun) -> list[int]:
    """Positions whose counts or closest length differ, or whose information differs > 1e-6."""
    columns = [*range(10), mteval.CLOSEST_REF_LENGTH]
    info = slice(10, 15)
    differing = []
    for index, expected in enumerate(oracle.segments):
        row = ours[index]
        counts_equal = [row[c] for c in columns] == [*expected[0:10], expected[15]]
        info_equal = np.allclose(row[info], expected[10:15], rtol=0, atol=1e-6)
        if not (counts_equal and info_equal):
            differing.append(index)
    return differing


def same_to_4_decimals(ours: float, printed: float) -> bool:
    """mteval prints 4 decimals; ours rounds to the same figure (half a unit of slack for
    binary floating point at an exact .00005 boundary)."""
    return abs(ours - printed) <= 0.00005 + 1e-9
