"""Which code computes METEOR 1.5 and the PTB tokenisation (also used by ROUGE_L and CIDEr):
the Python ports (default; no Java needed) or the official jars (``jar``: a Java runtime,
two 2 GB JVMs per process), kept for cross-checks. Both give the same numbers; signatures say
which one ran (``impl:python`` / ``impl:jar``), and comparisons of signatures ignore it."""

from __future__ import annotations

import os

from scorer.signature import Signature

VARIABLE = "NLGBOARD_METEOR"
CHOICES = ("python", "jar")


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
    """A signature without the parts that name which code ran (``Signature.comparable``): what
    must match for two scores to be comparable."""
    return str(Signature.parse(signature).comparable())
