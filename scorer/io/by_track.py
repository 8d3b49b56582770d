"""What each kind of track reads: outputs checked against the test inputs (one per input, in
test order) and references, for the track profiles (``scorer.profiles``) to plug in."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.errors import InputError
from scorer.io import drs, e2e, sr18, webnlg
from scorer.io.items import Item
from scorer.io.text import decode_text, split_lines
from scorer.normalise import first_references, normalise_e2e, webnlg2017_reference


def _needed(inputs: Sequence[str] | None, filename: str) -> Sequence[str]:
    if inputs is None:
        raise InputError("cannot be checked: the test set has no inputs", filename=filename)
    return inputs


def read_e2e_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """Read E2E outputs and check them against the test MRs: one output per MR, in order."""
    inputs = _needed(inputs, filename)
    outputs, mrs = e2e.read_outputs(data, filename)
    header_lines = 1 if mrs is not None else 0
    if len(outputs) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} outputs (one per test MR, in test order), "
            f"found {len(outputs)}" + (" after the header" if header_lines else ""),
            filename=filename,
        )
    if mrs is not None:
        for index, (found, expected) in enumerate(zip(mrs, inputs, strict=True)):
            if _comparable_mr(found) != _comparable_mr(expected):
                raise InputError(
                    f"MR {found[:80]!r} does not match test MR {index + 1} {expected[:80]!r}; "
                    "outputs must follow the test-set order",
                    filename=filename,
                    line=index + 1 + header_lines,
                )
    return outputs


def _comparable_mr(mr: str) -> str:
    """An MR as both sides are compared: the table fixes, wrapping quotes and spacing undone."""
    return normalise_e2e(e2e.fix_characters(mr))


def read_e2e_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """A reference table (``mr,ref``, any header the E2E script knows) or grouped plain text."""
    return e2e.read_references(data, filename)


def read_sr18_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """One reference per sentence, from ``# text =`` blocks (the Sentences files) or lines."""
    sentences = sr18.read_sentences(data, filename)
    return [e2e.ReferenceItem("", (text,)) for text in sentences]


def _one_text_per_input(
    data: bytes, inputs: Sequence[str] | None, filename: str, expected: str
) -> list[str]:
    inputs = _needed(inputs, filename)
    texts = sr18.read_sentences(data, filename)
    if len(texts) != len(inputs):
        raise InputError(
            f"expected {len(inputs)} {expected}, found {len(texts)}", filename=filename
        )
    return texts


def read_sr18_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """Read one language's SR'18 outputs: one sentence per input tree, in input order."""
    return _one_text_per_input(
        data, inputs, filename, "sentences (one per input tree, in input order)"
    )


def read_drs_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """One generated text per DRS, in test order (plain lines or ``# text =`` blocks)."""
    return _one_text_per_input(
        data, inputs, filename, "texts (one per DRS, in test order, challenge-set items included)"
    )


def read_drs_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """``nlg-score --profile drs``: the ``.raw`` sentences, or an SBN file's text column."""
    if drs.looks_like_sbn(data):
        return [
            e2e.ReferenceItem(item.drs, (item.text or "",))
            for item in drs.read_sbn_file(data, filename)
        ]
    return [e2e.ReferenceItem("", (text,)) for text in drs.read_sentences(data, filename)]


def read_webnlg_outputs(data: bytes, inputs: Sequence[str] | None, filename: str) -> list[str]:
    """One output per line, line k for entry ``Idk`` (as evaluation.py pairs them)."""
    inputs = _needed(inputs, filename)
    lines = split_lines(decode_text(data, filename))
    if len(lines) != len(inputs):
        hint = ""
        if len(lines) > len(inputs) and not "".join(lines[len(inputs) :]).strip():
            hint = " (the extra lines at the end are empty: remove them)"
        raise InputError(
            f"expected {len(inputs)} lines (one output per test entry, in eid order), "
            f"found {len(lines)}{hint}",
            filename=filename,
        )
    return lines


WEBNLG2017_REFERENCES = 3
"""The 2017 evaluation scored BLEU, METEOR and TER on each entry's first 3 references."""


def read_webnlg2017_references(data: bytes, filename: str) -> list[e2e.ReferenceItem]:
    """``testdata_with_lex.xml`` (or a train/dev file): entries with their first 3 ``<lex>``
    normalised as evaluation.py writes them, and the attributes of the 2017 subsets."""
    entries = webnlg.read_references(data, filename)
    items = webnlg.as_items(entries, webnlg.SEEN_CATEGORIES_2017)
    return [
        Item(
            item.input,
            first_references(
                [webnlg2017_reference(text) for text in item.references], WEBNLG2017_REFERENCES
            ),
            item.attributes,
        )
        for item in items
    ]
