"""The user's cache folder for resources built from the installed jars and tables.

Built files are named for the hash of what they were built from, so a reinstalled or changed
resource builds a new file instead of reusing a stale one. Hashing a 61 MB file takes ~0.15 s,
so each resource's hash is remembered against its path, size and modification time.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

BUILD_FORMAT = 2
"""Bumped when the layout of a built file changes, so old builds are not read."""


def cache_folder() -> Path:
    """``$NLGBOARD_CACHE``, else ``$XDG_CACHE_HOME/nlgboard``, else ``~/.cache/nlgboard``."""
    configured = os.environ.get("NLGBOARD_CACHE")
    if configured:
        folder = Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = Path(base) / "nlgboard"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def resource_hash(path: Path) -> str:
    """The SHA-256 of ``path`` (first 16 hex digits), remembered per path, size and mtime."""
    stat = path.stat()
    memo_file = cache_folder() / "hashes.json"
    key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    try:
        memo = json.loads(memo_file.read_text())
    except (OSError, ValueError):
        memo = {}
    if key not in memo:
        digest = hashlib.sha256()
        with path.open("rb") as stream:
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
        memo[key] = digest.hexdigest()[:16]
        with contextlib.suppress(OSError):  # a read-only cache (an image's): hash again next time
            write_atomically(memo_file, lambda target: target.write_text(json.dumps(memo)))
    return str(memo[key])


def built_file(name: str, sources: list[Path], suffix: str, build: Callable[[Path], None]) -> Path:
    """The cached file ``name-<hashes>.suffix``, built by ``build(path)`` when missing."""
    key = "-".join(resource_hash(source) for source in sources)
    target = cache_folder() / f"{name}-v{BUILD_FORMAT}-{key}{suffix}"
    if not target.exists():
        try:
            # One builder at a time (test workers, worker processes): the others wait for it.
            with open(target.with_name(target.name + ".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not target.exists():
                    write_atomically(target, build)
        except OSError as error:
            raise RuntimeError(
                f"cannot build {target.name} in {target.parent} ({error.strerror}): point "
                "NLGBOARD_CACHE at a writable folder"
            ) from error
    return target


def write_atomically(target: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file in the same folder, so readers never see half a file
    (two processes building at once both succeed; the last rename wins)."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would keep other users of a shared cache out
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
