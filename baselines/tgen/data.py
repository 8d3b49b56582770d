"""E2E data as TGen sees it: MRs as slot-value tokens, texts as tokens, ``name`` and ``near``
delexicalised (E2E paper Sect. 5.1: TGen handles unknown vocabulary badly, so the two sparse
string slots become X-name / X-near and are put back after decoding)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from scorer.errors import InputError
from scorer.io import e2e
from scorer.semantics.e2e_slots import LITERAL_SLOTS, check_output, delexicalise, parse_mr

TOKEN = re.compile(r"X-(?:name|near)|'s\b|\w+(?:[-'’.]\w+)*|[^\w\s]")
NO_SPACE_BEFORE = re.compile(r" ([.,!?;:%)]|'s\b|n't\b)")
NO_SPACE_AFTER = re.compile(r"([£$(]) ")


@dataclass(frozen=True)
class Example:
    """One (MR, reference) pair, delexicalised and tokenised."""

    mr: str
    source: tuple[str, ...]
    target: tuple[str, ...]


def mr_tokens(mr: str, leave_out: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """``name[X], food[Thai]`` -> ("name", "X-name", "food", "Thai"): one token per slot and
    per value, values of name/near replaced by their placeholder; slots in ``leave_out`` are
    skipped."""
    tokens: list[str] = []
    for slot, value in parse_mr(mr):
        if slot not in leave_out:
            tokens += [slot, f"X-{slot}" if slot in LITERAL_SLOTS else value]
    return tuple(tokens)


def mr_features(mr: str) -> frozenset[str]:
    """What the reranker checks an output for: slot=value, name/near without their value."""
    return frozenset(
        f"{slot}=X" if slot in LITERAL_SLOTS else f"{slot}={value}" for slot, value in parse_mr(mr)
    )


def realised_features(mr: str, tokens: list[str]) -> frozenset[str]:
    """The MR's features a delexicalised text expresses: those of slots the slot matcher does
    not find missed (or said with another value) in the relexicalised text."""
    check = check_output(mr, relexicalise(mr, tokens))
    absent = {e.slot for e in check.errors if e.kind in ("missed", "wrong")}
    return frozenset(
        feature for feature in mr_features(mr) if feature.split("=", 1)[0] not in absent
    )


def tokenise(text: str) -> tuple[str, ...]:
    return tuple(TOKEN.findall(text))


def detokenise(tokens: list[str]) -> str:
    text = NO_SPACE_BEFORE.sub(r"\1", " ".join(tokens))
    return NO_SPACE_AFTER.sub(r"\1", text)


def relexicalise(mr: str, tokens: list[str]) -> str:
    """Placeholders back to the MR's values; a placeholder the MR has no value for is dropped
    (the reranker has already penalised it)."""
    values = dict(parse_mr(mr))
    words = []
    for token in tokens:
        slot = token[2:] if token in ("X-name", "X-near") else None
        if slot is None:
            words.append(token)
        elif slot in values:
            words.append(values[slot])
    text = detokenise(words)
    return text[:1].upper() + text[1:]


def examples(items: list[e2e.ReferenceItem], clean: bool = False) -> list[Example]:
    """Every (MR, reference) pair of a grouped dataset. ``clean`` (after Dušek et al. 2019, by
    our slot matcher): the source is the MR less the slots the reference leaves out, so the
    generator never learns that a slot may be dropped; a reference that gives a slot another
    value than its MR's ("French" for food[Chinese]) is left out, so it never learns to say
    what it was not given."""
    pairs = []
    for item in items:
        for ref in item.references:
            errors = check_output(item.input, ref).errors if clean else ()
            if any(e.kind == "wrong" for e in errors):
                continue
            missed = frozenset(e.slot for e in errors if e.kind == "missed")
            target = tokenise(delexicalise(item.input, ref))
            pairs.append(Example(item.input, mr_tokens(item.input, missed), target))
    return pairs


def read_dataset(path: Path) -> list[e2e.ReferenceItem]:
    return e2e.read_dataset_csv(path.read_bytes(), path.name)


def read_mrs(path: Path) -> list[str]:
    """The MRs to decode, from a test-input CSV (``MR``) or a dataset CSV (``mr,ref``, grouped,
    in first-appearance order, as the scorer groups references)."""
    data = path.read_bytes()
    if e2e.has_table_header(data, e2e.HEADER_REFERENCE):
        return [item.input for item in e2e.read_dataset_csv(data, path.name)]
    mrs = e2e.read_inputs_csv(data, path.name)
    for number, mr in enumerate(mrs, start=2):
        try:
            parse_mr(mr)
        except ValueError as error:
            raise InputError(str(error), filename=path.name, line=number) from None
    return mrs
