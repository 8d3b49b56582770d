"""Stanford CoreNLP 3.4.1's PTB tokeniser in Python, token for token.

CoreNLP's ``PTBLexer`` is a JFlex scanner: a state machine (its tables) and one action per rule.
The tables are read from the CoreNLP jar shipped in pycocoevalcap (``scorer.java.classfile``) and
cached in the user's cache folder; the actions are ported below, with the options the COCO
caption code uses (``PTBTokenizer -preserveLines -lowerCase``: ``ptb3Escaping``, ``tokenizeNLs``,
``splitAssimilations``, unknown characters deleted). The scanner works on UTF-16 code units as
Java does, so characters outside the BMP fall into the same rules.

The behaviour is CoreNLP's (GPL v2+), ported from its compiled class; the tables are never
copied into this project.
"""

from __future__ import annotations

import re
import struct
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from scorer.cache import built_file
from scorer.errors import ScanError
from scorer.java.classfile import string_constants
from scorer.java.jars import coco_file
from scorer.java.lowercase import java_lower

JAR = "tokenizer/stanford-corenlp-3.4.1.jar"
LEXER_CLASS = "edu/stanford/nlp/process/PTBLexer.class"
START_STATE = 2
"""ZZ_LEXSTATE[4]: the lexical state of a non-strict-Treebank-3 tokeniser."""
NEWLINE_TOKEN = "*NL*"


class Tables:
    """The scanner's state machine: character classes, transitions, row offsets, actions and
    attributes (bit 1: accepting; bit 8: no longer match possible)."""

    __slots__ = ("action", "attribute", "cmap", "rowmap", "trans")

    def __init__(self, parts: Sequence[Sequence[int]]) -> None:
        self.cmap, self.action, self.rowmap, self.trans, self.attribute = (list(p) for p in parts)


def _unpack_runs(packed: Sequence[int], offset: int = 0) -> list[int]:
    """JFlex's run-length packing: (count, value) pairs, values shifted by ``offset``."""
    result: list[int] = []
    for i in range(0, len(packed), 2):
        result.extend([packed[i + 1] - offset] * packed[i])
    return result


def _unpack_tables(jar: Path) -> list[list[int]]:
    strings = string_constants(jar, LEXER_CLASS)
    rowmap_packed = strings["ZZ_ROWMAP_PACKED_0"]
    trans: list[int] = []
    part = 0
    while f"ZZ_TRANS_PACKED_{part}" in strings:
        trans.extend(_unpack_runs(strings[f"ZZ_TRANS_PACKED_{part}"], offset=1))
        part += 1
    return [
        _unpack_runs(strings["ZZ_CMAP_PACKED"]),
        _unpack_runs(strings["ZZ_ACTION_PACKED_0"]),
        [(rowmap_packed[i] << 16) | rowmap_packed[i + 1] for i in range(0, len(rowmap_packed), 2)],
        trans,
        _unpack_runs(strings["ZZ_ATTRIBUTE_PACKED_0"]),
    ]


def _write_tables(jar: Path, target: Path) -> None:
    parts = [array("i", part) for part in _unpack_tables(jar)]
    with target.open("wb") as out:
        out.write(struct.pack("<5I", *(len(part) for part in parts)))
        for part in parts:
            out.write(part.tobytes())


@cache
def tables() -> Tables:
    """The tables, unpacked from the jar once per machine and read from the cache after."""
    jar = coco_file(JAR)
    path = built_file("ptb-lexer", [jar], ".bin", lambda target: _write_tables(jar, target))
    data = path.read_bytes()
    lengths = struct.unpack_from("<5I", data)
    parts, offset = [], 20
    for length in lengths:
        part = array("i")
        part.frombytes(data[offset : offset + 4 * length])
        parts.append(part)
        offset += 4 * length
    return Tables(parts)


