"""SR'18 sentence files: references and system outputs.

Both come either as UD blocks -- a ``# text = <sentence>`` line per block, blocks separated by
empty lines, other ``#`` lines (sent_id, newdoc id ...) and CoNLL-U token lines ignored, as the
official scorer reads them (it takes the ``# text =`` lines and nothing else), so the SR'18
Sentences files, whole UD treebank files and SR'19/'20-style outputs all read -- or as plain
text, one sentence per line. A line in a block that is neither a comment nor a token line (10
tab-separated columns) is refused: it is a sentence the scorer would silently skip.
"""

from __future__ import annotations

import re

from scorer.errors import InputError
from scorer.io.text import decode_text, split_lines

TEXT_LINE = re.compile(r"^#\s*text\s*=\s?(.*)$")
TOKEN_COLUMNS = 10


def read_sentences(data: bytes, filename: str = "sentences.txt") -> list[str]:
    """Sentences in file order, from ``# text =`` blocks or from plain lines."""
    lines = split_lines(decode_text(data, filename))
    if any(TEXT_LINE.match(line) for line in lines):
        return _text_blocks(lines, filename)
    return [line.strip() for line in lines]


def _text_blocks(lines: list[str], filename: str) -> list[str]:
    sentences: list[str] = []
    in_block, block_has_text, block_start = False, False, 0
    for number, line in enumerate([*lines, ""], start=1):
        if not line.strip():
            if in_block and not block_has_text:
                raise InputError(
                    "a block has no '# text = ' line", filename=filename, line=block_start
                )
            in_block, block_has_text = False, False
            continue
        if not in_block:
            in_block, block_start = True, number
        match = TEXT_LINE.match(line)
        if match:
            if block_has_text:
                raise InputError(
                    "a block has two '# text = ' lines; separate blocks with an empty line",
                    filename=filename,
                    line=number,
                )
            sentences.append(match.group(1).strip())
            block_has_text = True
        elif not line.startswith("#") and line.count("\t") != TOKEN_COLUMNS - 1:
            raise InputError(
                "expected '# text = <sentence>' blocks (comments and CoNLL-U token lines of "
                f"{TOKEN_COLUMNS} tab-separated columns): a line that is neither was found "
                "(for plain text, put one sentence per line and no '# text' lines)",
                filename=filename,
                line=number,
            )
    return sentences
