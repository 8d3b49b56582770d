"""A test set's published files read into items by the kind's reader: each item's input,
references and attributes, and the bytes a board's ``source_sha256`` of the test set is taken
from. A reader whose releases keep inputs and references in separate files that must align
(E2E's CSVs, SR'18's trees and sentences, DRS files and their sentences) names its reading on
itself (``Reader.release``, ``scorer.kinds.parts``); every other reader reads the references
file as ``nlg-score`` does (``profile_release``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from scorer.errors import InputError, SubsetsMissing
from scorer.io import conllu, drs, e2e, sr18
from scorer.kinds.profile import Profile

File = tuple[bytes, str]
"""A file's bytes and its name (for errors)."""


@dataclass(frozen=True)
class ReleaseItem:
    """One test item as the published files give it."""

    input: str
    references: tuple[str, ...]
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Release:
    """A test set's items, and the bytes its ``source_sha256`` is the hash of."""

    items: list[ReleaseItem]
    source: bytes
    left_out: tuple[str, ...] = ()
    """The kind's subsets left out: the set came without the attribute file that gives them
    (``Profile.attribute_files``), so its items are scored on all items only."""


ReadRelease = Callable[[Profile, File | None, File | None], Release]
"""(the kind's profile, inputs, references) -> the release; the import checked that the files
the kind needs are given."""


def e2e_release(profile: Profile, inputs: File | None, references: File | None) -> Release:
    """The ``mr,ref`` CSV; with an inputs CSV, items in the inputs' order and every input with
    references; without, in the MRs' first-appearance order."""
    assert references is not None
    items = e2e.read_dataset_csv(*references)
    if inputs is not None:
        items = _order_by_inputs(items, e2e.read_inputs_csv(*inputs), inputs[1])
    return Release([ReleaseItem(i.input, tuple(i.references)) for i in items], references[0])


def conllu_release(profile: Profile, inputs: File | None, references: File | None) -> Release:
    """Tree i of the CoNLL-U file is item i; its reference is the i-th sentence."""
    assert inputs is not None and references is not None
    trees = conllu.read_trees(*inputs)
    sentences = sr18.read_sentences(*references)
    if len(trees) != len(sentences):
        raise InputError(
            f"has {len(sentences)} reference sentences but {inputs[1]} has {len(trees)} trees; "
            "they must align one to one",
            filename=references[1],
        )
    empty = [index for index, sentence in enumerate(sentences) if not sentence]
    if empty:
        raise InputError(f"reference sentence {empty[0] + 1} is empty", filename=references[1])
    items = [ReleaseItem(tree.text, (ref,)) for tree, ref in zip(trees, sentences, strict=True)]
    return Release(items, inputs[0] + b"\x00" + references[0])


def drs_release(profile: Profile, inputs: File | None, references: File | None) -> Release:
    """DRSs in clause format with their ``.raw`` sentences, or SBN (which carries them)."""
    assert inputs is not None
    sentences, sentences_name = references or (None, inputs[1])
    items = drs.read_test_set(inputs[0], inputs[1], sentences, sentences_name)
    return Release(
        [ReleaseItem(item.drs, (item.text or "",)) for item in items],
        inputs[0] + b"\x00" + (sentences or b""),
    )


def profile_release(profile: Profile, inputs: File | None, references: File | None) -> Release:
    """A references file that says everything (WebNLG: each entry's triples, ``<lex>`` texts
    and attributes), read as ``nlg-score`` reads it. The inputs file teams get, when given,
    must list the same inputs in the same order (or give them, where the references hold
    none). A set without an attribute file of the kind (WebNLG+ 2020's instance types) is
    read without those subsets, as ``nlg-score`` reads it (``Release.left_out``)."""
    assert references is not None
    items, left_out = _read_references(profile, references)
    if inputs is not None and profile.read_inputs is not None:
        given = profile.read_inputs(*inputs)
        if not any(item.input for item in items):  # parallel reference files hold none
            _same_count(given, items, inputs[1], references[1])
            items = [
                dataclasses.replace(item, input=text)
                for item, text in zip(items, given, strict=True)
            ]
        _check_same_inputs(given, items, inputs[1], references[1])
    return Release(
        [
            ReleaseItem(item.input, tuple(item.references), getattr(item, "attributes", {}))
            for item in items
        ],
        references[0] + b"\x00" + (inputs[0] if inputs else b""),
        left_out,
    )


def _read_references(
    profile: Profile, references: File
) -> tuple[list[e2e.ReferenceItem], tuple[str, ...]]:
    """The references file's items, and the subsets left out for want of their attribute
    file; a subset no item has for any other reason (a kind that names an attribute its
    reader never gives) is refused: left out, it would be missing from every leaderboard."""
    try:
        return profile.read_references(*references), ()
    except SubsetsMissing as missing:
        if not set(missing.missing) <= set(profile.attribute_files):
            raise
        return missing.items, missing.missing


def _same_count(
    inputs: list[str], items: list[e2e.ReferenceItem], inputs_name: str, references_name: str
) -> None:
    if len(inputs) != len(items):
        raise InputError(
            f"has {len(inputs)} inputs but {references_name} has {len(items)} items; they must "
            "be the same test set",
            filename=inputs_name,
        )


def _check_same_inputs(
    inputs: list[str], items: list[e2e.ReferenceItem], inputs_name: str, references_name: str
) -> None:
    _same_count(inputs, items, inputs_name, references_name)
    for position, (given, item) in enumerate(zip(inputs, items, strict=True), 1):
        if given != item.input:
            raise InputError(
                f"input {position} is not item {position} of {references_name} (same order, "
                f"same triples): {given[:80]!r} vs {item.input[:80]!r}",
                filename=inputs_name,
            )


def _order_by_inputs(
    items: list[e2e.ReferenceItem], inputs: list[str], inputs_name: str
) -> list[e2e.ReferenceItem]:
    by_mr = {item.input: item for item in items}
    missing = [index for index, mr in enumerate(inputs) if mr not in by_mr]
    if missing:
        first = missing[0]
        raise InputError(
            f"{len(missing)} input MR(s) have no references, first {inputs[first][:80]!r}",
            filename=inputs_name,
            line=first + 2,
        )
    return [by_mr[mr] for mr in inputs]
