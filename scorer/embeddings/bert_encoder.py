"""A BERT encoder in plain torch, for the embedding metrics' model (all-MiniLM-L6-v2).

transformers builds the same network, but its first ``from_pretrained`` imports its whole
modelling stack (distributed tensors, generation, kernels hubs): about 2 s of CPU before a
single sentence is embedded, most of a cold ``nlg-score --profile drs``. This is BERT's
forward pass as transformers' ``BertModel`` computes it in evaluation (absolute positions,
token type 0, post-layer-norm blocks, exact GELU, scaled dot-product attention with padding
masked), on the same safetensors weights and the same WordPiece tokenizer (``tokenizer.json``
through the ``tokenizers`` library). tests/scorer/metrics/test_token_alignment.py checks it
against transformers' model: every vector within 1e-5, the scores within 1e-6.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn import functional


class Layer(nn.Module):
    """One post-layer-norm transformer block (BertLayer)."""

    def __init__(self, hidden: int, intermediate: int, heads: int, eps: float) -> None:
        super().__init__()
        self.heads, self.eps = heads, eps
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=eps)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=eps)

    def forward(
        self, states: torch.Tensor, mask: torch.Tensor | None, queries: slice = slice(None)
    ) -> torch.Tensor:
        """The new states of the positions ``queries`` (all by default), each attending to
        every unmasked position."""
        batch, _, hidden = states.shape

        def split(projected: torch.Tensor) -> torch.Tensor:
            heads = projected.view(batch, projected.shape[1], self.heads, hidden // self.heads)
            return heads.transpose(1, 2)

        asked = states[:, queries]
        attended = functional.scaled_dot_product_attention(
            split(self.query(asked)),
            split(self.key(states)),
            split(self.value(states)),
            attn_mask=mask,
        )
        attended = attended.transpose(1, 2).reshape(batch, asked.shape[1], hidden)
        asked = self.attention_norm(self.attention_output(attended) + asked)
        widened = functional.gelu(self.intermediate(asked))
        return self.output_norm(self.output(widened) + asked)


class Encoder(nn.Module):
    """Embeddings, then the layers; ``forward`` gives the last layer's hidden states."""

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__()
        hidden, eps = config["hidden_size"], config["layer_norm_eps"]
        self.words = nn.Embedding(config["vocab_size"], hidden)
        self.positions = nn.Embedding(config["max_position_embeddings"], hidden)
        self.token_types = nn.Embedding(config["type_vocab_size"], hidden)
        self.embedding_norm = nn.LayerNorm(hidden, eps=eps)
        self.layers = nn.ModuleList(
            Layer(hidden, config["intermediate_size"], config["num_attention_heads"], eps)
            for _ in range(config["num_hidden_layers"])
        )

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        inner_only: bool = False,
    ) -> torch.Tensor:
        """The last layer's states; of every position, or with ``inner_only`` (rows of one
        length, no padding) of all but the first and last ([CLS] and [SEP], which the metrics
        leave out): the last layer then computes their keys and values only, not their
        queries, attention output and feed-forward (2 rows in 7 of PMB sentences)."""
        if inner_only and attention_mask is not None:
            raise ValueError("inner_only needs rows of one length (no attention mask)")
        length = input_ids.shape[1]
        positions = torch.arange(length).unsqueeze(0)
        states = self.words(input_ids) + self.token_types(torch.zeros_like(input_ids))
        states = self.embedding_norm(states + self.positions(positions))
        mask = None
        if attention_mask is not None:  # every query sees the real tokens only
            mask = attention_mask.bool()[:, None, None, :]
        *inner, last = self.layers
        for layer in inner:
            states = layer(states, mask)
        return last(states, mask, slice(1, length - 1) if inner_only else slice(None))


WEIGHT_NAMES = {
    "words.weight": "embeddings.word_embeddings.weight",
    "positions.weight": "embeddings.position_embeddings.weight",
    "token_types.weight": "embeddings.token_type_embeddings.weight",
    "embedding_norm.weight": "embeddings.LayerNorm.weight",
    "embedding_norm.bias": "embeddings.LayerNorm.bias",
}
LAYER_WEIGHT_NAMES = {
    "query": "attention.self.query",
    "key": "attention.self.key",
    "value": "attention.self.value",
    "attention_output": "attention.output.dense",
    "attention_norm": "attention.output.LayerNorm",
    "intermediate": "intermediate.dense",
    "output": "output.dense",
    "output_norm": "output.LayerNorm",
}
"""Our parameters -> the names transformers' BertModel saves them under."""


def saved_name(name: str) -> str:
    if name in WEIGHT_NAMES:
        return WEIGHT_NAMES[name]
    _, index, module, kind = name.split(".")
    return f"encoder.layer.{index}.{LAYER_WEIGHT_NAMES[module]}.{kind}"


def load_encoder(folder: Path) -> Encoder:
    """The encoder of ``folder`` (config.json, model.safetensors), in evaluation mode."""
    from safetensors.torch import load_file

    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    if config.get("position_embedding_type", "absolute") != "absolute" or config.get(
        "hidden_act"
    ) not in ("gelu", None):
        raise ValueError(f"{folder} is not a BERT this encoder computes")
    saved = load_file(str(folder / "model.safetensors"))
    encoder = Encoder(config)  # (on torch's "meta" device, no initial weights but +0.9 s CPU)
    state = {name: saved[saved_name(name)] for name in encoder.state_dict()}
    encoder.load_state_dict(state, strict=True)
    return encoder.eval()


class WordPiece:
    """The model's own tokenizer (``tokenizer.json``): [CLS] pieces [SEP], truncated."""

    def __init__(self, folder: Path, max_tokens: int) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_tokens)
        self.pad_id = self._tokenizer.token_to_id("[PAD]")

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [encoding.ids for encoding in self._tokenizer.encode_batch(list(texts))]
