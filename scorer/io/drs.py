"""DRS test inputs: PMB 3 clause format (with its ``.raw`` sentences) and PMB 5 Sequence Box
Notation (SBN), read and checked so that a broken input is refused naming the block.

Clause format (van Noord et al. 2018): one DRS per block, blocks separated by empty lines;
``%%%`` lines are Boxer's header (the third is the tokenised sentence, ``ø`` for empty tokens);
anything after ``%`` is a comment (source token and character span). Each clause has 3 or 4
whitespace-separated fields, quoted strings kept whole: ``b1 REF x1``, ``b1 Name x1 "tom"``,
``b1 male "n.02" x1``, ``b2 NEGATION b3``, ``b3 Time e1 t1``.

SBN (Bos 2023): one DRS per line; a WordNet sense ``lemma.pos.NN`` opens a node, followed by
role/operator + value pairs; ``+1``/``-2`` point to other nodes by relative position; a box
operator followed by ``<1`` opens a new box related to another. Files come as
``text<TAB>SBN`` lines (``seq2seq/``) or 4-line blocks: document id, text, SBN, empty line
(``split/``).

What systems are given is the DRS alone: header lines and comments carry the sentence, so they
are dropped from the stored input.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from scorer.errors import InputError
from scorer.io.text import decode_text, split_lines

TOKEN = re.compile(r'"[^"]*"|%.*|\S+')
BOX = re.compile(r"b\d+$")
VARIABLE = re.compile(r"[a-z]\d+$")
QUOTED = re.compile(r'"[^"]*"$')
SENSE = re.compile(r'"[nvar]\.\d\d"$')
LEMMA = re.compile(r"[^\sA-Z\"][^\s\"]*$")
ROLE = re.compile(r"[A-Z][A-Za-z]*(-[A-Z][A-Za-z]*)*$")
OPERATOR = re.compile(r"[A-Z][A-Z0-9]{2,}$")

SBN_SENSE = re.compile(r"\S+\.[nvar]\.\d\d$")
DOCUMENT = re.compile(r"p\d+/d\d+$")
SBN_INDEX = re.compile(r"[+-]\d+$")

EMPTY_TOKEN = "ø"


@dataclass(frozen=True)
class DrsItem:
    """One DRS as systems get it, with the sentences that go with it."""

    drs: str
    """Clause format: the clauses, one per line, no comments. SBN: the one-line SBN."""
    text: str | None = None
    """The reference sentence, where the file carries it (SBN's text column)."""
    header_sentence: str | None = None
    """Clause format: Boxer's tokenised sentence (``%%%`` line 3); in a challenge set, the
    original, unmodified sentence the item was made from."""
    document: str | None = None
    """PMB document id (``p30/d1322``) where the file gives it."""
    line: int = 0
    """Where the item starts in its file (1-based), for messages."""


def looks_like_sbn(data: bytes) -> bool:
    """SBN files start with ``text<TAB>SBN``, a document id (``p30/d1322``) or an SBN line;
    clause files with ``%%%`` headers or a clause; ``.raw`` files with a sentence."""
    for line in data.decode("utf-8", "replace").splitlines():
        if line.strip() and not line.startswith("%"):
            tokens = line.split()
            return (
                "\t" in line
                or DOCUMENT.match(line.strip()) is not None
                or (not BOX.match(tokens[0]) and any(SBN_SENSE.match(t) for t in tokens))
            )
    return False


def read_clause_file(data: bytes, filename: str = "drs.txt") -> list[DrsItem]:
    """Every block of a clause-format file, checked clause by clause."""
    lines = split_lines(decode_text(data, filename))
    items: list[DrsItem] = []
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip():
            block.append((number, line))
        elif block:
            items.append(_clause_block(block, len(items) + 1, filename))
            block = []
    if not items:
        raise InputError("has no DRS blocks", filename=filename)
    return items


def _clause_block(block: list[tuple[int, str]], index: int, filename: str) -> DrsItem:
    headers = [line[3:].strip() for _, line in block if line.startswith("%%%")]
    clauses = []
    for number, line in block:
        fields = clause_fields(line)
        if not fields:
            continue
        body = " ".join(fields)
        problem = clause_problem(fields)
        if problem:
            raise InputError(
                f"DRS block {index}: clause {body!r} {problem}", filename=filename, line=number
            )
        clauses.append(" ".join(fields))
    if not clauses:
        raise InputError(
            f"DRS block {index} has no clauses (only comments)", filename=filename, line=block[0][0]
        )
    sentence = headers[2] if len(headers) >= 3 else None
    return DrsItem("\n".join(clauses), header_sentence=sentence, line=block[0][0])


def clause_fields(line: str) -> list[str]:
    """A clause line's fields, quoted strings whole, the ``%`` comment dropped."""
    fields = TOKEN.findall(line)
    comment = next((k for k, field in enumerate(fields) if field.startswith("%")), len(fields))
    return fields[:comment]


def clause_problem(fields: list[str]) -> str | None:
    """What is wrong with one clause, or None: the arity and argument rules of the clause
    format (box first; REF takes a variable; box operators take boxes; a concept's second
    field is a quoted WordNet sense; other arguments are variables or quoted constants)."""
    if len(fields) not in (3, 4):
        return f"has {len(fields)} fields; a clause has 3 or 4 (box, operator, arguments)"
    box, operator, *arguments = fields
    if not BOX.match(box):
        return f"starts with {box!r}; the first field must be a box name such as b1"
    if operator == "REF":
        if len(arguments) != 1 or not VARIABLE.match(arguments[0]):
            return "is a REF clause; it takes exactly one variable such as x1"
        return None
    if OPERATOR.match(operator) and len(arguments) == 1:
        if not BOX.match(arguments[0]):
            return f"applies {operator} to {arguments[0]!r}; it takes a box such as b2"
        return None
    if len(arguments) != 2:
        return f"has {len(fields)} fields; {operator!r} clauses have 4"
    if OPERATOR.match(operator) or ROLE.match(operator):
        bad = [a for a in arguments if not (VARIABLE.match(a) or QUOTED.match(a))]
        if bad:
            return f"has argument {bad[0]!r}; arguments are variables (x1, e2) or quoted constants"
        return None
    if LEMMA.match(operator):
        if not SENSE.match(arguments[0]):
            return f'has sense {arguments[0]!r}; a concept\'s sense is quoted like "n.02"'
        if not VARIABLE.match(arguments[1]):
            return f"has {arguments[1]!r} as its concept's variable; expected e.g. x1"
        return None
    return f"has operator {operator!r}, which is neither a role, an operator nor a concept"


def read_sentences(data: bytes, filename: str = "drs.txt.raw") -> list[str]:
    """The ``.raw`` file: one sentence per line, block i of the clause file is line i."""
    lines = split_lines(decode_text(data, filename))
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise InputError("empty sentence; every DRS needs one", filename=filename, line=number)
    return [line.strip() for line in lines]


def read_clause_test_set(
    clauses: bytes, sentences: bytes, clauses_name: str, sentences_name: str
) -> list[DrsItem]:
    """Clause-format DRSs paired with their ``.raw`` sentences, one to one."""
    items = read_clause_file(clauses, clauses_name)
    texts = read_sentences(sentences, sentences_name)
    if len(texts) != len(items):
        raise InputError(
            f"has {len(texts)} sentences but {clauses_name} has {len(items)} DRS blocks; "
            "block i goes with line i",
            filename=sentences_name,
        )
    return [dataclasses.replace(item, text=text) for item, text in zip(items, texts, strict=True)]


def read_sbn_file(data: bytes, filename: str = "drs.sbn") -> list[DrsItem]:
    """SBN items with their texts, from ``text<TAB>SBN`` lines or 4-line split blocks."""
    lines = split_lines(decode_text(data, filename))
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError("has no SBN items", filename=filename)
    if "\t" in lines[0]:
        items = [_tab_line(line, number, filename) for number, line in enumerate(lines, start=1)]
    else:
        items = _split_blocks(lines, filename)
    for index, item in enumerate(items, start=1):
        problem = sbn_problem(item.drs)
        if problem:
            raise InputError(f"SBN item {index}: {problem}", filename=filename, line=item.line)
    return items


def _tab_line(line: str, number: int, filename: str) -> DrsItem:
    parts = line.split("\t")
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise InputError(
            f"expected 'text<TAB>SBN', found {len(parts)} tab-separated field(s)"
            + (" with an empty one" if len(parts) == 2 else ""),
            filename=filename,
            line=number,
        )
    return DrsItem(parts[1].strip(), parts[0].strip(), line=number)


def _split_blocks(lines: list[str], filename: str) -> list[DrsItem]:
    items: list[DrsItem] = []
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip():
            block.append((number, line.strip()))
            continue
        if not block:
            continue
        if len(block) != 3:
            raise InputError(
                f"SBN block {len(items) + 1} has {len(block)} lines; expected 3 "
                "(document id, text, SBN) and an empty line",
                filename=filename,
                line=block[0][0],
            )
        (start, document), (_, text), (_, sbn) = block
        items.append(DrsItem(sbn, text, document=document, line=start))
        block = []
    return items


def sbn_problem(sbn: str) -> str | None:
    """What is wrong with one SBN, or None: every relative node index must land on a node
    (senses are the nodes). Box indices (``<1``) are not range-checked: their point of
    reference is not uniform in the released data (PMB 5.0.0 dev item 1118 has
    ``CONTINUATION <3`` after two boxes)."""
    tokens = TOKEN.findall(sbn)
    if not tokens:
        return "is empty"
    node_count = sum(1 for token in tokens if SBN_SENSE.match(token))
    if not node_count:
        return "has no node: an SBN needs at least one WordNet sense such as dog.n.01"
    node = -1
    for position, token in enumerate(tokens):
        if SBN_SENSE.match(token):
            node += 1
        elif SBN_INDEX.match(token) and position and not SBN_SENSE.match(tokens[position - 1]):
            target = node + int(token)
            if not 0 <= target < node_count:
                return (
                    f"{tokens[position - 1]} {token} (token {position + 1}) points to node "
                    f"{target + 1}, but there are {node_count} nodes"
                )
    return None


def read_test_set(
    inputs: bytes,
    inputs_name: str,
    sentences: bytes | None = None,
    sentences_name: str = "references.raw",
) -> list[DrsItem]:
    """A DRS test set in either notation; clause format needs its ``.raw`` sentences, SBN
    carries them (a separate sentence file then replaces the SBN file's texts)."""
    if looks_like_sbn(inputs):
        items = read_sbn_file(inputs, inputs_name)
        if sentences is None:
            return items
        texts = read_sentences(sentences, sentences_name)
        if len(texts) != len(items):
            raise InputError(
                f"has {len(texts)} sentences but {inputs_name} has {len(items)} SBN items",
                filename=sentences_name,
            )
        return [
            dataclasses.replace(item, text=text) for item, text in zip(items, texts, strict=True)
        ]
    if sentences is None:
        raise InputError(
            "is in clause format, which carries no sentences: give the .raw file of references "
            "too (line i is the sentence of block i)",
            filename=inputs_name,
        )
    return read_clause_test_set(inputs, sentences, inputs_name, sentences_name)


def sentence_key(sentence: str) -> str:
    """What two renderings of one sentence share: Boxer's tokenised header (``ø`` tokens, ``~``
    in multiword names, detached punctuation, a dropped quote) and the raw sentence."""
    return re.sub(
        r"[\s~\"'`\u2018\u2019\u201c\u201d]+", "", sentence.replace(EMPTY_TOKEN, "")
    ).lower()
