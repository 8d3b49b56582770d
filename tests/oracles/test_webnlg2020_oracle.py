"""The WebNLG+ 2020 metrics against the official ``eval.py`` (``../shared/oracles/
webnlg-2020-eval``): its own ``bleu_score`` (``multi-bleu-detok.perl``), ``chrF_score``
(``metrics/chrF.py``) and ``ter_score`` (``pyter3``), run unchanged on parallel reference files
and outputs made from the 2017 dev set (up to 4 references an item, generated outputs).

``eval.py`` cannot be imported here (it loads BERTScore and BLEURT at import, and its ``parse``
wants NLTK's punkt data): its metric functions are taken from its source and run as they are,
on the lists ``parse`` would build (references read as ``f.read().split('\\n')`` from files
without a final line break). Tokenisation is a track's normalisation, not a metric's, so the
texts are given as they are to every metric on both sides.

Also: ``multi-bleu.perl`` with and without ``-lc`` on raw (mixed-case, non-ASCII) text, and
the METEOR jar in its plain-text mode with ``-r 4`` (the metric's jar switch) against the port.
"""

from __future__ import annotations

import codecs
import functools
import importlib.util
import logging
import os
import random
import subprocess
from pathlib import Path
from types import ModuleType

import numpy as np
import pyter
import pytest

from scorer.io.layouts import read_parallel
from scorer.java import implementation
from scorer.metrics import get_metric
from scorer.metrics.meteor_files import jar_statistics
from scorer.references import ReferenceSet
from tests.support.paths import require_binary, shared_file
from tests.support.webnlg_cases import (
    ORACLE_2017,
    ORACLE_2020,
    dev_entries,
    outputs,
    without_splitlines_breaks,
)
from tests.support.webnlg_oracle import bleu_of, multi_bleu, script_functions, widened_copy

pytestmark = pytest.mark.oracle

REFERENCES = 4


