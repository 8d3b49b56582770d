"""Every stored score carries its signature, so a signature never changes by accident: each
registered metric's, for its defaults and a few options (``data/signatures.json``), and each
built-in profile's column signatures (``data/column_signatures.json``), byte for byte as the
hand-written f-strings gave them before signatures were values (versions as placeholders)."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest
import sacrebleu

import scorer
from scorer import embeddings
from scorer.kinds import PROFILES
from scorer.metrics import get_metric, known_metrics

DATA = Path(__file__).parent / "data"
METRICS = json.loads((DATA / "signatures.json").read_text(encoding="utf-8"))
COLUMNS = json.loads((DATA / "column_signatures.json").read_text(encoding="utf-8"))


def _filled(signature: str) -> str:
    return (
        signature.replace("{nlgboard}", scorer.__version__)
        .replace("{sacrebleu}", sacrebleu.__version__)
        .replace("{rouge_score}", version("rouge-score"))
    )


@pytest.fixture(autouse=True)
def _no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedding model's part names torch's version; what matters here is where it goes."""
    monkeypatch.setattr(embeddings, "signature", lambda: "{embeddings}")


@pytest.mark.parametrize(
    "row", METRICS, ids=[f"{r['metric']}{r['options'] or ''}" for r in METRICS]
)
def test_a_metric_signs_as_it_always_did(row: dict) -> None:
    assert get_metric(row["metric"], **row["options"]).signature == _filled(row["signature"])


def test_every_registered_metric_is_in_the_fixture() -> None:
    assert {row["metric"] for row in METRICS} >= set(known_metrics()) - _organisers()


@pytest.mark.parametrize("row", COLUMNS, ids=[f"{r['profile']}:{r['column']}" for r in COLUMNS])
def test_a_profile_column_signs_as_it_always_did(row: dict) -> None:
    assert PROFILES[row["profile"]].column_signature(row["column"]) == _filled(row["signature"])


def _organisers() -> set[str]:
    """Variants other tests register in this process (e.g. ``learned@<hash>/BLEURT``)."""
    return {name for name in known_metrics() if "@" in name}
