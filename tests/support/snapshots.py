"""Worlds built once per test process, then copied into each test's instance folder.

Building a world (accounts, uploads scored by the embedded worker) takes about a second; copying
its database (sqlite3's backup API) and upload folder takes milliseconds. Each test still gets
its own copy to change as it likes.
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TypeVar

from flask import Flask

from app.data.config import Settings

T = TypeVar("T")
DATABASE = "nlgboard.sqlite3"
_BUILT: dict[str, tuple[Path, object]] = {}


def restored(name: str, settings: Settings, build: Callable[[Flask, Settings], T]) -> T:
    """``build(app, settings)``'s world in the test's instance folder (SQLite only)."""
    from tests.conftest import make_app, make_settings

    if name not in _BUILT:
        folder = Path(tempfile.mkdtemp(prefix=f"nlgboard-{name}-"))
        atexit.register(shutil.rmtree, folder, True)
        template = make_settings(folder / "instance")
        result = build(make_app(template, WTF_CSRF_ENABLED=False), template)
        _BUILT[name] = (template.instance_path, result)
    source, result = _BUILT[name]
    target = settings.instance_path
    target.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.is_dir():
            shutil.copytree(entry, target / entry.name, dirs_exist_ok=True)
    with (
        closing(sqlite3.connect(source / DATABASE)) as original,
        closing(sqlite3.connect(target / DATABASE)) as copy,
    ):
        original.backup(copy)
    return result  # type: ignore[return-value]
