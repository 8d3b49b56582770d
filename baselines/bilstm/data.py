"""DRS and text as the char-level bi-LSTM sees them (Wang et al. 2021, Sect. 2.1-2.2).

Input: WordNet concepts, roles, operators, constants, node and box indices are atomic tokens (a
concept gets its own embedding, so the model cannot copy characters of ``touch.v.01`` into the
text); names, numbers and other quoted or numeric values are split into characters, with ``∼``
for a space inside a name ("b r a d ∼ p i t t"). Output: the sentence's characters, ``|||``
marking a space.
"""

from __future__ import annotations

import re

from scorer.io.drs import SBN_INDEX, SBN_SENSE, TOKEN

SPACE = "|||"
NAME_SPACE = "∼"
HAS_DIGIT = re.compile(r"\d")
BOX_INDEX = re.compile(r"[<>]\d+$")
QUOTE = '"'


def drs_tokens(sbn: str) -> tuple[str, ...]:
    """One SBN (PMB 5) as encoder tokens."""
    tokens: list[str] = []
    for token in TOKEN.findall(sbn):
        if token.startswith(QUOTE) and token.endswith(QUOTE) and len(token) > 1:
            tokens += [QUOTE, *_characters(token[1:-1]), QUOTE]
        elif any(p.match(token) for p in (SBN_SENSE, SBN_INDEX, BOX_INDEX)) or not HAS_DIGIT.search(
            token
        ):
            tokens.append(token)
        else:
            tokens += _characters(token)
    return tuple(tokens)


def text_tokens(text: str) -> tuple[str, ...]:
    """A sentence as decoder tokens: characters, ``|||`` for each run of spaces."""
    return tuple(SPACE if part == " " else part for part in re.sub(r"\s+", " ", text.strip()))


def text_from_tokens(tokens: list[str]) -> str:
    return "".join(" " if token == SPACE else token for token in tokens).strip()


def _characters(value: str) -> list[str]:
    return [NAME_SPACE if char == " " else char for char in value]
