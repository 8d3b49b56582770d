"""Output normalisation that real submissions needed, per track profile.

Decoding (BOM, CRLF, ``\\r\\r\\n``) happens in ``scorer.io.text``. Here:

* whitespace: trailing/leading spaces dropped, runs of whitespace collapsed;
* wrapping quotes: two E2E teams wrapped every output (and MR) in single quotes; the organisers
  stripped them, so do we -- only a pair that encloses the whole line;
* mojibake of the E2E data's non-ASCII characters: UTF-8 read as Windows-1252 (``Â£`` for ``£``,
  ``Ã©`` for ``é``) is repaired by re-encoding, and ``Ł`` (a Central-European code page's byte
  for ``£``) becomes ``£``;
* SR'18: lowercase and collapse whitespace (SR'18 overview, Sect. 3.1).
"""

from __future__ import annotations

import re

_MOJIBAKE_MARKERS = re.compile("[ÂÃ][\u0080-\u00bf\u0152-\u02dc\u2013-\u2122]")


def collapse_whitespace(text: str) -> str:
    return " ".join(text.split())


def strip_wrapping_quotes(text: str) -> str:
    if len(text) >= 2 and text[0] == "'" and text[-1] == "'":
        return text[1:-1].strip()
    return text


def repair_mojibake(text: str) -> str:
    if _MOJIBAKE_MARKERS.search(text):
        try:
            text = text.encode("cp1252").decode("utf-8")
        except UnicodeError:
            pass
    return text.replace("Ł", "£")


def normalise_e2e(text: str) -> str:
    return repair_mojibake(strip_wrapping_quotes(collapse_whitespace(text)))


def normalise_sr18(text: str) -> str:
    return collapse_whitespace(text).lower()
