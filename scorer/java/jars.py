"""Locating Java and the jars shipped in ``pycocoevalcap`` (METEOR 1.5, Stanford CoreNLP 3.4.1)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from scorer.errors import JavaMissing


def java_binary() -> str:
    found = shutil.which("java")
    if found is None:
        raise JavaMissing(
            "the official jars (NLGBOARD_METEOR=jar, --meteor jar) need a Java runtime: install "
            "Debian's openjdk-17-jre-headless (or any Java 8+), or use the default Python "
            "implementation, which gives the same numbers"
        )
    return found


def coco_file(relative: str) -> Path:
    """A file shipped in the pycocoevalcap package, e.g. ``meteor/meteor-1.5.jar``."""
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("pycocoevalcap is not installed: pip install pycocoevalcap==1.2")
    # A namespace package (no __init__.py): take its one folder.
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: reinstall pycocoevalcap==1.2")
    return path
