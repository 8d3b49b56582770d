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
from scorer.signature import Signature

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


@pytest.mark.parametrize(
    "text", [r["signature"] for r in METRICS + COLUMNS] + ["", "BLEU", "x|profile:p", "a||b"]
)
def test_a_signature_reads_back_as_the_text_it_came_from(text: str) -> None:
    assert str(Signature.parse(text)) == text


def test_a_column_signature_reads_into_its_fields() -> None:
    text = (
        "TER|tercom-7.25|case:lc|norm:no|impl:jar|nlgboard:0.2.0|tokens:nltk_words"
        "|profile:webnlg2020|norm:webnlg2020-v1:ws|refs:first-3"
    )
    signature = Signature.parse(text)
    assert signature.metric == "TER"
    assert signature.options == {"case": "lc", "norm": "no"}
    assert signature.implementation == ("impl:jar",)
    assert signature.version == "0.2.0"
    assert (signature.tokens, signature.profile) == ("nltk_words", "webnlg2020")
    assert signature.normalisation == "webnlg2020-v1:ws|refs:first-3"


def test_signatures_compare_by_their_fields_but_which_code_ran() -> None:
    python = Signature.parse("METEOR|meteor-1.5|l:en|impl:python|nlgboard:0.2.0|profile:e2e|norm:x")
    jar = Signature.parse("METEOR|meteor-1.5|l:en|impl:jar|nlgboard:0.2.0|profile:e2e|norm:x")
    assert python != jar and python.comparable_with(jar)
    assert not python.comparable_with(Signature.parse(str(jar).replace("l:en", "l:fr")))
    assert not python.comparable_with(Signature.parse(str(jar).replace("norm:x", "norm:y")))
    assert not python.comparable_with(Signature.parse(str(jar).replace("0.2.0", "0.3.0")))
