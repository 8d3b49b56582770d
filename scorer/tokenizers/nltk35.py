"""NLTK 3.5's ``word_tokenize`` as the board's own code: punkt's sentence split, then NLTK 3.5's
Treebank word rules on each sentence, whatever NLTK (if any) is installed.

Why: WebNLG+ 2020's eval.py pins ``nltk==3.5`` and runs TER and METEOR on
``nltk.word_tokenize``'s tokens. Later NLTKs changed both halves (3.10 splits at an en dash
and after an opening apostrophe, and its punkt treats curly quotes as non-word characters), so a
board that tokenises with the installed NLTK is not eval.py. The rules here are NLTK 3.5's
(``nltk/tokenize/destructive.py`` and ``punkt.py``, Apache License 2.0, Copyright (C) 2001-2020
NLTK Project), kept as they were, regular expressions and order of application included; only
the sentence-splitting path of punkt is kept (no training). ``tests/scorer/tokenizers/
test_nltk35.py`` holds them equal to NLTK 3.5 on every WebNLG+ 2020 English text in
``../shared``.

Punkt's parameters: NLTK's trained English ones (``english.pickle``) are not installable here;
``PunktParameters()`` is punkt untrained (no abbreviation, collocation or sentence-starter
lists, no orthographic statistics), as ``PunktSentenceTokenizer()`` with no training text.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

# --- punkt (NLTK 3.5 nltk/tokenize/punkt.py, the tokenising path) ----------------------------

_ORTHO_BEG_UC = 1 << 1
_ORTHO_MID_UC = 1 << 2
_ORTHO_UNK_UC = 1 << 3
_ORTHO_BEG_LC = 1 << 4
_ORTHO_MID_LC = 1 << 5
_ORTHO_UNK_LC = 1 << 6
_ORTHO_UC = _ORTHO_BEG_UC + _ORTHO_MID_UC + _ORTHO_UNK_UC
_ORTHO_LC = _ORTHO_BEG_LC + _ORTHO_MID_LC + _ORTHO_UNK_LC

SENT_END_CHARS = (".", "?", "!")
INTERNAL_PUNCTUATION = tuple(";:,.!?")
"""What ``PunktSentenceTokenizer.PUNCTUATION`` holds: never a sentence starter."""

_RE_BOUNDARY_REALIGNMENT = re.compile(r'["\')\]}]+?(?:\s+|(?=--)|$)', re.MULTILINE)
_RE_WORD_START = r"[^\(\"\`{\[:;&\#\*@\)}\]\-,]"
_RE_NON_WORD_CHARS = r"(?:[?!)\";}\]\*:@\'\({\[])"
_RE_MULTI_CHAR_PUNCT = r"(?:\-{2,}|\.{2,}|(?:\.\s){2,}\.)"
_RE_SENT_END_CHARS = "[{}]".format(re.escape("".join(SENT_END_CHARS)))

_RE_PUNKT_WORDS = re.compile(
    rf"""(
        {_RE_MULTI_CHAR_PUNCT}
        |
        (?={_RE_WORD_START})\S+?  # Accept word characters until end is found
        (?= # Sequences marking a word's end
            \s|                                 # White-space
            $|                                  # End-of-string
            {_RE_NON_WORD_CHARS}|{_RE_MULTI_CHAR_PUNCT}|          # Punctuation
            ,(?=$|\s|{_RE_NON_WORD_CHARS}|{_RE_MULTI_CHAR_PUNCT}) # Comma if at end of word
        )
        |
        \S
    )""",
    re.UNICODE | re.VERBOSE,
)

_RE_PERIOD_CONTEXT = re.compile(
    rf"""
        \S*                          # some word material
        {_RE_SENT_END_CHARS}             # a potential sentence ending
        (?=(?P<after_tok>
            {_RE_NON_WORD_CHARS}              # either other punctuation
            |
            \s+(?P<next_tok>\S+)     # or whitespace and some other token
        ))""",
    re.UNICODE | re.VERBOSE,
)

_RE_NON_PUNCT = re.compile(r"[^\W\d]", re.UNICODE)
_RE_ELLIPSIS = re.compile(r"\.\.+$")
_RE_NUMERIC = re.compile(r"^-?[\.,]?\d[\d,\.-]*\.?$")
_RE_INITIAL = re.compile(r"[^\W\d]\.$", re.UNICODE)


@dataclass
class PunktParameters:
    """What training gives punkt; empty: punkt untrained (``PunktSentenceTokenizer()``)."""

    abbrev_types: set[str] = field(default_factory=set)
    collocations: set[tuple[str, str]] = field(default_factory=set)
    sent_starters: set[str] = field(default_factory=set)
    ortho_context: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))


class _Token:
    """``PunktToken``: a word of punkt's own word split with its annotations."""

    __slots__ = ("abbr", "ellipsis", "linestart", "period_final", "sentbreak", "tok", "type")

    def __init__(self, tok: str, linestart: bool = False) -> None:
        self.tok = tok
        self.type = _RE_NUMERIC.sub("##number##", tok.lower())
        self.period_final = tok.endswith(".")
        self.linestart = linestart
        self.sentbreak = False
        self.abbr = False
        self.ellipsis = False

    @property
    def type_no_period(self) -> str:
        if len(self.type) > 1 and self.type[-1] == ".":
            return self.type[:-1]
        return self.type

    @property
    def type_no_sentperiod(self) -> str:
        return self.type_no_period if self.sentbreak else self.type

    @property
    def first_upper(self) -> bool:
        return self.tok[0].isupper()

    @property
    def first_lower(self) -> bool:
        return self.tok[0].islower()

    @property
    def is_initial(self) -> bool:
        return _RE_INITIAL.match(self.tok) is not None

    @property
    def is_non_punct(self) -> bool:
        return _RE_NON_PUNCT.search(self.type) is not None


