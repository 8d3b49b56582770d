"""English texts for the differential tests of the Java-free tokeniser and METEOR: the real
references the tests read from ``../shared/data`` and generated perturbations of them with the
characters tokenisers trip on (quotes, brackets, dashes, currency, numbers, contractions,
abbreviations, URLs, soft hyphens, non-ASCII and non-BMP characters)."""

# ruff: noqa: RUF001 (the look-alike characters are the point)
from __future__ import annotations

import csv
import random
from collections.abc import Iterator

from tests.support.paths import drs_file, e2e_file, sr18_file

PIECES = [
    "'",
    '"',
    "`",
    "``",
    "''",
    "‘",
    "’",
    "“",
    "”",
    "«",
    "»",
    "‹",
    "›",
    "„",
    "‚",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "-",
    "--",
    "---",
    "–",
    "—",
    "―",
    "...",
    "…",
    ". . .",
    "$",
    "£",
    "€",
    "¥",
    "¢",
    "¤",
    "₠",
    "US$",
    "C$",
    "#",
    "%",
    "&",
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&apos;",
    "&AMP;",
    "/",
    "\\",
    "*",
    "**",
    "+",
    "=",
    "@",
    "^",
    "~",
    "|",
    "_",
    ";",
    ":",
    ",",
    ".",
    "!",
    "?",
    "?!",
    "!!",
    "·",
    "•",
    "§",
    "©",
    "®",
    "™",
    "°",
    "×",
    "÷",
    "±",
    "1,000",
    "3.50",
    "£20-25",
    "£20",
    "20£",
    "$5.99",
    "1/2",
    "3/4",
    "½",
    "¼",
    "¾",
    "⅓",
    "⅔",
    "2 1/2",
    "10:30",
    "1990s",
    "'90s",
    "'til",
    "24/7",
    "+44",
    "-5",
    "1.",
    "2nd",
    "5-star",
    "U.S.",
    "U.K.",
    "Mr.",
    "Mrs.",
    "Dr.",
    "etc.",
    "e.g.",
    "i.e.",
    "a.m.",
    "p.m.",
    "Inc.",
    "Corp.",
    "Ltd.",
    "St.",
    "Ave.",
    "Jan.",
    "No.",
    "vs.",
    "approx.",
    "A.",
    "b.",
    "don't",
    "can't",
    "won't",
    "it's",
    "they're",
    "we've",
    "I'd",
    "you'll",
    "I'm",
    "ain't",
    "cannot",
    "gonna",
    "gotta",
    "wanna",
    "lemme",
    "d'ye",
    "'em",
    "y'all",
    "o'clock",
    "ma'am",
    "rock'n'roll",
    "O'Brien",
    "children's",
    "kids'",
    "James'",
    "it’s",
    "don’t",
    "l'eau",
    "family-friendly",
    "well-known",
    "co-op",
    "re-open",
    "e-mail",
    "x-ray",
    "mid-range",
    "http://www.example.com/a?b=c",
    "www.fitzbillies.co.uk",
    "info@aromi.com",
    "file.txt",
    "café",
    "Café",
    "naïve",
    "crème brûlée",
    "Zoë",
    "Ægir",
    "smørrebrød",
    "Łódź",
    "İstanbul",
    "ΣΟΦΙΑ",
    "ὈΔΥΣΣΕΎΣ",
    "straße",
    "Ǆ",
    "ﬁne",
    "日本",
    "中文",
    "한국어",
    "Привет",
    "مرحبا",
    "😀",
    "👍🏽",
    "𝔘𝔫𝔦",
    "\u00ad",
    "co\u00adop",
    "\u00a0",
    "\u2009",
    "\u200b",
    "\u2028",
    "\t",
    "  ",
    "\u0085",
    "\u000b",
    "\u000c",
    "\ufeff",
    "\u0092",
    "\u0093",
    "\u0094",
    "\x80",
    ":-)",
    ";)",
    "<3",
    "A&P",
    "AT&T",
    "R&B",
    "3M",
    "C++",
    "C#",
    ".NET",
    "#1",
    "@home",
    "n't",
    "'s",
    "'ll",
    "'re",
    "'ve",
    "'d",
    "'m",
    "'S",
    "N'T",
    "CAN'T",
    "DON'T",
]
"""Pieces inserted into real sentences (the second half are whole words glued to neighbours)."""


def e2e_references(name: str = "trainset.csv") -> list[str]:
    with e2e_file(name).open(encoding="utf-8", newline="") as stream:
        return [row["ref"] for row in csv.DictReader(stream)]


def sr18_english_sentences(limit: int | None = None) -> list[str]:
    """The ``# text =`` lines of the English SR'18 dev sentences."""
    path = sr18_file("Sentences/en-ud-dev_sentences.txt")
    prefix = "# text = "
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line[len(prefix) :] for line in lines if line.startswith(prefix)][:limit]


def drs_english_texts(limit: int | None = None) -> list[str]:
    """The raw English sentences of the DRS data (its ``*.raw`` files)."""
    texts: list[str] = []
    for name in ("pmb3.0.0_en_clf/gold/dev.txt.raw", "pmb3.0.0_en_clf/gold/train.txt.raw"):
        lines = drs_file(name).read_text(encoding="utf-8").splitlines()
        texts.extend(line for line in lines if line)
    return texts[:limit]


def perturbations(texts: list[str], count: int, seed: int = 0) -> Iterator[str]:
    """``count`` texts: a real one with 1-6 pieces inserted at random places (inside words,
    glued to them or between them), sometimes cased or spaced oddly."""
    rng = random.Random(seed)
    for _ in range(count):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 6)):
            piece = rng.choice(PIECES)
            at = rng.randint(0, len(text))
            glue = rng.random()
            if glue < 0.4:
                piece = f" {piece} "
            elif glue < 0.6:
                piece = f" {piece}"
            elif glue < 0.8:
                piece = f"{piece} "
            text = text[:at] + piece + text[at:]
        roll = rng.random()
        if roll < 0.05:
            text = text.upper()
        elif roll < 0.1:
            text = text.lower()
        elif roll < 0.13:
            text = text.replace(" ", "  ")
        elif roll < 0.15:
            text = " " + text + " "
        yield text
