"""Every WebNLG+ 2020 English text in ``../shared``: the ``<lex>`` of the English release's
train and dev files (``lang=""``) and the English ``<lex lang="en">`` of the Russian release,
each once, in sorted order (the test inputs carry none; no English system outputs are kept
there)."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET

from tests.support.paths import SHARED_DATA

WEBNLG_2020 = SHARED_DATA / "webnlg" / "2020"


def english_texts() -> list[str]:
    texts: set[str] = set()
    for path in sorted(WEBNLG_2020.glob("*/*/*triples/*.xml")):
        for lex in ET.parse(path).getroot().iter("lex"):
            if lex.get("lang") in ("", None, "en") and lex.text is not None:
                texts.add(lex.text)
    return sorted(texts)


def text_key(text: str) -> str:
    """What the fixture keys a text by (its text stays in ``../shared``)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def tokens_digest(texts: list[str], tokens: list[str]) -> str:
    """One sha256 over every text's key and its tokens (space-joined), in ``texts``' order."""
    digest = hashlib.sha256()
    for text, joined in zip(texts, tokens, strict=True):
        digest.update(f"{text_key(text)}\t{joined}\n".encode())
    return digest.hexdigest()