def _punkt_words(text: str) -> Iterator[_Token]:
    """``PunktBaseClass._tokenize_words`` (paragraph starts are not used by the split)."""
    for line in text.split("\n"):
        if line.strip():
            for position, tok in enumerate(_RE_PUNKT_WORDS.findall(line)):
                yield _Token(tok, linestart=position == 0)


class Punkt:
    """``PunktSentenceTokenizer(...).tokenize`` of NLTK 3.5 with given parameters."""

    def __init__(self, parameters: PunktParameters | None = None) -> None:
        self.parameters = parameters or PunktParameters()

    def sentences(self, text: str) -> list[str]:
        return [text[s.start : s.stop] for s in self._realigned(text, self._slices(text))]

    def _slices(self, text: str) -> Iterator[slice]:
        last_break = 0
        for match in _RE_PERIOD_CONTEXT.finditer(text):
            context = match.group() + match.group("after_tok")
            if self._contains_sentbreak(context):
                yield slice(last_break, match.end())
                next_tok = match.group("next_tok")
                last_break = match.start("next_tok") if next_tok else match.end()
        yield slice(last_break, len(text.rstrip()))

    @staticmethod
    def _realigned(text: str, slices: Iterable[slice]) -> Iterator[slice]:
        realign = 0
        listed = list(slices)
        for first, second in zip(listed, [*listed[1:], None], strict=True):
            first = slice(first.start + realign, first.stop)
            if second is None:
                if text[first]:
                    yield first
                continue
            match = _RE_BOUNDARY_REALIGNMENT.match(text[second])
            if match:
                yield slice(first.start, second.start + len(match.group(0).rstrip()))
                realign = match.end()
            else:
                realign = 0
                if text[first]:
                    yield first

    def _contains_sentbreak(self, text: str) -> bool:
        found = False  # the last token's break does not count
        for token in self._annotated(_punkt_words(text)):
            if found:
                return True
            if token.sentbreak:
                found = True
        return False

    def _annotated(self, tokens: Iterator[_Token]) -> Iterator[_Token]:
        listed = [self._first_pass(token) for token in tokens]
        for first, second in zip(listed, [*listed[1:], None], strict=True):
            if second is not None:
                self._second_pass(first, second)
            yield first

    def _first_pass(self, token: _Token) -> _Token:
        tok = token.tok
        abbreviations = self.parameters.abbrev_types
        if tok in SENT_END_CHARS:
            token.sentbreak = True
        elif _RE_ELLIPSIS.match(tok):
            token.ellipsis = True
        elif token.period_final and not tok.endswith(".."):
            if (
                tok[:-1].lower() in abbreviations
                or tok[:-1].lower().split("-")[-1] in abbreviations
            ):
                token.abbr = True
            else:
                token.sentbreak = True
        return token

    def _second_pass(self, first: _Token, second: _Token) -> None:
        if not first.period_final:
            return
        typ = first.type_no_period
        next_typ = second.type_no_sentperiod
        initial = first.is_initial
        if (typ, next_typ) in self.parameters.collocations:
            first.sentbreak = False
            first.abbr = True
            return
        if (first.abbr or first.ellipsis) and not initial:
            starter = self._ortho_heuristic(second)
            if starter is True:
                first.sentbreak = True
                return
            if second.first_upper and next_typ in self.parameters.sent_starters:
                first.sentbreak = True
                return
        if initial or typ == "##number##":
            starter = self._ortho_heuristic(second)
            if starter is False:
                first.sentbreak = False
                first.abbr = True
                return
            if (
                starter == "unknown"
                and initial
                and second.first_upper
                and not (self.parameters.ortho_context[next_typ] & _ORTHO_LC)
            ):
                first.sentbreak = False
                first.abbr = True

    def _ortho_heuristic(self, token: _Token) -> bool | str:
        if token.tok in INTERNAL_PUNCTUATION:
            return False
        context = self.parameters.ortho_context[token.type_no_sentperiod]
        if token.first_upper and (context & _ORTHO_LC) and not (context & _ORTHO_MID_UC):
            return True
        if token.first_lower and ((context & _ORTHO_UC) or not (context & _ORTHO_BEG_LC)):
            return False
        return "unknown"


