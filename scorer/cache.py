"""The user's cache folder for resources built from the installed jars and tables.

Built files are named for the hash of what they were built from, so a reinstalled or changed
resource builds a new file instead of reusing a stale one. Hashing a 61 MB file takes ~0.15 s,
so each resource's hash is remembered against its path, size and modification time.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

T = TypeVar("T")

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


def built_file(
    name: str,
    sources: list[Path],
    suffix: str,
    build: Callable[[Path], None],
    what: str | None = None,
    seconds: float | None = None,
) -> Path:
    """The cached file ``name-<hashes>.suffix``, built by ``build(path)`` when missing.

    A build that takes long enough to be noticed (``what`` it makes, and about how many
    ``seconds`` on two cores) is announced on stderr when it really starts, so that a first run
    that pauses says why (a process waiting for another's build says nothing)."""
    key = "-".join(resource_hash(source) for source in sources)
    target = cache_folder() / f"{name}-v{BUILD_FORMAT}-{key}{suffix}"
    if not target.exists():
        try:
            # One builder at a time (test workers, worker processes): the others wait for it.
            with open(target.with_name(target.name + ".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not target.exists():
                    if what is not None:
                        announce_build(what, target.parent, seconds)
                    write_atomically(target, build)
        except OSError as error:
            raise RuntimeError(
                f"cannot build {target.name} in {target.parent} ({error.strerror}): point "
                "NLGBOARD_CACHE at a writable folder"
            ) from error
    return target


def announce_build(what: str, folder: Path, seconds: float | None) -> None:
    """One line on stderr: what is built, where, and roughly how long it takes: ``seconds`` on
    an idle machine, stretched by the load when there are more runnable processes than cores
    (the build runs on one core: at a load of 5 on 2 cores it took about twice as long)."""
    about = ""
    if seconds is not None:
        with contextlib.suppress(OSError, AttributeError):  # no load average (Windows)
            seconds *= max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
        about = f", about {seconds:.0f} s"
    print(
        f"nlgboard: building {what} in {folder} (first run on this machine{about})...",
        file=sys.stderr,
        flush=True,
    )


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


KEPT_SETS = 8
"""Test sets whose prepared references each metric keeps in the cache folder."""


@functools.cache
def code_fingerprint() -> str:
    """A hash of the scorer's source and the Python that runs it: a prepared value kept by one
    version of the code is never read by another (the package version changes too rarely)."""
    digest = hashlib.sha256(sys.version.encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def kept(
    name: str,
    key: str,
    build: Callable[[], T],
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> T:
    """``build()``, kept in the cache folder between processes under ``name`` and ``key`` (a
    test set's digest and what else the value depends on): a new ``nlg-score`` process, or a
    restarted worker, reads a test set's prepared references instead of preparing them again.
    Stored as ``marshal`` data (plain containers, numbers and strings; loading runs no code)
    in an owner-only file, since a board's references are hidden; the ``KEPT_SETS`` most
    recently used per name are kept."""
    fingerprint = hashlib.sha256(f"{code_fingerprint()}|{key}".encode()).hexdigest()[:32]
    path = None
    try:
        path = cache_folder() / f"prepared-{name}-{fingerprint}.marshal"
        value = decode(marshal.loads(path.read_bytes()))  # load(stream) is 4 times slower
        os.utime(path)  # recently used: the last to be forgotten
        return value
    except (OSError, EOFError, ValueError, TypeError, KeyError, IndexError):
        pass  # not kept yet, unreadable, or no cache folder: prepared (and kept) now
    value = build()
    if path is not None:
        with contextlib.suppress(OSError):
            write_private(path, lambda stream: marshal.dump(encode(value), stream))
            forget_old(path.parent, f"prepared-{name}-*.marshal", KEPT_SETS)
    return value


def write_private(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Through a temporary file readable by its owner only (mkstemp's 0600), renamed into
    place: what is derived from a board's hidden references stays as private as they are."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def forget_old(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` most recently used files matching ``pattern``."""
    found = []
    for path in folder.glob(pattern):
        with contextlib.suppress(OSError):
            found.append((path.stat().st_mtime, path))
    for _, path in sorted(found)[:-keep]:
        with contextlib.suppress(OSError):
            path.unlink()
