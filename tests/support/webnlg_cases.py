"""Generated WebNLG files for the differential tests against the official 2017 and 2020 tools.

A test-like benchmark (``test_like_xml``): the 2017 dev entries, with train entries relabelled
into the 5 categories training lacks (so every subset of the 2017 evaluation has entries: 15
categories, sizes 1-7, seen and unseen), eids renumbered ``Id1..IdN``, and some references
given the characters the normalisation trips on. Outputs (``outputs``) are made from the
entries' references the way system outputs differ from them: copies (of one of the first three
references or of a later one), words dropped, swapped, repeated, blank lines, case changes,
non-ASCII, numbers such as 65.6, punctuation, control characters. Seeded.
"""

from __future__ import annotations

import functools
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from tests.support.paths import ORACLES, SHARED_DATA, shared_file

WEBNLG_2017 = SHARED_DATA / "webnlg" / "2017"
ORACLE_2017 = ORACLES / "webnlg-2017-eval"
ORACLE_2020 = ORACLES / "webnlg-2020-eval"

UNSEEN = ("Artist", "Athlete", "CelestialBody", "MeanOfTransportation", "Politician")

PIECES = [
    "65.6",
    "1,234.5",
    "-5",
    "3/4",
    "½",
    "2.0e3",
    "(",
    ")",
    '"',
    "'s",
    "’",
    "“quoted”",
    "—",
    "–",
    "...",
    "…",
    "&amp;",
    "&quot;",
    "<skipped>",
    "%",
    "$",
    "€",
    "£",
    "°C",
    "km²",
    "São Paulo",
    "Zürich",
    "Łódź",
    "İstanbul",
    "straße",
    "Ǆ",
    "ﬁne",
    "北京",
    "Привет",
    "😀",
    "_",
    "a_b",
    "|",
    "|||",
    "\x01",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1d",
    "\x85",
    "\u2028",
    "\u00a0",
    "\u2009",
    "\u200b",
    "\t",
    "  ",
    "\u00ad",
    "U.S.",
    "e.g.",
    "don't",
    "2,702.0",
    "0",
    "#1",
    "C++",
    "@",
]
"""Pieces glued into outputs and, more rarely, references."""

SPLITLINES_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
"""What Python's ``splitlines`` (and so WebNLG+ 2020's chrF++ wrapper, which reads its temporary
files with ``codecs``) also breaks lines on: a known divergence, kept out of the chrF++ cases."""


def _clean(text: str, breaks: tuple[str, ...] = ("\n", "\r")) -> str:
    """Without line breaks (an output is one line of a file)."""
    for character in breaks:
        text = text.replace(character, " ")
    return text


def without_splitlines_breaks(text: str) -> str:
    return _clean(text, SPLITLINES_BREAKS)


XML_PIECES = [piece for piece in PIECES if not any(ord(c) < 0x20 and c != "\t" for c in piece)]
"""The pieces an XML 1.0 text may hold (no control characters but the tab)."""


def insert_pieces(rng: random.Random, text: str, count: int, pieces: list[str] = PIECES) -> str:
    for _ in range(count):
        piece = rng.choice(pieces)
        at = rng.randint(0, len(text))
        glue = rng.random()
        piece = f" {piece} " if glue < 0.5 else piece if glue < 0.75 else f"{piece} "
        text = text[:at] + piece + text[at:]
    return text


def _words(text: str) -> list[str]:
    return text.split()


def copy(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return rng.choice(refs[:3])


def copy_of_a_later_reference(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return rng.choice(refs[3:] or refs)


def drop_words(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return " ".join(w for w in _words(rng.choice(refs)) if rng.random() > 0.3)


def swap_words(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = _words(rng.choice(refs))
    for _ in range(rng.randint(1, 3)):
        if len(words) > 1:
            i, j = rng.randrange(len(words)), rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
    return " ".join(words)


def repeat_words(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    out: list[str] = []
    for word in _words(rng.choice(refs)):
        out.extend([word] * (2 if rng.random() < 0.2 else 1))
    return " ".join(out)


def truncate(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    words = _words(rng.choice(refs))
    return " ".join(words[: rng.randint(0, max(1, len(words) // 2))])


def blank(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return rng.choice(["", " ", "\t"])


def one_word(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return rng.choice(_words(rng.choice(refs)) or ["x"])


def cased(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    text = rng.choice(refs)
    return text.upper() if rng.random() < 0.5 else text.lower()


def odd_pieces(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return insert_pieces(rng, rng.choice(refs), rng.randint(1, 5))


def tokenised(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    text = rng.choice(refs)
    for mark in ".,;:()'\"":
        text = text.replace(mark, f" {mark} ")
    return " ".join(text.split())


def other_entry(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    return rng.choice(pool)


def mixed(rng: random.Random, refs: list[str], pool: list[str]) -> str:
    first, second = rng.sample(TRANSFORMS[2:10], 2)
    return second(rng, [first(rng, refs, pool)], pool)


Transform = Callable[[random.Random, list[str], list[str]], str]

TRANSFORMS: list[Transform] = [
    copy,
    copy_of_a_later_reference,
    drop_words,
    swap_words,
    repeat_words,
    truncate,
    one_word,
    cased,
    odd_pieces,
    tokenised,
    blank,
    other_entry,
    mixed,
]


def outputs(references: list[list[str]], seed: int) -> list[str]:
    """One output per entry, by a transform drawn per entry."""
    rng = random.Random(seed)
    pool = [ref for refs in references for ref in refs]
    return [_clean(rng.choice(TRANSFORMS)(rng, refs, pool)) for refs in references]


@functools.cache
def _entries(split: str) -> list[ET.Element]:
    folder = shared_file(WEBNLG_2017 / split)
    return [
        entry
        for path in sorted(folder.glob("*triples/*.xml"))
        for entry in ET.parse(path).getroot().iter("entry")
    ]


def dev_entries() -> list[ET.Element]:
    return _entries("dev")


def train_entries() -> list[ET.Element]:
    return _entries("train")


def test_like_xml(seed: int, unseen_per_category: int = 25, odd_references: float = 0.03) -> bytes:
    """A ``testdata_with_lex.xml`` from the dev entries and relabelled train entries."""
    rng = random.Random(seed)
    picked = [_copy(entry) for entry in dev_entries()]
    train = _entries("train")
    for category in UNSEEN:
        for entry in rng.sample(train, unseen_per_category):
            entry = _copy(entry)
            entry.set("category", category)
            picked.append(entry)
    rng.shuffle(picked)
    picked.sort(key=lambda entry: int(entry.get("size", "0")))  # as the test file: by size
    root = ET.Element("benchmark")
    entries = ET.SubElement(root, "entries")
    for number, entry in enumerate(picked, start=1):
        entry.set("eid", f"Id{number}")
        for lex in entry.iter("lex"):
            if lex.text and rng.random() < odd_references:
                lex.text = _clean(insert_pieces(rng, lex.text, rng.randint(1, 3), XML_PIECES))
        entries.append(entry)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _copy(entry: ET.Element) -> ET.Element:
    return ET.fromstring(ET.tostring(entry))


def lex_texts(xml: bytes) -> list[list[str]]:
    """Each entry's ``<lex>`` texts, in file order (the order the generated files keep)."""
    root = ET.fromstring(xml)
    return [[lex.text or "" for lex in entry.iter("lex")] for entry in root.iter("entry")]


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path