_FRACTIONS = (("¼", "1/4"), ("½", "1/2"), ("¾", "3/4"), ("\u2153", "1/3"), ("\u2154", "2/3"))
_OTHER_CURRENCY = re.compile("[\u0080\u00a4\u20a0\u20ac]")
_AMP = re.compile("&amp;", re.IGNORECASE)
_LEFT_SINGLE = re.compile("[\u0091\u2018\u201b\u2039]")
_RIGHT_SINGLE = re.compile("[\u0092\u2019\u203a]")
_LEFT_DOUBLE = re.compile("[\u0093\u201c\u00ab]")
_RIGHT_DOUBLE = re.compile("[\u0094\u201d\u00bb]")
_SINGLE = re.compile("&apos;|'")
_DOUBLE = re.compile('"|&quot;')
_TRAILING_SPACE = frozenset(" \t\n\u000b\u000c\r\u0085")
_TRAILING_CONTEXT = {24: (13, 14), 30: (3, 4), 40: (5, 6), 41: (16, 17), 43: (15, 14)}
_TRAILING_CONTEXT |= {44: (9, 10), 47: (7, 8), 49: (11, 12)}
"""Actions whose rule has a variable-length trailing context: (forward, backward) start states."""


def latex_quotes(text: str, probably_left: bool) -> str:
    if probably_left:
        text = _DOUBLE.sub("``", _SINGLE.sub("`", text))
    else:
        text = _DOUBLE.sub("''", _SINGLE.sub("'", text))
    text = _LEFT_SINGLE.sub("`", text)
    text = _RIGHT_SINGLE.sub("'", text)
    text = _LEFT_DOUBLE.sub("``", text)
    return _RIGHT_DOUBLE.sub("''", text)


def remove_soft_hyphens(text: str) -> str:
    if "\u00ad" not in text:
        return text
    return text.replace("\u00ad", "") or "-"


def normalize_currency(text: str) -> str:
    return _OTHER_CURRENCY.sub("$", text.replace("¢", "cents").replace("£", "#"))


def normalize_fractions(text: str) -> str:
    for fraction, spelled in _FRACTIONS:
        text = text.replace(fraction, spelled)
    return text


def normalize_parentheses(text: str) -> str:
    return text.replace("(", "-LRB-").replace(")", "-RRB-")


def _nbsp(text: str) -> str:
    return text.replace(" ", "\u00a0")


def _same(text: str) -> str:
    return text


