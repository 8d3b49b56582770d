"""Which code computes METEOR 1.5 and the PTB tokenisation (also used by ROUGE_L and CIDEr):
the Python ports (default; no Java needed) or the official jars (``jar``: a Java runtime,
two 2 GB JVMs per process), kept for cross-checks. Both give the same numbers; signatures say
which one ran (``impl:python`` / ``impl:jar``), and comparisons of signatures ignore it."""

from __future__ import annotations

import os
import re

VARIABLE = "NLGBOARD_METEOR"
CHOICES = ("python", "jar")
_PART = re.compile(r"\|impl:[a-z]+|\|transformers:[^|]*|\|encoder:[a-z-]+")
"""Parts that name which code ran, not what it computes: METEOR/PTB as the Python ports or the
jars (equal number for number), and the embedding model run by transformers or by our plain
torch encoder on the same weights (vectors within 1e-5, scores within 1e-6: far below the 4
decimals shown)."""


def current() -> str:
    value = os.environ.get(VARIABLE, "python").strip().lower() or "python"
    if value not in CHOICES:
        raise ValueError(f"{VARIABLE}={value!r}: choose one of {', '.join(CHOICES)}")
    return value


def use(choice: str) -> None:
    """Switch this process (and the processes it starts) to ``choice``."""
    if choice not in CHOICES:
        raise ValueError(f"unknown implementation {choice!r}: choose one of {', '.join(CHOICES)}")
    os.environ[VARIABLE] = choice


def uses_jar() -> bool:
    return current() == "jar"


def signature_part() -> str:
    return f"impl:{current()}"


def comparable(signature: str) -> str:
    """A signature without its implementation parts (``_PART``): what must match for two
    scores to be comparable."""
    return _PART.sub("", signature)
