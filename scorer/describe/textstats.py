"""Lexical richness and diversity of a set of texts (E2E paper Sect. 4.2, Tables 4, 9 and 10).

Texts are tokenised into words and punctuation marks, case kept (closer to the paper's test-set
figures than lowercasing); E2E restaurant names
(``name`` and ``near`` values) are replaced by placeholders first, as the paper did. N-grams do
not cross text boundaries. With ``len`` the number of n-grams and ``freq`` their counts:

* Shannon entropy (Eq. 3): H = -sum_x freq(x)/len log2(freq(x)/len), over 1-, 2- and 3-grams;
* next-word conditional entropy (Eq. 4): -sum_(c,w) freq(c,w)/len log2(freq(c,w)/freq(c)),
  c the n-gram's first n-1 tokens, over bigrams and trigrams;
* TTR = distinct tokens / tokens; MSTTR-50 = mean TTR of successive 50-token segments, the
  incomplete last segment left out (Lu 2012);
* LS2 = share of lexical word types outside the 2,000 most frequent English words. The paper
  used a BNC list; we use wordfreq's English list (named in the signature). Lexical words are
  alphabetic tokens outside a closed list of function words (no tagger is run).
* distinct n-grams, the share of them occurring once ("% unique" in Table 10), average length
  in tokens and sentences per text (split after . ! ?).
Lemmas are not counted: no lemmatiser runs offline here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from scorer import __version__
from scorer.extras import require

TOKEN = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*|[^\w\s]")
SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")
SEGMENT = 50
FREQUENT_WORDS = 2000
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "it",
        "its",
        "it's",
        "they",
        "them",
        "their",
        "theirs",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "yours",
        "i",
        "me",
        "my",
        "mine",
        "who",
        "whom",
        "whose",
        "which",
        "what",
        "where",
        "when",
        "why",
        "how",
        "and",
        "or",
        "but",
        "nor",
        "so",
        "yet",
        "for",
        "of",
        "in",
        "on",
        "at",
        "by",
        "to",
        "from",
        "with",
        "without",
        "within",
        "into",
        "onto",
        "over",
        "under",
        "above",
        "below",
        "near",
        "between",
        "among",
        "through",
        "during",
        "before",
        "after",
        "about",
        "against",
        "along",
        "around",
        "across",
        "behind",
        "beside",
        "besides",
        "beyond",
        "up",
        "down",
        "out",
        "off",
        "than",
        "then",
        "as",
        "if",
        "because",
        "while",
        "although",
        "though",
        "since",
        "until",
        "unless",
        "whether",
        "be",
        "is",
        "am",
        "are",
        "was",
        "were",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "done",
        "doing",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "not",
        "no",
        "nor",
        "only",
        "also",
        "too",
        "very",
        "just",
        "all",
        "any",
        "both",
        "each",
        "either",
        "neither",
        "every",
        "some",
        "such",
        "other",
        "another",
        "more",
        "most",
        "less",
        "least",
        "much",
        "many",
        "few",
        "several",
        "one",
        "ones",
        "s",
        "t",
        "x-name",
        "x-near",
    ]
)
STATISTICS = (
    "tokens",
    "avg length",
    "sentences/text",
    "distinct tokens",
    "tokens once %",
    "distinct bigrams",
    "bigrams once %",
    "distinct trigrams",
    "unique trigrams %",
    "TTR",
    "MSTTR-50",
    "LS2",
    "entropy-1",
    "entropy-2",
    "entropy-3",
    "cond-entropy-2",
    "cond-entropy-3",
)


@cache
def signature() -> str:
    from importlib.metadata import version

    return (
        f"textstats|tok:words+punct|case:kept|delex:name,near|msttr:{SEGMENT}"
        f"|ls2:wordfreq-{version('wordfreq')}-en-top{FREQUENT_WORDS}|nlgboard:{__version__}"
    )


def tokenize(text: str) -> list[str]:
    return TOKEN.findall(text)


@cache
def frequent_words() -> frozenset[str]:
    wordfreq = require("wordfreq", "describe", "the textual statistics (LS2)")
    return frozenset(wordfreq.top_n_list("en", FREQUENT_WORDS))


def text_statistics(texts: Sequence[str]) -> dict[str, float]:
    """Every statistic of STATISTICS for ``texts`` (already delexicalised)."""
    tokenised = [tokenize(text) for text in texts]
    tokens = [token for words in tokenised for token in words]
    grams = {
        n: Counter(
            g for words in tokenised for g in zip(*(words[i:] for i in range(n)), strict=False)
        )
        for n in (1, 2, 3)
    }
    result = {
        "tokens": float(len(tokens)),
        "avg length": len(tokens) / len(texts) if texts else 0.0,
        "sentences/text": sum(_sentences(t) for t in texts) / len(texts) if texts else 0.0,
        "distinct tokens": float(len(grams[1])),
        "tokens once %": _once(grams[1]),
        "distinct bigrams": float(len(grams[2])),
        "bigrams once %": _once(grams[2]),
        "distinct trigrams": float(len(grams[3])),
        "unique trigrams %": _once(grams[3]),
        "TTR": len(grams[1]) / len(tokens) if tokens else 0.0,
        "MSTTR-50": msttr(tokens),
        "LS2": ls2(grams[1]),
    }
    for n in (1, 2, 3):
        result[f"entropy-{n}"] = entropy(grams[n])
    for n in (2, 3):
        result[f"cond-entropy-{n}"] = conditional_entropy(grams[n])
    return result


def entropy(counts: Counter) -> float:
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def conditional_entropy(counts: Counter) -> float:
    total = sum(counts.values())
    contexts: Counter = Counter()
    for gram, count in counts.items():
        contexts[gram[:-1]] += count
    return (
        -sum(c / total * math.log2(c / contexts[g[:-1]]) for g, c in counts.items())
        if total
        else 0.0
    )


def msttr(tokens: list[str], segment: int = SEGMENT) -> float:
    segments = [tokens[i : i + segment] for i in range(0, len(tokens) - segment + 1, segment)]
    return sum(len(set(s)) / segment for s in segments) / len(segments) if segments else 0.0


def ls2(unigrams: Counter) -> float:
    words = {gram[0].lower() for gram in unigrams}
    lexical = [word for word in words if word.isalpha() and word not in FUNCTION_WORDS]
    if not lexical:
        return 0.0
    frequent = frequent_words()
    return sum(word not in frequent for word in lexical) / len(lexical)


def _once(counts: Counter) -> float:
    return 100.0 * sum(c == 1 for c in counts.values()) / len(counts) if counts else 0.0


def _sentences(text: str) -> int:
    return max(1, len(SENTENCE_END.findall(text.strip()))) if text.strip() else 0


def split_sentences(text: str) -> list[str]:
    """The text's sentences, split after . ! ? as _sentences counts them."""
    pieces = re.split(r"(?<=[.!?])\s+", text.strip())
    return [piece for piece in pieces if piece]
