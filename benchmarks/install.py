"""The participants' install as on a new machine: ``pip install <checkout>`` (the core, no
extras) into a new venv with an empty pip cache, timed and sized, with where the time went;
``--board``: the board's (``pip install <checkout> <checkout>/server``). Each distribution's
wheel size first.

Each run copies this working tree (its tracked and unignored files: pip builds in the source
folder), makes a venv with ``python -m venv`` (not timed: the participant has one) and runs the
venv's own pip with ``PIP_CACHE_DIR`` a new empty folder. Phases come from the time pip prints
its progress lines: preparing the project (its build backend's isolated environment and
metadata), resolving and downloading (with any source distribution's build environment),
building wheels, installing (unpacking and, unless ``--no-compile``, byte-compiling). The size
is what the install added to the venv.

Usage: python benchmarks/install.py [--repeats 3] [--board] [--extras human] [--no-compile]
       [--keep-log DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.source_tree import copy_source

PHASES = ("project", "resolve+download", "build wheels", "install")
MARKERS = (
    (re.compile(r"\(from nlgboard"), "resolve+download"),
    (re.compile(r"^Building wheels for collected packages"), "build wheels"),
    (re.compile(r"^Installing collected packages"), "install"),
)
"""The line that starts each phase after the first (the project's own build environment and
metadata): its first dependency, the first wheel built, the install."""


@dataclass
class Run:
    wall: float
    cpu: float
    megabytes: float
    phases: dict[str, float] = field(default_factory=dict)
    built: list[str] = field(default_factory=list)


def tree_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def targets(source: Path, extras: str, board: bool) -> list[str]:
    """What pip installs: the participants' distribution (the root), with the board's
    (``server/``) beside it for ``--board``; the extras go to the last one."""
    projects = [str(source), str(source / "server")] if board else [str(source)]
    if extras:
        projects[-1] += f"[{extras}]"
    return projects


def wheel_sizes(board: bool) -> dict[str, float]:
    """Each distribution's wheel, built as a release builds it (MB)."""
    with tempfile.TemporaryDirectory() as work:
        source, out = Path(work) / "src", Path(work) / "dist"
        copy_source(source)
        for project in targets(source, "", board):
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--disable-pip-version-check", "-w", str(out), project],
                           check=True)  # fmt: skip
        return {wheel.name: wheel.stat().st_size / 1e6 for wheel in sorted(out.glob("*.whl"))}


def one_run(extras: str, board: bool, no_compile: bool, keep_log: Path | None, number: int) -> Run:
    with tempfile.TemporaryDirectory() as work:
        source, venv = Path(work) / "src", Path(work) / "venv"
        copy_source(source)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        before = tree_size(venv)
        command = [str(venv / "bin" / "pip"), "install", "--disable-pip-version-check",
                   *targets(source, extras, board)]  # fmt: skip
        if no_compile:
            command.insert(2, "--no-compile")
        env = {**os.environ, "PIP_CACHE_DIR": str(Path(work) / "pip-cache")}
        env.pop("PIP_NO_CACHE_DIR", None)
        lines: list[tuple[float, str]] = []
        cpu = children_cpu()
        started = time.perf_counter()
        with subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        ) as pip:
            assert pip.stdout is not None
            for line in pip.stdout:
                lines.append((time.perf_counter() - started, line.rstrip()))
        wall = time.perf_counter() - started
        if pip.returncode:
            raise SystemExit("pip failed:\n" + "\n".join(text for _, text in lines[-30:]))
        run = Run(wall, children_cpu() - cpu, (tree_size(venv) - before) / 1e6)
        run.phases, run.built = phases(lines, wall)
        if keep_log:
            keep_log.mkdir(parents=True, exist_ok=True)
            (keep_log / f"install-{number}.log").write_text(
                "".join(f"{at:7.2f} {text}\n" for at, text in lines), encoding="utf-8"
            )
        return run


def phases(lines: list[tuple[float, str]], wall: float) -> tuple[dict[str, float], list[str]]:
    """Seconds per phase from the first line of each, and the source distributions built."""
    starts = {"project": 0.0}
    built = []
    for at, text in lines:
        for pattern, phase in MARKERS:
            if phase not in starts and pattern.search(text):
                starts[phase] = at
        if match := re.match(r"^\s*Building wheel for (\S+) .*started", text):
            built.append(match.group(1))
    ordered = [(phase, starts[phase]) for phase in PHASES if phase in starts]
    ends = [at for _, at in ordered[1:]] + [wall]
    return {phase: end - at for (phase, at), end in zip(ordered, ends, strict=True)}, built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--extras", default="", help="e.g. human (default: the core)")
    parser.add_argument("--board", action="store_true", help="the board: pip install . ./server")
    parser.add_argument("--no-compile", action="store_true", help="pip install --no-compile")
    parser.add_argument("--keep-log", type=Path, help="write each run's timed pip output here")
    args = parser.parse_args()
    extras = f"[{args.extras}]" if args.extras else ""
    what = (
        ("pip install . ./server" if args.board else "pip install .")
        + extras
        + (" --no-compile" if args.no_compile else "")
    )
    for wheel, megabytes in wheel_sizes(args.board).items():
        print(f"wheel {wheel}: {megabytes:.2f} MB")
    print(f"{what}: new venv, empty pip cache; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")  # fmt: skip
    runs = []
    for number in range(1, args.repeats + 1):
        run = one_run(args.extras, args.board, args.no_compile, args.keep_log, number)
        runs.append(run)
        split = ", ".join(f"{phase} {seconds:.1f}" for phase, seconds in run.phases.items())
        print(f"  run {number}: {run.wall:.1f} s (CPU {run.cpu:.1f} s; {split}), "
              f"{run.megabytes:.0f} MB; built from source: {', '.join(run.built)}")  # fmt: skip
    print(f"median {statistics.median(r.wall for r in runs):.1f} s "
          f"(CPU {statistics.median(r.cpu for r in runs):.1f} s), "
          f"{statistics.median(r.megabytes for r in runs):.0f} MB added to the venv; "
          f"load average now {os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
