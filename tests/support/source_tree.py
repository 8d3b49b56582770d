"""The checkout's files as a release or an image is built from them: the tracked and unignored
ones (uncommitted changes included), never what an earlier build left in the tree (a stale
egg-info's file list would hide a missing package-data entry). Used by the install tests and
``benchmarks/install.py``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def source_files(*pathspecs: str) -> list[str]:
    """Paths (relative to the checkout) of its tracked and unignored files under
    ``pathspecs`` (all without), links included as links (``server/``'s)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *pathspecs],
        cwd=PROJECT_ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    return [
        n for n in listed if n and ((PROJECT_ROOT / n).is_symlink() or (PROJECT_ROOT / n).is_file())
    ]


def copy_file(name: str, destination: Path) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(PROJECT_ROOT / name, destination, follow_symlinks=False)


def copy_source(target: Path) -> None:
    """The whole source tree into ``target``; outside a git checkout, the folder less what
    builds and runs leave in it."""
    if not (PROJECT_ROOT / ".git").exists():
        ignored = shutil.ignore_patterns("*.egg-info", "build", ".venv", "__pycache__", "*.so")
        shutil.copytree(PROJECT_ROOT, target, symlinks=True, ignore=ignored)
        return
    for name in source_files():
        copy_file(name, target / name)