@functools.cache
def chrf_module() -> ModuleType:
    path = shared_file(ORACLE_2020 / "metrics" / "chrF.py")
    spec = importlib.util.spec_from_file_location("webnlg2020_chrF", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def eval_functions() -> dict[str, object]:
    """``bleu_score``, ``chrF_score`` and ``ter_score`` from eval.py's source, with the names
    they use."""
    wanted = {"bleu_score", "chrF_score", "ter_score"}
    namespace: dict[str, object] = {
        "logging": logging,
        "codecs": codecs,
        "os": os,
        "re": __import__("re"),
        "subprocess": subprocess,
        "pyter": pyter,
        "computeChrF": chrf_module().computeChrF,
        "BLEU_PATH": str(ORACLE_2020 / "metrics" / "multi-bleu-detok.perl"),
    }
    return script_functions(shared_file(ORACLE_2020 / "eval.py"), wanted, namespace)


def dev_case(seed: int, size: int | None = None) -> tuple[list[list[str]], list[str]]:
    """Items with 1-4 references (some dropped at random, leaving gaps in the files) and an
    output each."""
    rng = random.Random(seed)
    entries = dev_entries() if size is None else rng.sample(dev_entries(), size)
    references = []
    for entry in entries:
        texts = [lex.text or "" for lex in entry.iter("lex")][:REFERENCES]
        references.append([t if rng.random() > 0.15 or i == 0 else "" for i, t in enumerate(texts)])
    produced = outputs([[r for r in refs if r] for refs in references], seed)
    return references, [without_splitlines_breaks(text) for text in produced]


def write_parallel(folder: Path, references: list[list[str]], hypotheses: list[str]) -> Path:
    """reference0..3 and the hypothesis file, one line per item, no final line break."""
    for k in range(REFERENCES):
        lines = [refs[k] if k < len(refs) else "" for refs in references]
        (folder / f"reference{k}").write_text("\n".join(lines), encoding="utf-8")
    (folder / "hypothesis").write_text("\n".join(hypotheses), encoding="utf-8")
    return folder / "reference"


def parsed(folder: Path) -> tuple[list[list[str]], list[str]]:
    """What eval.py's ``parse`` reads (before tokenising)."""
    references: list[list[str]] = []
    for k in range(REFERENCES):
        with codecs.open(str(folder / f"reference{k}"), "r", "utf-8") as f:
            for j, text in enumerate(f.read().split("\n")):
                if len(references) <= j:
                    references.append([text])
                else:
                    references[j].append(text)
    with codecs.open(str(folder / "hypothesis"), "r", "utf-8") as f:
        return references, f.read().split("\n")


def ours(folder: Path) -> tuple[ReferenceSet, list[str]]:
    files = [(f"reference{k}", (folder / f"reference{k}").read_bytes()) for k in range(REFERENCES)]
    references = ReferenceSet.from_items(read_parallel(files))
    hypotheses = (folder / "hypothesis").read_text(encoding="utf-8").split("\n")
    return references, hypotheses


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chrf_plus_plus_equals_chrf_py_as_eval_py_runs_it(tmp_path, monkeypatch, seed):
    write_parallel(tmp_path, *dev_case(seed))
    references, hypotheses = parsed(tmp_path)
    monkeypatch.chdir(tmp_path)  # chrF_score writes its temporary files here
    expected = eval_functions()["chrF_score"](references, hypotheses, REFERENCES, 2, 6, 2.0)[0]  # type: ignore[operator]
    refs, hyps = ours(tmp_path)
    if not hyps[-1]:  # eval.py's temporary file loses a last empty output (a known divergence)
        refs, hyps = ReferenceSet(refs.items[:-1]), hyps[:-1]
    assert get_metric("chrF++").corpus_score(hyps, refs).value == expected


def test_chrf_plus_plus_per_item_choice_of_reference_equals_chrf_py():
    """Item by item, every reference order: the same best reference and counts."""
    import io

    references, hypotheses = dev_case(4, size=300)
    metric = get_metric("chrF++")
    compute = chrf_module().computeChrF
    for refs, hyp in zip(references, hypotheses, strict=True):
        present = [r for r in refs if r.strip()]
        for order in (present, present[::-1]):
            ours_value = metric.corpus_score([hyp], [order]).value
            expected = compute(io.StringIO("*#".join(order)), io.StringIO(hyp + "\n"), 2, 6, 2.0)[0]
            assert ours_value == expected, (hyp, order)


@pytest.mark.parametrize(
    ("seed", "size"),
    [
        (2, 300),  # 300 dev entries; the whole dev set twice in make test-all
        pytest.param(1, None, marks=pytest.mark.exhaustive),
        pytest.param(2, None, marks=pytest.mark.exhaustive),
    ],
)
def test_ter_equals_pyter3_as_eval_py_runs_it(tmp_path, seed, size):
    write_parallel(tmp_path, *dev_case(seed, size))
    references, hypotheses = parsed(tmp_path)
    expected = eval_functions()["ter_score"](references, hypotheses, REFERENCES)  # type: ignore[operator]
    refs, hyps = ours(tmp_path)
    metric = get_metric("TER-pyter", references=REFERENCES)
    assert metric.corpus_score(hyps, refs).value == pytest.approx(expected, abs=1e-12)
    per_item = metric.segment_statistics(hyps, refs)[:, 0]
    for index, (hyp, item_refs) in enumerate(zip(hypotheses, references, strict=True)):
        expected_item = eval_functions()["ter_score"]([item_refs], [hyp], REFERENCES)  # type: ignore[operator]
        assert per_item[index] == expected_item, (hyp, item_refs)


def test_bleu_equals_multi_bleu_detok_as_eval_py_runs_it(tmp_path):
    require_binary("perl")
    stem = write_parallel(tmp_path, *dev_case(5))
    refs, hyps = ours(tmp_path)
    value = get_metric("BLEU-multibleu-detok", references=REFERENCES).corpus_score(hyps, refs).value
    expected = eval_functions()["bleu_score"](str(stem), str(tmp_path / "hypothesis"), REFERENCES)  # type: ignore[operator]
    assert float(f"{value:.2f}") == expected
    script = ORACLE_2020 / "metrics" / "multi-bleu-detok.perl"
    files = [tmp_path / f"reference{k}" for k in range(REFERENCES)]
    wide = widened_copy(script, tmp_path)
    command = ["perl", str(wide), *map(str, files)]
    with (tmp_path / "hypothesis").open("rb") as stdin:
        line = subprocess.run(command, stdin=stdin, capture_output=True, check=True).stdout
    assert bleu_of(line.decode()) == value


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tool", ["multi-bleu", "multi-bleu-detok"])
def test_both_bleu_scripts_with_and_without_lc_on_raw_text(tmp_path, tool, lowercase):
    """Mixed case, non-ASCII, control characters and odd spacing, through the scripts' own
    line reading: Perl's byte-wise ``lc`` and whitespace."""
    require_binary("perl")
    references, hypotheses = dev_case(6 + lowercase, size=400)
    write_parallel(tmp_path, references, hypotheses)
    for k in range(REFERENCES):  # multi-bleu.perl chops every line: end each with a break
        path = tmp_path / f"reference{k}"
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    hyp = tmp_path / "hypothesis"
    hyp.write_text(hyp.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    script = {
        "multi-bleu": ORACLE_2017 / "multi-bleu.perl",
        "multi-bleu-detok": ORACLE_2020 / "metrics" / "multi-bleu-detok.perl",
    }[tool]
    wide = widened_copy(script, tmp_path)
    files = [tmp_path / f"reference{k}" for k in range(REFERENCES)]
    if lowercase:
        line = multi_bleu(wide, files, hyp)
    else:
        with hyp.open("rb") as stdin:
            command = ["perl", str(wide), *map(str, files)]
            line = subprocess.run(command, stdin=stdin, capture_output=True).stdout.decode()
    refs, hyps = ours(tmp_path)
    metric_id = "BLEU-multibleu" if tool == "multi-bleu" else "BLEU-multibleu-detok"
    metric = get_metric(metric_id, lowercase=lowercase, references=REFERENCES)
    assert bleu_of(line) == metric.corpus_score(hyps[:-1], refs).value


def test_meteor_jar_switch_equals_the_port_with_four_references(tmp_path):
    """``-r 4`` in the jar's plain-text mode (items with 1-4 references, the others empty
    lines) against the Python port, item by item."""
    require_binary("java")
    references, hypotheses = dev_case(8, size=250)
    present = [[r for r in refs if r.strip()] for refs in references]
    jar = jar_statistics(hypotheses, present)
    metric = get_metric("METEOR-files", references=REFERENCES)
    assert not implementation.uses_jar()
    port = metric.segment_statistics(hypotheses, ReferenceSet(present))
    assert np.array_equal(np.asarray([_additive(row) for row in jar]), port)


def _additive(row: list[float]) -> list[float]:
    from scorer.meteor.jar import additive_row

    return additive_row(row)
