"""Derived files (plots, significance groups) kept under the instance folder, named by the
hash of everything they are computed from: changed scores give a new name, so nothing is ever
served stale and nothing needs invalidating."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


class FileCache:
    def __init__(self, root: Path):
        self.root = root

    def get_or_make(self, kind: str, key: object, suffix: str, make: Callable[[], bytes]) -> bytes:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()
        path = self.root / kind / f"{digest}{suffix}"
        if path.exists():
            return path.read_bytes()
        data = make()
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
            handle.write(data)
        os.replace(handle.name, path)
        return data
