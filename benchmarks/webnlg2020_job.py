"""A WebNLG+ 2020 upload scored as a board job, beside eval.py's time on the same files.

The English test set (``../shared/data/webnlg/2020/en/test``: 1,779 inputs and the
instance-types file) goes on a board as the example bundle's kind defines it
(``app/demo_data/webnlg``: BLEU, chrF++, TER and METEOR on nltk-punkt tokens, the three-way
split scored as subsets; BERTScore and BLEURT are left out here, their weights are not
installed). The test references are held back, so each entry's reference is written from its
triples (``tests/support/webnlg2020.py``: four each) and the uploads are generated from them (copies,
dropped/swapped/repeated words, blanks, odd characters: ``tests/support/webnlg_cases.py``).

* job: the worker's scoring path without the web (``worker.jobs.score_submission`` on a
  SQLite board, one process's ``JobsState`` as a worker keeps it): the first job reads and
  prepares the test set (cold), the next ones find it prepared (warm); the median of these;
* eval.py: its ``run`` (``-m bleu,meteor,chrf++,ter -nr 4``; BLEU as multi-bleu-detok.perl
  and NLTK's BLEU, METEOR by the jar, chrF++, TER by pyter3) on the same texts as parallel
  reference files, its functions taken from its source as the oracle tests take them (it
  imports BERTScore and BLEURT at load), punkt untrained (NLTK's data is not installed).

Usage: python benchmarks/webnlg2020_job.py [--runs 4] [--eval-runs 1]
"""

from __future__ import annotations

import argparse
import ast
import codecs
import copy
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import nltk
import pyter
import razdel
import yaml
from nltk.tokenize.punkt import PunktSentenceTokenizer
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

from tests.support.webnlg2020 import ENGLISH_TEST, english_test_folder
from tests.support.webnlg_cases import ORACLE_2020, outputs, without_splitlines_breaks

REFERENCES = 4


def eval_py_run() -> object:
    """eval.py's ``run`` and the functions it calls, from its source, with NLTK's punkt
    untrained and the METEOR 1.5 jar of pycocoevalcap."""
    import importlib.util

    from scorer.java.jars import coco_file

    spec = importlib.util.spec_from_file_location("chrF", ORACLE_2020 / "metrics" / "chrF.py")
    assert spec and spec.loader
    chrf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chrf)
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": PunktSentenceTokenizer()
    wanted = {"parse", "bleu_score", "bleu_nltk", "meteor_score", "chrF_score", "ter_score", "run"}
    tree = ast.parse((ORACLE_2020 / "eval.py").read_text())
    tree.body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    namespace: dict[str, object] = {
        "logging": logging, "codecs": codecs, "copy": copy, "os": os, "re": __import__("re"),
        "subprocess": subprocess, "nltk": nltk, "pyter": pyter, "tokenize": razdel.tokenize,
        "computeChrF": chrf.computeChrF, "corpus_bleu": corpus_bleu,
        "SmoothingFunction": SmoothingFunction,
        "BLEU_PATH": str(ORACLE_2020 / "metrics" / "multi-bleu-detok.perl"),
        "METEOR_PATH": str(coco_file("meteor/meteor-1.5.jar")),
    }  # fmt: skip
    exec(compile(tree, "eval.py", "exec"), namespace)
    return namespace["run"]


def bundle(folder: Path, uploads: list[list[str]]) -> Path:
    """The example bundle's kind on the test set, one upload per run."""
    definition = yaml.safe_load(
        (ROOT / "app" / "demo_data" / "webnlg" / "challenge.yaml").read_text()
    )
    english_test_folder(folder / "test")
    shutil.copy(ENGLISH_TEST, folder / "inputs.xml")
    definition["tracks"][0]["test_sets"] = [
        {"language": "en", "inputs": "inputs.xml", "references": "test/"}
    ]
    system = definition["systems"][0]
    system["submissions"] = []
    for run, lines in enumerate(uploads):
        (folder / f"upload{run}.txt").write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        system["submissions"].append({"language": "en", "file": f"upload{run}.txt"})
    (folder / "challenge.yaml").write_text(yaml.safe_dump(definition, allow_unicode=True))
    return folder


