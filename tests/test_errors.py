"""One errors module per layer (ARCHITECTURE.md, "Errors"): every exception class of the
scorer, the data layer, the web layer and the worker is defined in its layer's ``errors.py``,
where a reader looks for what a layer may raise. Read from the source (nothing imported)."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ERRORS_MODULES = {"scorer/errors.py", "app/data/errors.py", "app/web/errors.py", "worker/errors.py"}
CLI_EXIT = "ClickException"
"""A command's way to exit with a message (click's): the CLI's, not an error others catch."""


def _classes() -> list[tuple[str, str, list[str]]]:
    """(module path, class name, base names) of every class in the layers' packages."""
    found = []
    for package in ("scorer", "app", "worker"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    bases = [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]
                    found.append((path.relative_to(ROOT).as_posix(), node.name, bases))
    return found


def _exception_classes() -> list[tuple[str, str, list[str]]]:
    """The classes that derive from an exception, builtin or ours, however indirectly."""
    known = {name for name, value in vars(builtins).items()
             if isinstance(value, type) and issubclass(value, BaseException)}  # fmt: skip
    known |= {CLI_EXIT, "HTTPException"}
    classes = _classes()
    while True:
        more = {name for _, name, bases in classes if set(bases) & known} - known
        if not more:
            return [c for c in classes if set(c[2]) & known]
        known |= more


def test_every_exception_class_is_in_its_layers_errors_module():
    stray = [
        f"{module}: {name}({', '.join(bases)})"
        for module, name, bases in _exception_classes()
        if module not in ERRORS_MODULES
        and not (module.startswith("scorer/cli/") and bases == [CLI_EXIT])
    ]
    assert not stray, "exception classes outside the errors modules:\n" + "\n".join(stray)
