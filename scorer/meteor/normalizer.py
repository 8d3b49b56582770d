"""METEOR 1.5's ``-norm`` for English (``Normalizer.normalizeLine``, punctuation kept): its
regular expressions in Python's syntax, with Java's meaning of ``\\s`` and ``\\p{Digit}`` (ASCII
only) and of ``String.trim`` (every character up to U+0020)."""

from __future__ import annotations

import re
from collections.abc import Mapping

_ALPHA = "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e"
_ALPHA += "\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
_ALNUM = "0-9" + _ALPHA
_JAVA_SPACE = " \t\n\x0b\x0c\r"

_SEPARATE_OTHER = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_MULTI_DOT_NEXT = re.compile(r"DOTMULTI\.([^.])")
_COMMA = re.compile(r"([^0-9]),([^0-9])")
_COMMA_AFTER_DIGIT = re.compile(r"([0-9]),([^0-9])")
_COMMA_BEFORE_DIGIT = re.compile(r"([^0-9]),([0-9])")
_SINGLE_QUOTES = re.compile("([`\u2018\u2019])")
_DOUBLE_QUOTES = re.compile("([\u201c\u201d]|'')")
_DASH_BETWEEN = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_CONTRACTIONS = (
    (re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([^{_ALPHA}0-9])'([{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([{_ALPHA}])"), r"\1 '\2"),
    (re.compile("([0-9])'(s)"), r"\1 '\2"),
)
_HAS_LETTER = re.compile(f"[{_ALPHA}]")
_WHITE = re.compile("[ \u2000-\u200a\u202f\u205f\u3000\u00a0]+")
_TOKEN_SPLIT = re.compile("[ \t\n\r\x0c]+")
NUMERIC_ONLY = 2


def java_trim(text: str) -> str:
    return text.strip("".join(map(chr, range(33))))


def java_tokens(text: str) -> list[str]:
    """``java.util.StringTokenizer``'s tokens (split on space, tab, newline, CR, form feed)."""
    return [token for token in _TOKEN_SPLIT.split(text) if token]


def read_prefixes(text: str) -> dict[str, int]:
    """The non-breaking prefix list: a prefix, ``#NUMERIC_ONLY#`` after it when it stays
    only before numbers (2), else 1; lines starting with ``#`` are comments."""
    prefixes: dict[str, int] = {}
    for line in text.splitlines():
        tokens = java_tokens(line)
        if not tokens or tokens[0].startswith("#"):
            continue
        numeric = len(tokens) > 1 and tokens[1] == "#NUMERIC_ONLY#"
        prefixes[tokens[0]] = NUMERIC_ONLY if numeric else 1
    return prefixes


def _stays_attached(kind: int | None, following: str | None) -> bool:
    """A known prefix, a lower-case word next, or a numeric-only prefix before a number."""
    if kind == 1 or (following is not None and "a" <= following[0] <= "z"):
        return True
    return kind == NUMERIC_ONLY and following is not None and "0" <= following[0] <= "9"


def normalize_english(line: str, prefixes: Mapping[str, int]) -> str:
    """``Normalizer.normalizeLine(line, english, keepPunctuation=true)``."""
    text = _MULTI_DOT.sub(r" DOTMULTI\1", _SEPARATE_OTHER.sub(r" \1 ", f" {line} "))
    while "DOTMULTI." in text:
        text = _MULTI_DOT_NEXT.sub(r"DOTDOTMULTI \1", text).replace("DOTMULTI.", "DOTDOTMULTI")
    text = _COMMA.sub(r"\1 , \2", text)
    text = _COMMA_AFTER_DIGIT.sub(r"\1 , \2", text)
    text = _COMMA_BEFORE_DIGIT.sub(r"\1 , \2", text)
    text = _DOUBLE_QUOTES.sub(' " ', _SINGLE_QUOTES.sub("'", text))
    text = text.replace("\u2013", "-").replace("--", "-")
    text = _DASH_BETWEEN.sub(r"\1 \2", text)
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    tokens = java_tokens(text)
    out: list[str] = []
    for j, token in enumerate(tokens):
        following = tokens[j + 1] if j + 1 < len(tokens) else None
        if len(token) > 1 and token.endswith("."):
            stem = token[:-1]
            kind = prefixes.get(stem)
            if "." in stem and _HAS_LETTER.search(stem):
                out.append(token.replace(".", ""))
            elif _stays_attached(kind, following):
                out.append(token)
            else:
                out.append(stem + " .")
        else:
            out.append(token)
        out.append(" ")
    text = "".join(out)
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    return java_trim(_WHITE.sub(" ", text))
