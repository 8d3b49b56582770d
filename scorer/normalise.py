"""Output normalisation that real submissions needed, per track profile.

Decoding (BOM, CRLF, ``\\r\\r\\n``) happens in ``scorer.io.text``. Here:

* whitespace: trailing/leading spaces dropped, runs of whitespace collapsed;
* wrapping quotes: two E2E teams wrapped every output (and MR) in single quotes; the organisers
  stripped them, so do we -- only a pair that encloses the whole line;
* the E2E script's character fixes (``Â£``, ``Ł`` -> ``£``; ``Ã©`` -> ``é``) belong to its
  table reader and are applied there (``scorer.io.e2e``), as the script does: plain-text
  outputs keep their characters;
* SR'18: lowercase and collapse whitespace (SR'18 overview, Sect. 3.1).
"""

from __future__ import annotations


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
