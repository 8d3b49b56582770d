"""PTB tokenisation as the COCO caption evaluation (and so the E2E script) applies it before
METEOR, ROUGE-L and CIDEr: Stanford CoreNLP 3.4.1's ``PTBTokenizer -preserveLines -lowerCase``,
then removal of the punctuation tokens in COCO's list.

The tokeniser is CoreNLP's own, never an approximation: its quirks are part of the published
numbers (``£`` becomes ``#``; brackets become ``-lrb-``/``-rrb-`` after lowercasing, which COCO's
upper-case punctuation list then fails to remove). By default its Python port
(``scorer.tokenizers.ptb_lexer``, token for token the jar's) runs in process; with
``NLGBOARD_METEOR=jar`` the jar runs in a JVM (~0.3 s per call). Either way the whole batch is
tokenised as one text, as COCO's script does, and results are memoised per process, so a
long-lived worker tokenises a test set's references once.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from scorer.cache import kept
from scorer.java import implementation
from scorer.java.jars import coco_file, java_binary
from scorer.references import PreparedCache, ReferenceSet
from scorer.tokenizers.ptb_lexer import tokenize_lines

PUNCTUATION = frozenset(
    [
        "''",
        "'",
        "``",
        "`",
        "-LRB-",
        "-RRB-",
        "-LCB-",
        "-RCB-",
        ".",
        "?",
        "!",
        ",",
        ":",
        "-",
        "--",
        "...",
        ";",
    ]
)
"""Tokens COCO's ptbtokenizer.py drops (its PUNCTUATIONS list, verbatim)."""

_MEMO: dict[str, str] = {}
_MEMO_LIMIT = 200_000


def ptb_tokenize(texts: Sequence[str]) -> list[str]:
    """Tokenise each text to a space-joined, lowercased token string without punctuation."""
    missing = list(dict.fromkeys(text for text in texts if text not in _MEMO))
    if not missing:
        return [_MEMO[text] for text in texts]
    tokenised, aligned = _run_tokenizer(missing)
    if not aligned:
        # A text held a line break the tokeniser honours (CR, U+2028...): as in COCO's script,
        # the lines after it answer the wrong texts. Kept to this call, never remembered.
        found = {**_MEMO, **dict(zip(missing, tokenised, strict=True))}
        return [found[text] for text in texts]
    if len(_MEMO) + len(missing) > _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO.update(zip(missing, tokenised, strict=True))
    return [_MEMO[text] for text in texts]


def _run_tokenizer(texts: list[str]) -> tuple[list[str], bool]:
    """The texts' token strings, and whether the tokeniser gave exactly one line per text."""
    joined = "\n".join(text.replace("\n", " ") for text in texts)
    output = _tokenize_with_jar(joined) if implementation.uses_jar() else tokenize_lines(joined)
    lines = output.split("\n")
    if len(lines) < len(texts):
        raise RuntimeError(f"PTBTokenizer returned {len(lines)} lines for {len(texts)} texts")
    tokenised = [
        " ".join(token for token in line.rstrip().split(" ") if token not in PUNCTUATION)
        for line in lines[: len(texts)]
    ]
    return tokenised, len(lines) == len(texts)


def _tokenize_with_jar(joined: str) -> str:
    jar = coco_file("tokenizer/stanford-corenlp-3.4.1.jar")
    command = [
        java_binary(),
        "-cp",
        str(jar),
        "edu.stanford.nlp.process.PTBTokenizer",
        "-preserveLines",
        "-lowerCase",
    ]
    result = subprocess.run(command, input=joined.encode(), capture_output=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"PTBTokenizer failed: {result.stderr.decode(errors='replace')[:500]}")
    return result.stdout.decode()


_REFERENCE_CACHE = PreparedCache()


def ptb_tokenize_references(references: ReferenceSet) -> list[list[str]]:
    """Every item's references PTB-tokenised, in one call, cached per test set (and kept
    between processes: a cold ``nlg-score`` on a test set seen before reads them)."""
    return _REFERENCE_CACHE.get(references, _kept_grouped)


def _kept_grouped(references: ReferenceSet) -> list[list[str]]:
    return kept(
        "ptb",
        f"{references.digest}|{implementation.current()}",
        lambda: _tokenize_grouped(references),
        lambda grouped: grouped,
        lambda grouped: grouped,
    )


def _tokenize_grouped(references: ReferenceSet) -> list[list[str]]:
    flat = iter(ptb_tokenize([ref for refs in references for ref in refs]))
    return [[next(flat) for _ in refs] for refs in references]
