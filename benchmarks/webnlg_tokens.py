"""What WebNLG+ 2020's sentence split changes, and what remains of punkt's trained parameters.

On the WebNLG 3.0 English dev set (``../shared/data/webnlg/2020/en/dev``; each entry's first
reference as a system's output, its next 3 as the references): TER (``TER-pyter``) and METEOR
(``METEOR-files``, the port) on three tokenisations of the same texts:

- ``nltk``: NLTK's word tokeniser on the whole text (the registry's ``nltk``);
- ``nltk-punkt``: ``nltk.word_tokenize`` with punkt's algorithm untrained (the registry's);
- ``plain``: a plain sentence split (after ``.``, ``!`` or ``?`` and a space), then the same
  word tokeniser: the proxy the issue measured eval.py's TER with.

eval.py's own tokens (punkt with its trained English parameters) cannot be made here; they
differ from ``nltk-punkt`` only where a trained abbreviation, collocation or sentence starter
keeps a sentence together (``St. Louis``): the tokens before which the untrained split breaks
are counted, so what remains can be read off. Run: ``python benchmarks/webnlg_tokens.py``.
"""

from __future__ import annotations

import collections
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from scorer.kinds.parts import TOKENISERS, _nltk_tokenizer, _punkt_untrained
from scorer.metrics import get_metric
from scorer.references import ReferenceSet

DEV = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "webnlg" / "2020" / "en"


def plain(text: str) -> str:
    words = _nltk_tokenizer()
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(token for sentence in sentences for token in words.tokenize(sentence))


def items() -> list[list[str]]:
    found = []
    for path in sorted((DEV / "dev").glob("*triples/*.xml")):
        for entry in ET.parse(path).getroot().iter("entry"):
            texts = [" ".join((lex.text or "").split()) for lex in entry.iter("lex")]
            if len(texts) >= 2:
                found.append(texts[:4])
    return found


def main() -> None:
    data = items()
    hypotheses = [texts[0] for texts in data]
    references = [texts[1:] for texts in data]
    texts = hypotheses + [r for refs in references for r in refs]
    ways = {"nltk": TOKENISERS["nltk"], "nltk-punkt": TOKENISERS["nltk-punkt"], "plain": plain}
    print(f"{len(data)} entries, {len(texts)} texts")
    for name, tokenise in ways.items():
        hyps = [tokenise(t) for t in hypotheses]
        refs = ReferenceSet([[tokenise(r) for r in rs] for rs in references])
        ter = get_metric("TER-pyter", references=3).corpus_score(hyps, refs).value
        meteor = get_metric("METEOR-files", references=3).corpus_score(hyps, refs).value
        differ = sum(tokenise(t) != TOKENISERS["nltk-punkt"](t) for t in texts)
        print(f"{name:10} TER {ter:.4f}  METEOR {meteor:.4f}  texts unlike nltk-punkt: {differ}")
    before: collections.Counter[str] = collections.Counter()
    for text in texts:
        sentences = _punkt_untrained().tokenize(text)
        for sentence in sentences[:-1]:
            last = sentence.split()[-1]
            if len(last) <= 5 or "." in last[:-1]:
                before[last] += 1
    print("short or dotted words before an untrained break (trained punkt may keep some):")
    print(", ".join(f"{word} {count}" for word, count in before.most_common(25)))


if __name__ == "__main__":
    main()
