"""Train and run the char-level bi-LSTM DRS-to-text baseline (Wang et al. 2021, Table 1)."""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import click

from baselines import seq2seq
from baselines.bilstm import data
from baselines.seq2seq import NetworkShape, Seq2Seq, Vocabulary
from scorer.errors import InputError
from scorer.io import drs

MODEL_FILE = "generator.pt"


@dataclass(frozen=True)
class Settings:
    """Table 1: 2-layer bi-LSTM encoder, 2-layer LSTM decoder, embeddings and states 300,
    dropout 0.2, batch 48, Adam lr 0.002 with decay 0.5 by the ``epoch`` strategy (Marian: halved
    after every epoch from the 10th, its default --lr-decay-start), label smoothing 0.1, early
    stopping after 3 passes without a better dev cross-entropy, beam 10, length normalisation
    0.9."""

    embedding: int = 300
    hidden: int = 300
    layers: int = 2
    dropout: float = 0.2
    batch_size: int = 48
    learning_rate: float = 0.002
    decay: float = 0.5
    decay_from: int = 10
    label_smoothing: float = 0.1
    passes: int = 20
    patience: int = 3
    beam: int = 10
    length_penalty: float = 0.9
    max_output: int = 300
    seed: int = 1


def read_items(path: Path) -> list[drs.DrsItem]:
    """SBN items (``text<TAB>SBN`` lines or split blocks); the model was made for SBN only."""
    data_bytes = path.read_bytes()
    if not drs.looks_like_sbn(data_bytes):
        raise InputError(
            "the bi-LSTM baseline reads PMB 5 SBN (text<TAB>SBN lines or split blocks), "
            "not clause format",
            filename=path.name,
        )
    return drs.read_sbn_file(data_bytes, path.name)


def train(
    train_items: list[drs.DrsItem],
    dev_items: list[drs.DrsItem],
    model_dir: Path,
    settings: Settings = Settings(),
) -> dict:
    """Train, keeping the pass with the lowest dev cross-entropy (Table 1's valid-metric)."""
    seq2seq.seed_everything(settings.seed)
    rng = random.Random(settings.seed)
    started = time.perf_counter()
    train_pairs = _token_pairs(train_items, settings)
    source_vocabulary = Vocabulary.build(s for s, _ in train_pairs)
    target_vocabulary = Vocabulary.build(t for _, t in train_pairs)
    pairs = [(source_vocabulary.encode(s), target_vocabulary.encode(t)) for s, t in train_pairs]
    dev_pairs = [
        (source_vocabulary.encode(s), target_vocabulary.encode(t))
        for s, t in _token_pairs(dev_items, settings)
    ]
    model = Seq2Seq(
        NetworkShape(
            settings.embedding,
            settings.hidden,
            encoder_layers=settings.layers,
            decoder_layers=settings.layers,
            bidirectional=True,
            dropout=settings.dropout,
        ),
        len(source_vocabulary),
        len(target_vocabulary),
    )
    extra = {
        "source_vocabulary": source_vocabulary.tokens,
        "target_vocabulary": target_vocabulary.tokens,
        "settings": asdict(settings),
    }
    fitted = seq2seq.fit(
        model,
        pairs,
        label="bilstm",
        passes=settings.passes,
        patience=settings.patience,
        batch_size=settings.batch_size,
        learning_rate=settings.learning_rate,
        rng=rng,
        validate=lambda: -seq2seq.cross_entropy(model, dev_pairs),
        on_best=lambda: seq2seq.save(model_dir / MODEL_FILE, model, **extra),
        label_smoothing=settings.label_smoothing,
        decay=settings.decay,
        decay_from=settings.decay_from,
    )
    return {
        "passes": len(fitted.history),
        "best_pass": fitted.best_pass,
        "dev_cross_entropy": round(-fitted.best, 4),
        "history": fitted.history,
        "train_pairs": len(pairs),
        "total_seconds": round(time.perf_counter() - started, 1),
        "settings": asdict(settings),
    }


def _token_pairs(items: list[drs.DrsItem], settings: Settings) -> list[tuple[tuple, tuple]]:
    pairs = [(data.drs_tokens(item.drs), data.text_tokens(item.text or "")) for item in items]
    return [(s, t) for s, t in pairs if t and len(t) < settings.max_output]


def decode(model_dir: Path, inputs: list[str]) -> list[str]:
    saved, model = seq2seq.load(model_dir / MODEL_FILE)
    settings = Settings(**saved["settings"])
    source_vocabulary = Vocabulary(saved["source_vocabulary"])
    target_vocabulary = Vocabulary(saved["target_vocabulary"])
    outputs = []
    with click.progressbar(inputs, label="bilstm decoding") as bar:
        for sbn in bar:
            best = seq2seq.beam_search(
                model,
                source_vocabulary.encode(data.drs_tokens(sbn)),
                beam=settings.beam,
                max_length=settings.max_output,
                length_penalty=settings.length_penalty,
            )[0]
            outputs.append(data.text_from_tokens(target_vocabulary.decode(best.tokens)))
    return outputs
