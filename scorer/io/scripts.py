"""Which script a file's letters are in, against the script of the kind's language: English
outputs on a Russian track pass every count (one line per entry) and would be scored as a
very bad Russian system; their letters say at once that the file is another one.

A pure function of the texts: ``Profile.output_warnings`` calls it at every gate.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from scorer.io.checks import FileWarning

SCRIPTS: dict[str, str] = {
    **dict.fromkeys(
        [
            "en",
            "de",
            "fr",
            "es",
            "it",
            "nl",
            "pt",
            "ca",
            "cs",
            "da",
            "et",
            "fi",
            "ga",
            "hr",
            "hu",
            "is",
            "lt",
            "lv",
            "mt",
            "no",
            "pl",
            "ro",
            "sk",
            "sl",
            "sv",
            "tr",
            "vi",
            "eu",
            "gl",
            "cy",
            "id",
            "ms",
            "sw",
            "af",
            "sq",
        ],
        "Latin",
    ),
    **dict.fromkeys(["ru", "uk", "be", "bg", "mk", "kk", "ky", "tg", "mn"], "Cyrillic"),
    "el": "Greek",
    **dict.fromkeys(["ar", "fa", "ur"], "Arabic"),
    "he": "Hebrew",
    **dict.fromkeys(["hi", "mr", "ne"], "Devanagari"),
    "zh": "CJK",
    "ko": "Hangul",
    "th": "Thai",
    "hy": "Armenian",
    "ka": "Georgian",
}
"""The script a language is written in, for the languages written in one (Serbian, Japanese
and others written in several are not checked)."""

EXPECTED_SHARE = 0.5
"""Below this share of its letters in the language's script a file is warned about: names of
people and places in another script are common (a Russian text's Latin names), a majority
of them is not."""

MIN_LETTERS = 20
"""Fewer letters say nothing about a file's language."""


@lru_cache(maxsize=4096)
def script_of(char: str) -> str | None:
    """The script of a letter, the first word of its Unicode name (``Latin``, ``Cyrillic``,
    ``CJK``...), or None for what is not a letter (digits, punctuation, spaces)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    return first.capitalize() if first != "CJK" else "CJK"


def script_shares(texts: Sequence[str]) -> tuple[Counter[str], int]:
    """How many letters of ``texts`` are in each script, and how many letters in all."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(script for char in text if (script := script_of(char)))
    return counts, sum(counts.values())


def language_warning(
    texts: Sequence[str],
    language: str | None,
    filename: str,
    lines: Sequence[int] | None = None,
) -> FileWarning | None:
    """A warning when most of the letters of ``texts`` are not in the script of ``language``
    (naming the share, the expected script and the first output written in another); None
    when they are, when the language is None or not written in one script, or when there
    are too few letters to tell."""
    expected = SCRIPTS.get((language or "").lower().split("-")[0])
    if expected is None:
        return None
    counts, total = script_shares(texts)
    if total < MIN_LETTERS or counts[expected] / total >= EXPECTED_SHARE:
        return None
    main, _ = counts.most_common(1)[0]
    first = next(
        (k for k, text in enumerate(texts) if _mostly(text, main)),
        None,
    )
    where = f"; the first such output is output {first + 1}" if first is not None else ""
    return FileWarning(
        f"{counts[expected] / total:.0%} of the letters are {expected} and "
        f"{counts[main] / total:.0%} {main}: outputs in {language!r} are written in "
        f"{expected} letters; is this another language's file?{where}",
        "script-of-language",
        filename,
        lines[first] if lines is not None and first is not None else None,
    )


def _mostly(text: str, script: str) -> bool:
    counts, total = script_shares([text])
    return total > 0 and counts[script] / total > EXPECTED_SHARE