# --- Treebank words (NLTK 3.5 nltk/tokenize/destructive.py, NLTKWordTokenizer) ---------------

Rule = tuple["re.Pattern[str]", str]

STARTING_QUOTES: list[Rule] = [
    (re.compile("([«“‘„]|[`]+)", re.U), r" \1 "),  # noqa: RUF001
    (re.compile(r"^\""), r"``"),
    (re.compile(r"(``)"), r" \1 "),
    (re.compile(r"([ \(\[{<])(\"|\'{2})"), r"\1 `` "),
    (re.compile(r"(?i)(\')(?!re|ve|ll|m|t|s|d)(\w)\b", re.U), r"\1 \2"),
]
ENDING_QUOTES: list[Rule] = [
    (re.compile("([»”’])", re.U), r" \1 "),
    (re.compile(r'"'), " '' "),
    (re.compile(r"(\S)(\'\')"), r"\1 \2 "),
    (re.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') "), r"\1 \2 "),
    (re.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), r"\1 \2 "),
]
PUNCTUATION: list[Rule] = [
    (re.compile(r'([^\.])(\.)([\]\)}>"\'' "»”’ " r"]*)\s*$", re.U), r"\1 \2 \3 "),
    (re.compile(r"([:,])([^\d])"), r" \1 \2"),
    (re.compile(r"([:,])$"), r" \1 "),
    (re.compile(r"\.{2,}", re.U), r" \g<0> "),
    (re.compile(r"[;@#$%&]"), r" \g<0> "),
    (re.compile(r'([^\.])(\.)([\]\)}>"\']*)\s*$'), r"\1 \2\3 "),
    (re.compile(r"[?!]"), r" \g<0> "),
    (re.compile(r"([^'])' "), r"\1 ' "),
    (re.compile(r"[*]", re.U), r" \g<0> "),
]
PARENS_BRACKETS: Rule = (re.compile(r"[\]\[\(\)\{\}\<\>]"), r" \g<0> ")
DOUBLE_DASHES: Rule = (re.compile(r"--"), r" -- ")
CONTRACTIONS2 = [
    re.compile(pattern)
    for pattern in (
        r"(?i)\b(can)(?#X)(not)\b",
        r"(?i)\b(d)(?#X)('ye)\b",
        r"(?i)\b(gim)(?#X)(me)\b",
        r"(?i)\b(gon)(?#X)(na)\b",
        r"(?i)\b(got)(?#X)(ta)\b",
        r"(?i)\b(lem)(?#X)(me)\b",
        r"(?i)\b(mor)(?#X)('n)\b",
        r"(?i)\b(wan)(?#X)(na)\s",
    )
]
CONTRACTIONS3 = [re.compile(r"(?i) ('t)(?#X)(is)\b"), re.compile(r"(?i) ('t)(?#X)(was)\b")]


def treebank_words(text: str) -> list[str]:
    """``NLTKWordTokenizer().tokenize(text)`` of NLTK 3.5 (parentheses kept as they are)."""
    for pattern, substitution in (*STARTING_QUOTES, *PUNCTUATION, PARENS_BRACKETS, DOUBLE_DASHES):
        text = pattern.sub(substitution, text)
    text = " " + text + " "
    for pattern, substitution in ENDING_QUOTES:
        text = pattern.sub(substitution, text)
    for pattern in (*CONTRACTIONS2, *CONTRACTIONS3):
        text = pattern.sub(r" \1 \2 ", text)
    return text.split()


_UNTRAINED = Punkt()


def word_tokenize(text: str, punkt: Punkt = _UNTRAINED) -> list[str]:
    """``nltk.word_tokenize(text)`` of NLTK 3.5: punkt's sentences, then each one's words."""
    return [token for sentence in punkt.sentences(text) for token in treebank_words(sentence)]
