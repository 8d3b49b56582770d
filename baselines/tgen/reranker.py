"""TGen's reranker: an LSTM that reads a candidate text and says which MR features it expresses.

Beam candidates whose predicted features differ from the MR's (a slot missed or added) are pushed
down by a fixed penalty per difference, so the beam's best *faithful* candidate wins
(Dušek & Jurčíček 2016; E2E paper Sect. 5.1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import torch
from torch import nn

from baselines.seq2seq import pad


class Reranker(nn.Module):
    def __init__(self, vocabulary_size: int, features: int, embedding: int, hidden: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocabulary_size, embedding, padding_idx=0)
        self.lstm = nn.LSTM(embedding, hidden, batch_first=True)
        self.classify = nn.Linear(hidden, features)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        lengths = (tokens != 0).sum(dim=1).clamp(min=1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(
            self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False
        )
        _, (hidden, _) = self.lstm(packed)
        return self.classify(hidden[-1])


def train_pass(
    model: Reranker,
    pairs: Sequence[tuple[list[int], list[int]]],
    optimiser: torch.optim.Optimizer,
    *,
    batch_size: int,
    rng: random.Random,
    on_batch: Callable[[int], None] = lambda n: None,
) -> float:
    """One pass over (text ids, feature ids) pairs; returns the mean binary cross-entropy."""
    model.train()
    loss_fn = nn.BCEWithLogitsLoss()
    order = list(range(len(pairs)))
    rng.shuffle(order)
    total, count = 0.0, 0
    for start in range(0, len(order), batch_size):
        batch = [pairs[i] for i in order[start : start + batch_size]]
        expected = targets([f for _, f in batch], model.classify.out_features)
        loss = loss_fn(model(pad([t for t, _ in batch])), expected)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        total += loss.item() * len(batch)
        count += len(batch)
        on_batch(len(batch))
    return total / max(count, 1)


def targets(feature_ids: Sequence[Sequence[int]], size: int) -> torch.Tensor:
    expected = torch.zeros(len(feature_ids), size)
    for row, ids in enumerate(feature_ids):
        expected[row, list(ids)] = 1.0
    return expected


@torch.no_grad()
def misfits(model: Reranker, candidates: Sequence[list[int]], features: Sequence[int]) -> list[int]:
    """Per candidate: features predicted but not in the MR plus MR features not predicted."""
    model.eval()
    predicted = model(pad(candidates)) > 0
    expected = targets([features], model.classify.out_features).bool()
    return (predicted ^ expected).sum(dim=1).tolist()


@torch.no_grad()
def accuracy(model: Reranker, pairs: Sequence[tuple[list[int], list[int]]]) -> float:
    """Share of texts whose whole feature set is predicted exactly (printed after training)."""
    model.eval()
    right = 0
    for start in range(0, len(pairs), 256):
        batch = pairs[start : start + 256]
        predicted = model(pad([t for t, _ in batch])) > 0
        expected = targets([f for _, f in batch], model.classify.out_features).bool()
        right += int((predicted == expected).all(dim=1).sum())
    return right / max(len(pairs), 1)
