"""Running the WebNLG Challenge 2017 evaluation (a test oracle) on generated files.

``run_evaluation`` lays out a folder as the organisers' scripts expect it (``data-challenge/
testdata_with_lex.xml``, ``submissions/<team>.txt`` for the 9 file names evaluation.py
hard-codes) and runs their ``evaluation.py`` unchanged: it writes the normalised reference
files (``references/``) and outputs (``teams/``) for all / seen / unseen, 15 categories and
7 sizes. ``natsort``, which evaluation.py imports, is not installed here: a stand-in with its
default order for ``Id<n>`` keys is put beside it. The metric tools then run on those files as
``bleu_eval_3ref.sh``, ``meteor_eval.sh`` and ``ter_eval.sh`` run them.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from tests.support.mteval_oracle import run_tool
from tests.support.webnlg_cases import ORACLE_2017, lex_texts, outputs, test_like_xml, write_lines

SUBMISSIONS = (
    ("adaptcentre", "ADAPT_Centre"),
    ("melbourne", "GKB_Unimelb"),
    ("pkuwriter", "PKUWriter"),
    ("tilburg-nmt", "Tilburg_University-1"),
    ("tilburg-smt", "Tilburg_University-2"),
    ("tilburg-template", "Tilburg_University-3"),
    ("uit-vietnam", "UIT-DANGNT-CLNLP"),
    ("upf-forge", "UPF-TALN"),
    ("baseline_sorted", "Baseline"),
)
"""evaluation.py's input file names and the team names it writes files under."""

CATEGORIES = (
    "Astronaut",
    "Airport",
    "Monument",
    "University",
    "Food",
    "SportsTeam",
    "City",
    "Building",
    "WrittenWork",
    "ComicsCharacter",
    "Politician",
    "Athlete",
    "MeanOfTransportation",
    "Artist",
    "CelestialBody",
)
PARAMS = ("all-cat", "old-cat", "new-cat", *CATEGORIES, *(f"{n}size" for n in range(1, 8)))
"""The subsets the 2017 scripts score (``tracks`` in the shell scripts)."""

NATSORT_STAND_IN = """import re


def natsorted(seq, key=None, reverse=False):
    def natural(value):
        return [int(p) if p.isdigit() else p for p in re.split(r"(\\d+)", value)]

    return sorted(seq, key=lambda x: natural(key(x) if key else x), reverse=reverse)
"""


@dataclass(frozen=True)
class EvaluationRun:
    folder: Path
    xml: bytes
    outputs: dict[str, list[str]]
    """Team name -> its raw outputs, one per entry."""

    def team_file(self, team: str, param: str, suffix: str = "") -> Path:
        return self.folder / "teams" / f"{team}_{param}{suffix}.txt"

    def reference(self, param: str, name: str) -> Path:
        return self.folder / "references" / f"gold-{param}-{name}"


def run_evaluation(folder: Path, seed: int) -> EvaluationRun:
    for name in ("evaluation.py", "benchmark_reader.py", "multi-bleu.perl"):
        shutil.copy(ORACLE_2017 / name, folder / name)
    (folder / "natsort.py").write_text(NATSORT_STAND_IN)
    for sub in ("data-challenge", "submissions", "references", "teams", "eval"):
        (folder / sub).mkdir()
    xml = test_like_xml(seed)
    (folder / "data-challenge" / "testdata_with_lex.xml").write_bytes(xml)
    references = lex_texts(xml)
    produced = {}
    for number, (file_name, team) in enumerate(SUBMISSIONS):
        produced[team] = outputs(references, seed * 100 + number)
        write_lines(folder / "submissions" / f"{file_name}.txt", produced[team])
    result = subprocess.run(
        [sys.executable, "evaluation.py"], cwd=folder, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise AssertionError(f"evaluation.py failed:\n{result.stderr[-2000:]}")
    return EvaluationRun(folder, xml, produced)


def multi_bleu(script: Path, references: list[Path], hypotheses: Path) -> str:
    """``multi-bleu.perl -lc REF0 REF1 REF2 < HYP`` as bleu_eval_3ref.sh runs it: its line."""
    command = ["perl", str(script), "-lc", *map(str, references)]
    with hypotheses.open("rb") as stdin:
        out = subprocess.run(command, stdin=stdin, capture_output=True, check=False)
    return out.stdout.decode().strip()


def widened_copy(script: Path, folder: Path) -> Path:
    """A copy of a multi-bleu script printing BLEU with 17 significant digits instead of 2
    (its computation untouched), to compare the figure itself and not only its rounding."""
    text = script.read_text()
    widened = text.replace('printf "BLEU = %.2f, ', 'printf "BLEU = %.17g, ')
    assert widened != text
    copy = folder / f"widened-{script.name}"
    copy.write_text(widened)
    return copy


def bleu_of(line: str) -> float:
    match = re.match(r"BLEU = ([^,]+),", line)
    assert match, line
    return float(match.group(1))


def meteor_final_score(jar: Path, hypotheses: Path, references: Path, count: int) -> float:
    """``java -Xmx2G -jar meteor-1.5.jar HYP REF -l en -norm -r N`` as meteor_eval.sh runs it:
    its "Final score"."""
    command = ["java", "-Xmx2G", "-jar", str(jar), str(hypotheses), str(references)]
    out = run_tool([*command, "-l", "en", "-norm", "-r", str(count)], "the METEOR jar")
    match = re.search(r"^Final score:\s+(\S+)$", out, re.MULTILINE)
    assert match, out[-500:]
    return float(match.group(1))


def meteor_segment_statistics(
    jar: Path, hypotheses: Path, references: Path, count: int
) -> list[list[float]]:
    """The same run with ``-ssOut``: each output's 23 statistics."""
    command = ["java", "-Xmx2G", "-jar", str(jar), str(hypotheses), str(references)]
    out = run_tool([*command, "-l", "en", "-norm", "-r", str(count), "-ssOut"], "the METEOR jar")
    return [[float(x) for x in line.split()] for line in out.splitlines()]


def read_tercom_file(path: Path) -> dict[str, list[str]]:
    """A tercom ``trans`` file (``text (id)`` per line): id -> its texts, in file order."""
    segments: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        match = re.match(r"^(.*?)\s*\(([^()]*)\)\s*$", line)
        assert match, line
        segments.setdefault(match.group(2), []).append(match.group(1))
    return segments


def script_functions(
    source: Path, names: Collection[str], namespace: dict[str, object]
) -> dict[str, object]:
    """The top-level functions ``names`` of an official script's source (its code itself,
    without what it runs as a program), defined in ``namespace``: the names they use."""
    tree = ast.parse(source.read_text())
    tree.body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    exec(compile(tree, source.name, "exec"), namespace)
    return namespace
