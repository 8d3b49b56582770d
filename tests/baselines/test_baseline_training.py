"""A tiny training run of each bundled baseline: the network, search and reranker can learn
(20 examples learnt by heart); no test trains the full models (README: Bundled baselines)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

pytest.importorskip("torch", reason="the baselines need torch (pip install -e '.[semantic]')")

from baselines import seq2seq
from baselines.bilstm import system as bilstm
from baselines.tgen import system as tgen
from scorer.io.drs import DrsItem
from scorer.io.e2e import ReferenceItem

pytestmark = pytest.mark.slow  # trains networks: make test, not make check

NAMES = ["Aromi", "Zizzi", "The Eagle", "Cotto", "Loch Fyne"]
FOODS = ["Chinese", "French", "Indian", "Italian"]  # E2E values: the slot matcher knows them
AREAS = {"riverside": "by the river", "city centre": "in the centre"}


def _e2e_items() -> list[ReferenceItem]:
    items = []
    for index in range(20):
        name, food = NAMES[index % 5], FOODS[index // 5]
        area = list(AREAS)[index % 2]
        mr = f"name[{name}], food[{food}], area[{area}]"
        if index % 3 == 0:
            mr += ", near[Burger King]"
            text = f"{name} serves {food} food {AREAS[area]} near Burger King."
        else:
            text = f"{name} serves {food} food {AREAS[area]}."
        items.append(ReferenceItem(mr, (text,)))
    return items


def test_tgen_learns_twenty_examples_by_heart(tmp_path) -> None:
    items = _e2e_items()
    settings = replace(
        tgen.Settings(),
        embedding=64,
        hidden=128,
        batch_size=4,
        learning_rate=0.01,
        passes=60,
        patience=20,
        reranker_passes=40,
        reranker_learning_rate=0.01,
    )
    report = tgen.train(items, items, tmp_path, settings)
    assert report["validation"] == "dev BLEU, beam + reranker"
    assert report["dev_bleu_validation"] > 0.9
    outputs = tgen.decode(tmp_path, [item.input for item in items])
    right = sum(out == item.references[0] for out, item in zip(outputs, items, strict=True))
    assert right >= 18, list(zip(outputs, [i.references[0] for i in items], strict=True))


def _drs_items() -> list[DrsItem]:
    items = []
    for index in range(20):
        name = NAMES[index % 5]
        verb, text_verb = [("sleep.v.01", "sleeps"), ("run.v.01", "runs"), ("eat.v.01", "eats"),
                           ("sing.v.01", "sings")][index // 5]  # fmt: skip
        sbn = f'person.n.01 Name "{name}" time.n.08 EQU now {verb} Agent -2 Time -1'
        items.append(DrsItem(sbn, f"{name} {text_verb}."))
    return items


def test_bilstm_learns_twenty_examples_by_heart(tmp_path) -> None:
    items = _drs_items()
    settings = replace(
        bilstm.Settings(),
        embedding=32,
        hidden=64,
        batch_size=5,
        learning_rate=0.01,
        dropout=0.0,
        label_smoothing=0.0,
        passes=50,
        patience=50,
        decay=1.0,
        beam=4,
        max_output=40,
    )
    report = bilstm.train(items, items, tmp_path, settings)
    assert report["dev_cross_entropy"] < 0.1
    outputs = bilstm.decode(tmp_path, [item.drs for item in items])
    right = sum(out == item.text for out, item in zip(outputs, items, strict=True))
    assert right >= 18, list(zip(outputs, [i.text for i in items], strict=True))


def test_early_stopping_keeps_no_pass_before_min_passes() -> None:
    """Pass 1's dev figure is the best but comes before min_passes: passes 3 and 4 are kept,
    and training stops two passes after the last gain."""
    model = seq2seq.Seq2Seq(seq2seq.NetworkShape(8, 8), 6, 6)
    figures = iter([0.9, 0.1, 0.2, 0.3, 0.25, 0.2, 0.99, 0.99])
    kept: list[int] = []
    fitted = seq2seq.fit(
        model,
        [([2, 3], [4, 5]), ([3, 2], [5, 4])],
        label="test",
        passes=8,
        patience=2,
        batch_size=2,
        learning_rate=0.01,
        rng=random.Random(1),
        validate=lambda: next(figures),
        on_best=lambda: kept.append(len(kept)),
        min_passes=3,
    )
    assert (fitted.best_pass, fitted.best, len(fitted.history)) == (4, 0.3, 6)
    assert len(kept) == 2
