"""Analyses a kind may name in its definition: per-output findings kept beside each output
(``annotate``) and descriptive statistics of outputs and references (``describe``). The E2E
paper's slot errors and its Tables 9-10 statistics are the ones there are."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence

from scorer.kinds.profile import Profile
from scorer.references import ReferenceSet

log = logging.getLogger(__name__)

Annotate = Callable[[Sequence[str], ReferenceSet], list[list[str]] | None]
Describe = Callable[[Sequence[str], ReferenceSet], dict[str, float] | None]


def annotate_slot_errors(
    outputs: Sequence[str], references: ReferenceSet
) -> list[list[str]] | None:
    """Each output's slot errors, described for people (None without MRs): found in the
    outputs as the file has them, as SER finds them."""
    if references.inputs is None:
        return None
    from scorer.metrics.ser import slot_checks
    from scorer.normalise import as_read

    checks = slot_checks(as_read(outputs), references)
    return [[error.describe() for error in check.errors] for check in checks]


def describe_e2e(texts: Sequence[str], references: ReferenceSet) -> dict[str, float] | None:
    """Lexical statistics and D-levels of texts, one per test item, names delexicalised with the
    item's MR. D-levels are left out (with a warning) where the link parser is not installed."""
    if references.inputs is None:
        return None
    from scorer.describe import dlevel
    from scorer.describe.textstats import text_statistics
    from scorer.semantics.e2e_slots import delexicalise

    delexicalised = [delexicalise(mr, t) for mr, t in zip(references.inputs, texts, strict=True)]
    result = text_statistics(delexicalised)
    if dlevel.available():
        result.update(dlevel.distribution(dlevel.text_levels(delexicalised)))
    else:
        log.warning("D-level left out: the link grammar parser is not installed")
    return result


def described_signature() -> str:
    """The signature of what describe_e2e computes on this machine."""
    from scorer.describe import dlevel
    from scorer.describe.textstats import signature

    return signature() + (f"|{dlevel.signature()}" if dlevel.available() else "")


REFERENCE_SEED = 2018


def random_references(references: ReferenceSet) -> list[str]:
    """One reference per item, drawn with the fixed seed: the E2E paper's "test set rand"."""
    rng = random.Random(REFERENCE_SEED)
    return [rng.choice(refs) for refs in references]


def describe_references(profile: Profile, references: ReferenceSet) -> dict[str, dict[str, float]]:
    """The two reference rows of E2E Tables 9-10: every reference ("test set all") and one
    reference per item drawn with a fixed seed ("test set rand")."""
    if profile.describe is None or references.inputs is None:
        return {}
    pairs = [
        (mr, ref) for mr, refs in zip(references.inputs, references, strict=True) for ref in refs
    ]
    flat = ReferenceSet(([ref] for _, ref in pairs), inputs=[mr for mr, _ in pairs])
    drawn = random_references(references)
    return {
        "test set all": profile.describe([ref for _, ref in pairs], flat) or {},
        "test set rand": profile.describe(drawn, references) or {},
    }


ANNOTATIONS: dict[str, Annotate] = {"e2e-slot-errors": annotate_slot_errors}
"""Per-output findings by name (``annotate:`` in a definition); they need the inputs (MRs)."""

DESCRIPTIONS: dict[str, Describe] = {"e2e-text-statistics": describe_e2e}
"""Descriptive statistics by name (``describe:`` in a definition)."""
