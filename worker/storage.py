"""Content-addressed file store for uploads: a file is kept under its sha256."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


class LocalStorage:
    """Files under ``root/ab/abcdef...``; writing the same content twice stores it once."""

    def __init__(self, root: Path):
        self.root = root

    def put(self, data: bytes) -> str:
        digest = hashlib.sha256(data).hexdigest()
        path = self._path(digest)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as handle:
                handle.write(data)
            os.replace(handle.name, path)
        return digest

    def get(self, digest: str) -> bytes:
        return self._path(digest).read_bytes()

    def _path(self, digest: str) -> Path:
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"not a sha256 digest: {digest!r}")
        return self.root / digest[:2] / digest
