"""Writes ``nltk35_tokens.json``: NLTK 3.5's ``word_tokenize`` (punkt untrained) on every
WebNLG+ 2020 English text in ``../shared``, kept small: the tokens of the texts where NLTK 3.10
tokenises otherwise, and one digest of all (``tests.support.webnlg2020_texts``).

Run once, from the repository's root, with two side interpreters (never the project's):
    python3 -m venv /tmp/nltk35 && /tmp/nltk35/bin/pip install nltk==3.5
    python3 -m venv /tmp/nltk310 && /tmp/nltk310/bin/pip install nltk==3.10.4
    python3 -m tests.scorer.tokenizers.make_nltk35_fixture /tmp/nltk35/bin/python \\
        /tmp/nltk310/bin/python
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.webnlg2020_texts import english_texts, text_key, tokens_digest

FIXTURE = Path(__file__).with_name("nltk35_tokens.json")

TOKENISE = """
import json, sys
import nltk
from nltk.tokenize import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktSentenceTokenizer
sentences, words = PunktSentenceTokenizer(), NLTKWordTokenizer()
texts = json.load(sys.stdin)
json.dump({"version": nltk.__version__, "tokens": [
    " ".join(t for s in sentences.tokenize(x) for t in words.tokenize(s)) for x in texts
]}, sys.stdout)
"""


def tokenised(python: str, texts: list[str]) -> tuple[str, list[str]]:
    run = subprocess.run(
        [python, "-c", TOKENISE],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(run.stdout)
    return found["version"], found["tokens"]


def main(nltk35: str, nltk310: str) -> None:
    texts = english_texts()
    version, old = tokenised(nltk35, texts)
    other_version, new = tokenised(nltk310, texts)
    assert version == "3.5", version
    differ = {text_key(t): a for t, a, b in zip(texts, old, new, strict=True) if a != b}
    FIXTURE.write_text(
        json.dumps(
            {
                "nltk": version,
                "compared_with": other_version,
                "texts": len(texts),
                "digest": tokens_digest(texts, old),
                "differ": differ,
            },
            ensure_ascii=False,
            indent=0,
        )
        + "\n"
    )
    print(f"{len(texts)} texts, {len(differ)} tokenised otherwise by NLTK {other_version}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
