"""Where the shared real data lives, and skipping cleanly when it is absent."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
E2E_DATA = SHARED_DATA / "e2e"
DEMO_DATA = PROJECT_ROOT / "app" / "demo_data"


def e2e_file(name: str) -> Path:
    """A file of ../shared/data/e2e, or skip: a clone of the project alone still passes."""
    path = E2E_DATA / name
    if not path.exists():
        pytest.skip(
            f"real E2E data not found at {path} (the shared data folder is not beside the repo)"
        )
    return path


def require_binary(name: str, *candidates: str) -> str:
    """Find a server binary; in CI a missing one is a failure (.ci/run installs it), not a skip."""
    for candidate in (name, *candidates):
        found = shutil.which(candidate) or (candidate if Path(candidate).is_file() else None)
        if found:
            return found
    message = f"{name} is not installed (Debian package; .ci/run installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