def board_jobs(folder: Path) -> tuple[list[float], dict[str, float]]:
    """Each upload scored by the worker's job function, in order, in one worker's state."""
    from sqlalchemy import select

    from app.data.config import Settings, default_database_url
    from app.data.db import session_scope
    from app.data.migrate import upgrade
    from app.data.models import Submission
    from app.data.storage import LocalStorage
    from app.web.services.bundles import Bundle, import_bundle
    from worker.embedded import EmbeddedQueue
    from worker.jobs import score_submission
    from worker.state import JobsState

    instance = folder / "instance"
    settings = Settings(instance_path=instance, database_url=default_database_url(instance))
    upgrade(settings.database_url)
    with session_scope(settings.database_url) as session:
        queue, storage = EmbeddedQueue(settings), LocalStorage(settings.uploads_path)
        import_bundle(session, queue, storage, Bundle.from_folder(folder))
        ids = list(session.scalars(select(Submission.id).order_by(Submission.id)))
    state, times = JobsState(), []
    for submission_id in ids:
        start = time.perf_counter()
        outcome = score_submission(submission_id, settings, lambda _: None, lambda _: None, state)
        times.append(time.perf_counter() - start)
        if outcome != "scored":
            raise SystemExit(f"submission {submission_id}: {outcome}")
    with session_scope(settings.database_url) as session:
        scores = session.get(Submission, ids[0]).scores  # type: ignore[union-attr]
        headline = {s.metric: s.value for s in scores if not s.subset}
    return times, headline


def eval_py_times(folder: Path, references: list[list[str]], uploads: list[list[str]], runs: int):
    """eval.py's ``run`` on each of the first ``runs`` uploads, as parallel files."""
    run = eval_py_run()
    stem = folder / "reference"
    for k in range(REFERENCES):
        lines = [refs[k] if k < len(refs) else "" for refs in references]
        (folder / f"reference{k}").write_text("\n".join(lines), encoding="utf-8")
    times, results = [], []
    here = Path.cwd()
    os.chdir(folder)  # chrF_score and meteor_score write their temporary files here
    try:
        for index in range(runs):
            hypothesis = folder / f"hypothesis{index}"
            hypothesis.write_text("\n".join(uploads[index]), encoding="utf-8")
            start = time.perf_counter()
            results.append(
                run(str(stem), str(hypothesis), REFERENCES, "en", "bleu,meteor,chrf++,ter")
            )  # type: ignore[operator]
            times.append(time.perf_counter() - start)
            print(f"  eval.py run {index + 1}: {times[-1]:.1f} s", flush=True)
    finally:
        os.chdir(here)
    return times, results[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4, help="uploads scored as jobs")
    parser.add_argument(
        "--eval-runs", type=int, default=1, help="eval.py runs (slow: pyter3); 0: the board only"
    )
    args = parser.parse_args()
    if not ENGLISH_TEST.exists():
        raise SystemExit(f"needs the WebNLG+ 2020 English test inputs at {ENGLISH_TEST}")
    logging.disable(logging.INFO)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        from scorer.kinds.parts import webnlg_references

        test = english_test_folder(folder / "made")
        items = webnlg_references((test / "test_with_lex.xml").read_bytes(), "test_with_lex.xml")
        references = [list(item.references) for item in items]
        uploads = [
            [without_splitlines_breaks(x) for x in outputs(references, 100 + run)]
            for run in range(max(args.runs, args.eval_runs))
        ]
        for lines in uploads:  # eval.py's METEOR file would lose a last empty line
            lines[-1] = lines[-1].strip() or references[-1][0]
        print(
            f"WebNLG+ 2020 English test set: {len(items):,} entries, {len(uploads)} uploads",
            flush=True,
        )
        times, headline = board_jobs(bundle(folder / "bundle", uploads[: args.runs]))
        warm = times[1:] or times
        print(
            f"board job (worker.jobs.score_submission, SQLite): first (cold) {times[0]:.2f} s; "
            f"median of the next {len(warm)} {statistics.median(warm):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)})"
        )
        print(
            "  upload 0: " + "  ".join(f"{m} {v:.4f}" for m, v in sorted(headline.items())),
            flush=True,
        )
        if args.eval_runs < 1:
            print("eval.py: not run (--eval-runs 0), so no ratio")
            return
        eval_times, result = eval_py_times(folder, references, uploads, args.eval_runs)
        print(
            f"eval.py run (bleu,meteor,chrf++,ter): median {statistics.median(eval_times):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in eval_times)})"
        )
        print("  upload 0: " + "  ".join(f"{m} {v:.4f}" for m, v in result.items()))
        print(
            f"ratio eval.py / board job: {statistics.median(eval_times) / statistics.median(warm):.1f}x"
            f" (warm); {statistics.median(eval_times) / times[0]:.1f}x (cold)"
        )


if __name__ == "__main__":
    main()