_SIMPLE: dict[int, Callable[[str], str]] = {
    3: _same,
    6: remove_soft_hyphens,
    9: _same,
    12: remove_soft_hyphens,
    14: normalize_fractions,
    15: normalize_currency,
    19: _same,
    27: _nbsp,
    28: normalize_parentheses,
    29: remove_soft_hyphens,
    31: _same,
    37: lambda text: _AMP.sub("&", text),
    38: _nbsp,
    39: _nbsp,
    45: _same,
    52: _same,
    54: lambda text: normalize_parentheses(_nbsp(text)),
    8: lambda text: latex_quotes(text, False),
}
"""Actions that take the whole match and rewrite it."""
_PUSHBACK: dict[int, tuple[int, Callable[[str], str]]] = {
    25: (1, _same),
    26: (1, lambda text: latex_quotes(text, True)),
    32: (1, remove_soft_hyphens),
    34: (1, normalize_parentheses),
    36: (1, lambda text: latex_quotes(text, False)),
    42: (2, _same),
    46: (1, remove_soft_hyphens),
    48: (2, _same),
    50: (3, _same),
    51: (1, lambda text: _AMP.sub("&", text)),
    53: (4, _same),
}
"""Actions that give back the last characters of the match, then rewrite the rest."""
_FIXED = {2: "<", 10: ">", 11: "--", 13: "...", 16: "-RCB-", 17: "-LRB-", 18: "-RRB-"}
_FIXED |= {20: "-LCB-", 21: "-RSB-", 22: "-LSB-", 5: NEWLINE_TOKEN}
_SKIP = frozenset({1, 7, 23})
"""Untokenisable characters (deleted) and white space."""


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``, ``*NL*`` for each line break, as ``PTBLexer.next()`` gives them."""
    table = tables()
    cmap, trans, rowmap, attr, actions = (
        table.cmap,
        table.trans,
        table.rowmap,
        table.attribute,
        table.action,
    )
    units = _code_units(text)
    same_length = len(units) == len(text)

    def span(start: int, end: int) -> str:
        if same_length:
            return text[start:end]
        return array("H", units[start:end]).tobytes().decode("utf-16-le", "surrogatepass")

    tokens: list[str] = []
    end = len(units)
    marked = 0
    while True:
        start = current = marked
        state = START_STATE
        action = state if attr[state] & 1 else -1
        at_eof = False
        while True:
            if current < end:
                character = units[current]
                current += 1
            else:
                at_eof = True
                break
            following = trans[rowmap[state] + cmap[character]]
            if following == -1:
                break
            state = following
            attributes = attr[state]
            if attributes & 1:
                action = state
                marked = current
                if attributes & 8:
                    break
        rule = actions[action] if action >= 0 else action
        if rule < 0:
            if at_eof and start == current:
                return tokens
            raise ScanError(f"could not match input at character {start}")
        if rule in _SKIP:
            continue
        if rule in _TRAILING_CONTEXT:
            marked = _trailing_context(table, units, start, marked, *_TRAILING_CONTEXT[rule])
        if rule in _SIMPLE:
            tokens.append(_SIMPLE[rule](span(start, marked)))
        elif rule in _FIXED:
            tokens.append(_FIXED[rule])
        elif rule in _PUSHBACK:
            back, rewrite = _PUSHBACK[rule]
            marked -= back
            tokens.append(rewrite(span(start, marked)))
        elif rule == 4:
            length = marked - start
            tokens.append("--" if 3 <= length <= 4 else span(start, marked))
        elif rule == 35:
            marked = start + 1
            tokens.append(latex_quotes(span(start, marked), True))
        elif rule in (24, 41, 43):
            tokens.append(span(start, marked))
        elif rule in (30, 40):
            tokens.append(remove_soft_hyphens(span(start, marked)))
        elif rule == 44:
            marked = _strip_trailing_space(units, start, marked)
            tokens.append(span(start, marked))
        elif rule in (33, 47, 49):
            if rule == 47:
                marked = _strip_trailing_space(units, start, marked)
            if rule == 47 and marked - start == 2:
                marked -= 1
                tokens.append(span(start, marked))
            else:
                tokens.append(span(start, marked))
                marked -= 1
        else:
            raise ScanError(f"no action {rule} in this port (at character {start})")


def _strip_trailing_space(units: list[int], start: int, marked: int) -> int:
    while marked > start and chr(units[marked - 1]) in _TRAILING_SPACE:
        marked -= 1
    return marked


def _trailing_context(
    table: Tables, units: list[int], start: int, marked: int, forward: int, backward: int
) -> int:
    """JFlex's general trailing-context resolution: run the forward automaton over the match,
    noting where it accepts, then the backward one from the end until both agree."""
    cmap, trans, rowmap, attr = table.cmap, table.trans, table.rowmap, table.attribute
    final: dict[int, bool] = {}
    position, state = start, forward
    while state != -1 and position < marked:
        final[position] = attr[state] & 1 == 1
        state = trans[rowmap[state] + cmap[units[position]]]
        position += 1
    if state != -1:
        final[position] = attr[state] & 1 == 1
        position += 1
    while position <= marked:
        final[position] = False
        position += 1
    state, position = backward, marked
    while not final.get(position, False) or not attr[state] & 1:
        position -= 1
        state = trans[rowmap[state] + cmap[units[position]]]
    return position


def _code_units(text: str) -> list[int]:
    if text.isascii():
        return list(text.encode("ascii"))
    encoded = text.encode("utf-16-le", "surrogatepass")
    return list(array("H", encoded)) if len(encoded) != 2 * len(text) else [ord(c) for c in text]


def tokenize_lines(text: str) -> str:
    """``PTBTokenizer -preserveLines -lowerCase`` on ``text``: its standard output exactly."""
    out: list[str] = []
    line: list[str] = []
    for token in tokenize(text):
        if token == NEWLINE_TOKEN:
            out.append(" ".join(line))
            line = []
        else:
            line.append(java_lower(token))
    out.append(" ".join(line))
    return "\n".join(out)
