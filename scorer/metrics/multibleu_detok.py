"""BLEU-4 as Moses' ``multi-bleu-detok.perl`` computes it (WebNLG+ 2020), 0-100.

``multi-bleu.perl``'s statistics and formula (``scorer.metrics.multibleu``, its quirks
included: empty references from parallel files, no smoothing) on text tokenised by the script's
copy of mteval-v13a's ``tokenization``: ``<skipped>`` dropped, ``&quot; &amp; &lt; &gt;``
unescaped, punctuation split off (periods and commas unless between digits, a dash after a
digit), ASCII whitespace collapsed. Case-sensitive unless ``lowercase`` (``-lc``, ASCII only),
which the script applies to an output *before* tokenising and to a reference *after*.

Citation: Papineni et al. (2002); Koehn et al. (2007), Moses
(``scripts/generic/multi-bleu-detok.perl``); NIST mteval-v13a.pl.
"""

from __future__ import annotations

import re

from scorer.metrics import FLAG, REFERENCES, register
from scorer.metrics.multibleu import MultiBLEU, perl_lc, perl_split

_RULES = (
    (re.compile(r"<skipped>"), ""),
    (re.compile(r"-\n"), ""),
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
)
_PUNCTUATION = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def tokenization(text: str) -> str:
    """The script's ``tokenization`` sub, rule by rule. Perl works on the UTF-8 bytes; every
    rule matches ASCII only, so characters give the same result."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    text = f" {text} "
    for pattern, replacement in _PUNCTUATION:
        text = pattern.sub(replacement, text)
    return " ".join(perl_split(text))


class MultiBLEUDetok(MultiBLEU):
    """``multi-bleu-detok.perl [-lc] reference0 ... < hypothesis``."""

    tool = "multi-bleu-detok.perl"
    token_rule = "13a"

    def hypothesis_tokens(self, text: str) -> list[str]:
        return perl_split(tokenization(perl_lc(text) if self.lowercase else text))

    def reference_tokens(self, text: str) -> list[str]:
        tokens = tokenization(text)
        return perl_split(perl_lc(tokens) if self.lowercase else tokens)


@register("BLEU-multibleu-detok", lowercase=FLAG, references=REFERENCES)
def make_multibleu_detok(
    *, lowercase: bool = False, references: int | None = None
) -> MultiBLEUDetok:
    return MultiBLEUDetok(lowercase=lowercase, references=references)
