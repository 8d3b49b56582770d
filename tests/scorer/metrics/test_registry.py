"""The registry's index of built-in ids (``scorer.metrics.built_in()``, read from the modules'
source) against what each metric module registers when imported: an id registered so that the
index cannot read it (not written out) would not be found without loading every module."""

from __future__ import annotations

import json
import subprocess
import sys

from scorer import metrics

RECORD = """
import json, sys
from scorer import metrics
where = {}
register, register_preset = metrics.register, metrics.register_preset

def recording_register(name, **bounds):
    where[name] = sys._getframe(1).f_globals["__name__"].removeprefix("scorer.metrics.")
    return register(name, **bounds)

def recording_preset(name, base, **options):
    where[name] = sys._getframe(1).f_globals["__name__"].removeprefix("scorer.metrics.")
    return register_preset(name, base, **options)

metrics.register, metrics.register_preset = recording_register, recording_preset
metrics._load_builtin()
print(json.dumps(where))
"""
"""Every built-in module imported in a new process, with each registration recorded."""


def test_every_built_in_id_is_listed_with_the_module_that_registers_it():
    recorded = subprocess.run(
        [sys.executable, "-c", RECORD], capture_output=True, text=True, check=True
    )
    assert json.loads(recorded.stdout) == metrics.built_in()
    # Other tests may have registered organisers' variants (e.g. learned@<hash>/BLEURT) here.
    assert set(metrics.built_in()) <= set(metrics.known_metrics())


def test_an_e2e_metric_loads_its_own_module_not_every_one():
    code = (
        "import sys; from scorer.metrics import get_metric; get_metric('METEOR'); "
        "get_metric('SER'); import json; print(json.dumps(sorted(m for m in sys.modules"
        " if m.startswith('scorer.metrics.') or m == 'sacrebleu')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    names = json.loads(loaded.stdout)
    assert "scorer.metrics.meteor" in names and "scorer.metrics.ser" in names
    assert "sacrebleu" not in names and "scorer.metrics.chrf" not in names
