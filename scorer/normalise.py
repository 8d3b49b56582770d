"""Output normalisation that real submissions needed, per track profile.

Decoding (BOM, CRLF, ``\\r\\r\\n``) happens in ``scorer.io.text``. Here:

* whitespace: trailing/leading spaces dropped, runs of whitespace collapsed;
* wrapping quotes: two E2E teams wrapped every output (and MR) in single quotes; the organisers
  stripped them, so do we -- only a pair that encloses the whole line;
* the E2E script's character fixes (``Â£``, ``Ł`` -> ``£``; ``Ã©`` -> ``é``) belong to its
  table reader and are applied there (``scorer.io.e2e``), as the script does: plain-text
  outputs keep their characters;
* SR'18: lowercase and collapse whitespace (SR'18 overview, Sect. 3.1);
* WebNLG 2017: as its evaluation.py prepares files for the metrics (ASCII by unidecode,
  lowercase, every non-word character a token), outputs and references each in the script's
  own order of steps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass


def collapse_whitespace(text: str) -> str:
    return " ".join(text.split())


def strip_wrapping_quotes(text: str) -> str:
    if len(text) >= 2 and text[0] == "'" and text[-1] == "'":
        return text[1:-1].strip()
    return text


def normalise_e2e(text: str) -> str:
    return strip_wrapping_quotes(collapse_whitespace(text))


def normalise_sr18(text: str) -> str:
    return collapse_whitespace(text).lower()


_NON_WORD = re.compile(r"(\W)")


def _split_non_word(text: str) -> str:
    """Every non-word character a token of its own, whitespace collapsed (Python's ``\\W`` and
    ``str.split``, as the WebNLG script calls them)."""
    return " ".join(" ".join(_NON_WORD.split(text)).split())


def webnlg2017_output(text: str) -> str:
    """A system output as the WebNLG 2017 evaluation.py writes it for the metrics: stripped and
    transliterated to ASCII when read (``unidecode(line.strip())``), then lowercased, split on
    every non-word character and respaced."""
    from unidecode import unidecode

    return _split_non_word(unidecode(unidecode(text.strip()).lower()))


def webnlg2017_reference(text: str) -> str:
    """A ``<lex>`` reference as the same script writes it: split on every non-word character
    and respaced *first*, then lowercased and transliterated. The order differs from the outputs'
    on purpose (the script's): a character that is a word character before transliteration but
    gives punctuation after it (``½`` -> ``1/2``) stays glued in a reference, and transliteration
    may leave a trailing space (``北京`` -> ``Bei Jing ``)."""
    from unidecode import unidecode

    return unidecode(_split_non_word(text).lower())


def first_references(references: Sequence[str], count: int) -> tuple[str, ...]:
    """The first ``count`` references of an item, in file order (WebNLG 2017 scored on 3)."""
    return tuple(references[:count])


@dataclass(frozen=True)
class Normalisation:
    """A named pair: how outputs and how references are prepared before any metric sees them."""

    name: str
    output: Callable[[str], str]
    reference: Callable[[str], str]


class Outputs(list[str]):
    """A file's outputs normalised by the profile, with the texts as its reader gave them kept
    beside (``as_read``): a metric whose official tool read the file itself (SER: the E2E
    slot-error script sees "less than  £20" with its two spaces, and misses the price) reads
    those, every other metric the normalised ones."""

    def __init__(self, normalised: Iterable[str], as_read: Sequence[str]):
        super().__init__(normalised)
        self.as_read = tuple(as_read)
        if len(self.as_read) != len(self):
            raise ValueError(f"{len(self)} normalised outputs for {len(self.as_read)} read")


def as_read(outputs: Sequence[str]) -> Sequence[str]:
    """The outputs as the file had them where they were read from a file (``Outputs``), else
    the texts given (outputs made in memory have nothing else to offer)."""
    return outputs.as_read if isinstance(outputs, Outputs) else outputs


def unchanged(text: str) -> str:
    """References as the file has them (metrics that do their own case and tokens)."""
    return text


NORMALISATIONS: dict[str, Normalisation] = {
    "e2e": Normalisation("e2e", normalise_e2e, unchanged),
    "sr18": Normalisation("sr18", normalise_sr18, unchanged),
    "drs": Normalisation("drs", collapse_whitespace, unchanged),
    "webnlg2017": Normalisation("webnlg2017", webnlg2017_output, webnlg2017_reference),
    "none": Normalisation("none", unchanged, unchanged),
}
"""Normalisations by name, for track definitions. The E2E, SR'18 and DRS profiles prepare only
the outputs (their metrics do their own case and token handling on both sides)."""
