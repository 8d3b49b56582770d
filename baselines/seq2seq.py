"""The LSTM encoder-decoder with attention and beam search that both bundled baselines use.

TGen (E2E) and the DRS bi-LSTM differ in their data, sizes and stopping rule, not in the network,
so the network, batching, training pass and search live here once. The decoder attends Luong-style
(attention on the decoder's output), which lets a training pass run the decoder over the whole
target at once instead of one Python step per token: on 2 CPU cores that is the difference between
minutes and hours.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

PAD, BOS, EOS, UNK = "<pad>", "<s>", "</s>", "<unk>"


class Vocabulary:
    """Token <-> id; ids 0-3 are padding, start, end and unknown."""

    def __init__(self, tokens: Iterable[str]) -> None:
        self.tokens = [PAD, BOS, EOS, UNK, *(t for t in tokens if t not in (PAD, BOS, EOS, UNK))]
        self.ids = {token: index for index, token in enumerate(self.tokens)}

    @classmethod
    def build(cls, sequences: Iterable[Sequence[str]], min_count: int = 1) -> Vocabulary:
        counts = Counter(token for sequence in sequences for token in sequence)
        return cls(sorted(token for token, count in counts.items() if count >= min_count))

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        unknown = self.ids[UNK]
        return [self.ids.get(token, unknown) for token in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self.tokens[i] for i in ids if i > 3]


@dataclass(frozen=True)
class NetworkShape:
    """Sizes of the network (saved with the weights, so a model file rebuilds itself)."""

    embedding: int
    hidden: int
    encoder_layers: int = 1
    decoder_layers: int = 1
    bidirectional: bool = False
    dropout: float = 0.0
    input_feeding: bool = False
    """Feed each step's attentional state into the next step's input (Bahdanau-style
    attention that knows what it has already attended to; TGen). Costs a Python loop over the
    target in training, so the char-level DRS model, with 4x longer targets, goes without."""


class Seq2Seq(nn.Module):
    """Encoder LSTM (optionally bidirectional), decoder LSTM with general attention."""

    def __init__(self, shape: NetworkShape, source_size: int, target_size: int) -> None:
        super().__init__()
        self.shape = shape
        directions = 2 if shape.bidirectional else 1
        between = shape.dropout if shape.encoder_layers > 1 else 0.0
        self.source_embedding = nn.Embedding(source_size, shape.embedding, padding_idx=0)
        self.encoder = nn.LSTM(
            shape.embedding,
            shape.hidden,
            num_layers=shape.encoder_layers,
            bidirectional=shape.bidirectional,
            batch_first=True,
            dropout=between,
        )
        self.bridge = nn.Linear(shape.hidden * directions, 2 * shape.hidden)
        self.target_embedding = nn.Embedding(target_size, shape.embedding, padding_idx=0)
        self.decoder = nn.LSTM(
            shape.embedding + (shape.hidden if shape.input_feeding else 0),
            shape.hidden,
            num_layers=shape.decoder_layers,
            batch_first=True,
            dropout=shape.dropout if shape.decoder_layers > 1 else 0.0,
        )
        self.attention = nn.Linear(shape.hidden * directions, shape.hidden, bias=False)
        self.combine = nn.Linear(shape.hidden * (1 + directions), shape.hidden)
        self.output = nn.Linear(shape.hidden, target_size)
        self.drop = nn.Dropout(shape.dropout)

    def encode(self, source: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, tuple]:
        """Encoder outputs, their padding mask and the decoder's initial state."""
        mask = source != 0
        lengths = mask.sum(dim=1).clamp(min=1).cpu()
        packed = nn.utils.rnn.pack_padded_sequence(
            self.drop(self.source_embedding(source)),
            lengths,
            batch_first=True,
            enforce_sorted=False,
        )
        outputs, (hidden, _) = self.encoder(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(
            outputs, batch_first=True, total_length=source.size(1)
        )
        if self.shape.bidirectional:
            last = torch.cat([hidden[-2], hidden[-1]], dim=-1)
        else:
            last = hidden[-1]
        h, c = torch.tanh(self.bridge(last)).chunk(2, dim=-1)
        layers = self.shape.decoder_layers
        state: tuple[torch.Tensor, ...] = (
            h.unsqueeze(0).repeat(layers, 1, 1).contiguous(),
            c.unsqueeze(0).repeat(layers, 1, 1).contiguous(),
        )
        if self.shape.input_feeding:
            state = (*state, torch.zeros(source.size(0), self.shape.hidden))
        return outputs, mask, state

    def decode(
        self,
        target_in: torch.Tensor,
        memory: torch.Tensor,
        mask: torch.Tensor,
        state: tuple,
    ) -> tuple[torch.Tensor, tuple]:
        """Logits for every target position given the previous tokens (teacher forcing or one
        search step), and the decoder state after them."""
        embedded = self.drop(self.target_embedding(target_in))
        keys = self.attention(memory)
        if not self.shape.input_feeding:
            outputs, state = self.decoder(embedded, state)
            combined = self._attend(outputs, keys, memory, mask)
            return self.output(self.drop(combined)), state
        h, c, feed = state
        steps = []
        for t in range(embedded.size(1)):
            step = torch.cat([embedded[:, t], feed], dim=-1).unsqueeze(1)
            output, (h, c) = self.decoder(step, (h, c))
            combined = self._attend(output, keys, memory, mask)
            feed = combined.squeeze(1)
            steps.append(combined)
        return self.output(self.drop(torch.cat(steps, dim=1))), (h, c, feed)

    def _attend(
        self, outputs: torch.Tensor, keys: torch.Tensor, memory: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        scores = torch.bmm(outputs, keys.transpose(1, 2))
        scores = scores.masked_fill(~mask.unsqueeze(1), float("-inf"))
        context = torch.bmm(torch.softmax(scores, dim=-1), memory)
        return torch.tanh(self.combine(torch.cat([outputs, context], dim=-1)))

    def forward(self, source: torch.Tensor, target_in: torch.Tensor) -> torch.Tensor:
        memory, mask, state = self.encode(source)
        logits, _ = self.decode(target_in, memory, mask, state)
        return logits


def seed_everything(seed: int) -> None:
    """Fixed seeds: the same command gives the same model on the same machine."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def pad(sequences: Sequence[Sequence[int]]) -> torch.Tensor:
    width = max(1, max(len(s) for s in sequences))
    return torch.tensor([list(s) + [0] * (width - len(s)) for s in sequences], dtype=torch.long)


def teacher_forcing(targets: Sequence[Sequence[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Decoder inputs (start + target) and expected outputs (target + end)."""
    bos, eos = 1, 2
    return pad([[bos, *t] for t in targets]), pad([[*t, eos] for t in targets])


def batches(
    pairs: Sequence[tuple[list[int], list[int]]], size: int, rng: random.Random
) -> Iterator[list[tuple[list[int], list[int]]]]:
    """Shuffled batches of similar source length (less padding, same examples per pass)."""
    order = list(range(len(pairs)))
    rng.shuffle(order)
    chunk = size * 50
    for start in range(0, len(order), chunk):
        window = sorted(order[start : start + chunk], key=lambda i: len(pairs[i][1]))
        group = [window[i : i + size] for i in range(0, len(window), size)]
        rng.shuffle(group)
        for indices in group:
            yield [pairs[i] for i in indices]


def train_pass(
    model: Seq2Seq,
    pairs: Sequence[tuple[list[int], list[int]]],
    optimiser: torch.optim.Optimizer,
    *,
    batch_size: int,
    rng: random.Random,
    label_smoothing: float = 0.0,
    clip: float = 5.0,
    on_batch: Callable[[int], None] = lambda n: None,
) -> float:
    """One pass over the training pairs; returns the mean token cross-entropy."""
    model.train()
    loss_fn = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=label_smoothing)
    total, tokens = 0.0, 0
    for batch in batches(pairs, batch_size, rng):
        source = pad([s for s, _ in batch])
        target_in, target_out = teacher_forcing([t for _, t in batch])
        logits = model(source, target_in)
        loss = loss_fn(logits.reshape(-1, logits.size(-1)), target_out.reshape(-1))
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimiser.step()
        count = int((target_out != 0).sum())
        total += loss.item() * count
        tokens += count
        on_batch(len(batch))
    return total / max(tokens, 1)


@dataclass
class Fitted:
    """What a training run did: per pass its loss and validation figure, and the best pass."""

    history: list[dict]
    best_pass: int
    best: float


def fit(
    model: Seq2Seq,
    pairs: Sequence[tuple[list[int], list[int]]],
    *,
    label: str,
    passes: int,
    patience: int,
    batch_size: int,
    learning_rate: float,
    rng: random.Random,
    validate: Callable[[], float],
    on_best: Callable[[], None],
    label_smoothing: float = 0.0,
    decay: float = 1.0,
    decay_from: int | None = None,
    min_passes: int = 1,
) -> Fitted:
    """Up to ``passes`` passes with early stopping: ``validate`` (higher is better) after each,
    ``on_best`` when it improves, stop after ``patience`` passes without; a pass before
    ``min_passes`` is validated (for the history) but never kept. The learning rate is
    multiplied by ``decay`` after every pass from pass ``decay_from`` on (Marian's ``epoch``
    strategy), or, without ``decay_from``, after each pass that did not improve (``stalled``)."""
    import click

    optimiser = torch.optim.Adam(model.parameters(), lr=learning_rate)
    history: list[dict] = []
    best, best_pass = float("-inf"), 0
    for number in range(1, passes + 1):
        with click.progressbar(length=len(pairs), label=f"{label} pass {number}/{passes}") as bar:
            loss = train_pass(
                model,
                pairs,
                optimiser,
                batch_size=batch_size,
                rng=rng,
                label_smoothing=label_smoothing,
                on_batch=bar.update,
            )
        value = validate()
        history.append({"pass": number, "loss": round(loss, 4), "dev": round(value, 4)})
        click.echo(f"{label} pass {number}: train loss {loss:.4f}, dev {value:.4f}", err=True)
        improved = value > best and number >= min_passes
        if improved:
            best, best_pass = value, number
            on_best()
        elif number - max(best_pass, min_passes - 1) >= patience:
            click.echo(f"no better dev figure for {patience} passes; stopping", err=True)
            break
        if (number >= decay_from) if decay_from else not improved:
            for group in optimiser.param_groups:
                group["lr"] *= decay
    return Fitted(history, best_pass, best)


@torch.no_grad()
def cross_entropy(
    model: Seq2Seq, pairs: Sequence[tuple[list[int], list[int]]], batch_size: int = 64
) -> float:
    """Mean token cross-entropy on held-out pairs (no smoothing): the DRS stopping rule."""
    model.eval()
    loss_fn = nn.CrossEntropyLoss(ignore_index=0, reduction="sum")
    total, tokens = 0.0, 0
    for start in range(0, len(pairs), batch_size):
        batch = pairs[start : start + batch_size]
        target_in, target_out = teacher_forcing([t for _, t in batch])
        logits = model(pad([s for s, _ in batch]), target_in)
        total += float(loss_fn(logits.reshape(-1, logits.size(-1)), target_out.reshape(-1)))
        tokens += int((target_out != 0).sum())
    return total / max(tokens, 1)


@torch.no_grad()
def greedy(
    model: Seq2Seq, sources: Sequence[list[int]], max_length: int, batch_size: int = 128
) -> list[list[int]]:
    """Most likely token at each step, many inputs at once: cheap enough to validate per pass."""
    model.eval()
    results: list[list[int]] = []
    for start in range(0, len(sources), batch_size):
        source = pad(sources[start : start + batch_size])
        memory, mask, state = model.encode(source)
        previous = torch.full((source.size(0), 1), 1, dtype=torch.long)
        steps = []
        done = torch.zeros(source.size(0), dtype=torch.bool)
        for _ in range(max_length):
            logits, state = model.decode(previous, memory, mask, state)
            previous = logits[:, -1].argmax(dim=-1, keepdim=True)
            steps.append(previous)
            done |= previous.squeeze(1) == 2
            if done.all():
                break
        for row in torch.cat(steps, dim=1).tolist():
            results.append(row[: row.index(2)] if 2 in row else row)
    return results


@dataclass(frozen=True)
class Hypothesis:
    tokens: tuple[int, ...]
    log_prob: float
    score: float


@torch.no_grad()
def beam_search(
    model: Seq2Seq,
    source: list[int],
    *,
    beam: int,
    max_length: int,
    length_penalty: float = 0.0,
) -> list[Hypothesis]:
    """The finished hypotheses of one input, best first; score = log p / length ** penalty
    (0 = plain log-probability, as TGen; Marian's ``normalize`` for the DRS model)."""
    model.eval()
    memory, mask, state = model.encode(pad([source]))
    alive: list[tuple[tuple[int, ...], float]] = [((), 0.0)]
    finished: list[Hypothesis] = []
    previous = torch.tensor([[1]])
    for step in range(max_length):
        width = len(alive)
        logits, state = model.decode(
            previous, memory.expand(width, -1, -1), mask.expand(width, -1), state
        )
        log_probs = torch.log_softmax(logits[:, -1], dim=-1)
        totals = log_probs + torch.tensor([lp for _, lp in alive]).unsqueeze(1)
        values, flat = totals.view(-1).topk(min(2 * beam, totals.numel()))
        keep_rows, next_alive = [], []
        for value, index in zip(values.tolist(), flat.tolist(), strict=True):
            row, token = divmod(index, log_probs.size(1))
            tokens = alive[row][0]
            if token == 2 or step == max_length - 1:
                length = len(tokens) + 1
                finished.append(Hypothesis(tokens, value, value / length**length_penalty))
            elif token > 2:
                next_alive.append(((*tokens, token), value))
                keep_rows.append(row)
            if len(next_alive) == beam:
                break
        if len(finished) >= beam or not next_alive:
            break
        alive = next_alive
        rows = torch.tensor(keep_rows)
        state = (
            state[0][:, rows].contiguous(),
            state[1][:, rows].contiguous(),
            *(part[rows] for part in state[2:]),
        )
        previous = torch.tensor([[tokens[-1]] for tokens, _ in alive])
    finished.sort(key=lambda h: -h.score)
    return finished[:beam]


def save(path: Path, model: Seq2Seq, **extra: Any) -> None:
    """Weights, the network shape and whatever the baseline needs to rebuild its inputs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"shape": asdict(model.shape), "state": model.state_dict(), **extra}, path)


def load(path: Path) -> tuple[dict, Seq2Seq]:
    saved = torch.load(path, map_location="cpu", weights_only=False)
    state = saved["state"]
    model = Seq2Seq(
        NetworkShape(**saved["shape"]),
        state["source_embedding.weight"].size(0),
        state["output.weight"].size(0),
    )
    model.load_state_dict(state)
    model.eval()
    return saved, model
