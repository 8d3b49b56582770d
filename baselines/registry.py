"""The bundled baselines by name: their data, how to train them, how to decode with them.

Each entry knows its track kind (which scorer profile scores its runs), where its training and
dev files live under the shared data folder, and the functions that train and decode. torch is
imported only when a baseline is trained or run, so listing them needs no model code.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("NLGBOARD_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
REPORT_FILE = "training.json"
SCORES_FILE = "scores.json"


@dataclass(frozen=True)
class Baseline:
    name: str
    system: str
    """Its system name on a leaderboard."""
    track_kind: str
    """A track kind (app.web.services.tracks.TRACK_KINDS), which names the profile that scores it."""
    language: str
    train_file: str
    dev_file: str
    """Both relative to the shared data folder."""
    train: Callable[[Path, Path, Path, int | None, int | None], dict]
    """(train file, dev file, model dir, passes or None, training items or None) -> report."""
    read_inputs: Callable[[Path], list[str]]
    """The inputs to decode, as the scorer stores them (what the manifest hashes)."""
    decode: Callable[[Path, list[str]], list[str]]
    note: str = ""
    """Said beside its runs wherever they appear (system page, exports): what was trained,
    by whom, and which published run it is not."""


def _train_tgen(
    train: Path, dev: Path, model_dir: Path, passes: int | None, limit: int | None
) -> dict:
    from dataclasses import replace

    from baselines.tgen import data, system

    settings = system.Settings() if passes is None else replace(system.Settings(), passes=passes)
    items = data.read_dataset(train)
    return system.train(
        items[:limit] if limit else items, data.read_dataset(dev), model_dir, settings
    )


def retrain_tgen_reranker(train: Path, model_dir: Path, limit: int | None) -> dict:
    from baselines.tgen import data, system

    items = data.read_dataset(train)
    return system.train_reranker(items[:limit] if limit else items, model_dir)


def _decode_tgen(model_dir: Path, inputs: list[str]) -> list[str]:
    from baselines.tgen import system

    return system.decode(model_dir, inputs)


def _read_tgen_inputs(path: Path) -> list[str]:
    from baselines.tgen import data

    return data.read_mrs(path)


def _train_bilstm(
    train: Path, dev: Path, model_dir: Path, passes: int | None, limit: int | None
) -> dict:
    from dataclasses import replace

    from baselines.bilstm import system

    settings = system.Settings() if passes is None else replace(system.Settings(), passes=passes)
    items = system.read_items(train)
    return system.train(
        items[:limit] if limit else items, system.read_items(dev), model_dir, settings
    )


def _decode_bilstm(model_dir: Path, inputs: list[str]) -> list[str]:
    from baselines.bilstm import system

    return system.decode(model_dir, inputs)


def _read_bilstm_inputs(path: Path) -> list[str]:
    from baselines.bilstm import system

    return [item.drs for item in system.read_items(path)]


TGEN_SYSTEM = "TGen-style (retrained here)"
"""Not "TGen": the E2E paper's Table 8 has a TGen row, and this is our retraining of it."""
TGEN_NOTE = (
    "Retrained by this board (nlgboard baselines train tgen): a TGen-style seq2seq with "
    "attention, beam search and a slot reranker. It is not the TGen run of the E2E paper's "
    "Table 8: its scores are this retrained model's own."
)
BILSTM_NOTE = (
    "Trained by this board (nlgboard baselines train bilstm): a character-level bi-LSTM "
    "sequence-to-sequence model, not a run published with a paper."
)

BASELINES = {
    "tgen": Baseline(
        "tgen",
        TGEN_SYSTEM,
        "e2e",
        "en",
        "e2e/trainset.csv",
        "e2e/devset.csv",
        _train_tgen,
        _read_tgen_inputs,
        _decode_tgen,
        TGEN_NOTE,
    ),
    "bilstm": Baseline(
        "bilstm",
        "char bi-LSTM (bundled baseline)",
        "drs",
        "en",
        "drs/pmb5.0.0_en_sbn/seq2seq/train/gold.sbn",
        "drs/pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn",
        _train_bilstm,
        _read_bilstm_inputs,
        _decode_bilstm,
        BILSTM_NOTE,
    ),
}


def model_dir(instance_path: str | Path, name: str) -> Path:
    """Where trained models live: the instance folder, never git (README: Bundled baselines)."""
    return Path(instance_path) / "baselines" / name


def read_json(path: Path) -> dict:
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def write_json(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", "utf-8")
