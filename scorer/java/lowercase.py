"""``String.toLowerCase`` as Java does it, for the tools whose output we reproduce.

Python and Java agree on every character but the capital sigma: both write a final sigma (ς)
at the end of a word, but Java finds the word with its own word-break rules (letters and digits
alternate within a word, ``-``, ``'``, ``.`` and ``_`` join letters, ``,`` and ``.`` join digits,
Chinese and Japanese script stands apart, marks and format characters attach to what precedes).
"""

from __future__ import annotations

import unicodedata

SIGMA = "\u03a3"
_MID_WORD = frozenset("\"'.\u00ad\u2027")
_MID_NUMBER = frozenset("\"',.\u066b")
_POST_NUMBER = frozenset("%&\u00a2\u066a\u2030\u2031")
_DANDA = frozenset("\u0964\u0965")


def java_lower(text: str) -> str:
    """``text.toLowerCase(Locale.ENGLISH)`` of Java 8-17."""
    lowered = text.lower()
    if SIGMA not in text:
        return lowered
    return "".join(_lower_sigma(text, i) if c == SIGMA else c.lower() for i, c in enumerate(text))


def _lower_sigma(text: str, index: int) -> str:
    start, end = _word_around(text, index)
    before = any(_cased(c) for c in text[start:index])
    after = any(_cased(c) for c in text[index + 1 : end])
    return "\u03c2" if before and not after else "\u03c3"


def _cased(c: str) -> bool:
    return c.islower() or c.isupper() or c.istitle()


def _ignored(c: str) -> bool:
    return c != "\u00ad" and unicodedata.category(c) in ("Mn", "Me", "Cf")


def _cjk(c: str) -> bool:
    code = ord(c)
    return (
        code == 0x3005
        or 0x4E00 <= code <= 0x9FA5
        or 0xF900 <= code <= 0xFA2D
        or 0x3099 <= code <= 0x309C
        or 0x30A1 <= code <= 0x30FE
        or 0x3041 <= code <= 0x309E
    )


def _letter(c: str) -> bool:
    return (unicodedata.category(c)[0] == "L" or unicodedata.category(c) == "Mc") and not _cjk(c)


def _digit(c: str) -> bool:
    return unicodedata.category(c)[0] == "N"


def _mid_word(c: str) -> bool:
    return c in _MID_WORD or unicodedata.category(c) in ("Pd", "Pc")


def _word_around(text: str, index: int) -> tuple[int, int]:
    """The start and end of the word-break segment holding ``text[index]``."""
    position = 0
    while position < len(text):
        end = _segment_end(text, position)
        if position <= index < end:
            return position, end
        position = end
    return index, index + 1


def _segment_end(chars: str, i: int) -> int:
    """Longest match of ``{word}(number word)*{number{post_number}}`` (or of a currency or
    ``#``-led number) from ``i``; one character (with the marks after it) when neither does."""
    j = _word(chars, i)
    if j == i and not _digit(chars[i]):
        if unicodedata.category(chars[i]) == "Sc" or chars[i] in "#.^\u00a2":
            j = _skip_format(chars, i + 1)
            if _number(chars, j) == j:
                return _skip_ignored(chars, i + 1)
        else:
            return _skip_ignored(chars, i + 1)
    while True:
        k = _number(chars, j)
        if k == j:
            return j
        w = _word(chars, k)
        if w == k:
            return k + 1 if k < len(chars) and chars[k] in _POST_NUMBER else k
        j = w


def _skip_ignored(chars: str, j: int) -> int:
    while j < len(chars) and _ignored(chars[j]):
        j += 1
    return j


def _skip_format(chars: str, j: int) -> int:
    """Format characters (not marks) are passed over even after a joining mark."""
    while j < len(chars) and chars[j] != "\u00ad" and unicodedata.category(chars[j]) == "Cf":
        j += 1
    return j


def _letter_at(chars: str, j: int) -> bool:
    return j < len(chars) and _letter(chars[j])


def _digit_at(chars: str, j: int) -> bool:
    return j < len(chars) and _digit(chars[j])


def _word(chars: str, i: int) -> int:
    """``let+(mid_word let+)* danda?`` from ``i``, marks and format characters riding on the
    letter before them: where it ends (``i`` if no letter)."""
    n, j = len(chars), i
    while j < n:
        if _letter(chars[j]):
            j = _skip_ignored(chars, j + 1)
        elif j > i and _mid_word(chars[j]) and _letter_at(chars, _skip_format(chars, j + 1)):
            j = _skip_format(chars, j + 1)
        else:
            break
    if j > i and j < n and chars[j] in _DANDA:
        j = _skip_format(chars, j + 1)
    return j


def _number(chars: str, i: int) -> int:
    n, j = len(chars), i
    while j < n:
        if _digit(chars[j]):
            j = _skip_ignored(chars, j + 1)
        elif j > i and chars[j] in _MID_NUMBER and _digit_at(chars, _skip_format(chars, j + 1)):
            j = _skip_format(chars, j + 1)
        else:
            break
    return j
