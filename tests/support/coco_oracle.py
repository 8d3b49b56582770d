"""Running the official E2E script's METEOR, ROUGE_L and CIDEr (a test oracle) on files.

``../shared/oracles/e2e-metrics`` ships ``measure_scores.py`` and its COCO caption code without
the three jars, which are those of the ``pycocoevalcap`` 1.2 wheel installed here; the script's
folder is copied into a temporary directory with the jars beside its code, and its own
``load_data`` and ``run_coco_eval`` run in a subprocess. Test-only: the project never runs it.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from tests.support.mteval_oracle import run_tool

STUBS = r"""
import sys, types
def stub(name, **attrs):
    module = types.ModuleType(name); module.__dict__.update(attrs); sys.modules[name] = module
try:
    import past.utils  # noqa: F401
except ImportError:
    stub("past"); stub("past.utils", old_div=lambda a, b: a // b if isinstance(a, int) and isinstance(b, int) else a / b)
    sys.modules["past"].utils = sys.modules["past.utils"]
stub("skimage"); stub("skimage.draw", polygon=None)
sys.path.insert(0, sys.argv[1])
"""
"""Stand-ins for the two Python 2 era packages the official script imports but never needs
here; then its folder (argv[1]) on the path."""

RUNNER = (
    STUBS
    + r"""
import json, contextlib, io
import measure_scores as ms
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    src, ref, hyp = ms.load_data(sys.argv[2], sys.argv[3])
    evaluation = ms.run_coco_eval(ref, hyp)
print(json.dumps({k: evaluation.eval[k] for k in ("METEOR", "ROUGE_L", "CIDEr")}))
"""
)

JARS = (
    "meteor/meteor-1.5.jar",
    "meteor/data/paraphrase-en.gz",
    "tokenizer/stanford-corenlp-3.4.1.jar",
)


def prepare(oracle: Path, work: Path) -> Path:
    """A runnable copy of the official script: its code, the wheel's jars."""
    import pycocoevalcap

    copy = work / "e2e-metrics"
    shutil.copytree(oracle, copy)
    wheel = Path(next(iter(pycocoevalcap.__path__)))
    for jar in JARS:
        (copy / "pycocoevalcap" / jar).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(wheel / jar, copy / "pycocoevalcap" / jar)
    (work / "run_coco.py").write_text(RUNNER)
    return copy


def run_coco(copy: Path, refs: Path, hyp: Path) -> dict[str, float]:
    command = [sys.executable, str(copy.parent / "run_coco.py"), str(copy), str(refs), str(hyp)]
    out = run_tool(command, f"the COCO oracle on {hyp.name}")
    return json.loads(out.strip().splitlines()[-1])
