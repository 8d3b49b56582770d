"""CoNLL-U trees as SR'18 distributed its inputs, parsed and validated.

SR'18 inputs are CoNLL-U blocks of 10 tab-separated columns with no comment lines, one tree per
block, blocks separated by an empty line; token ids are 1..n in scrambled order (word order is
what systems must find), HEAD refers to those ids, 0 being the root. Deep-track inputs have the
same columns. Every rule broken is reported with the tree number and the file line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.errors import InputError
from scorer.io.text import decode_text, split_lines

COLUMNS = 10
ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(COLUMNS)


@dataclass(frozen=True)
class Tree:
    """One input tree: its token rows (in file order) and the CoNLL-U text of the block."""

    rows: tuple[tuple[str, ...], ...]
    text: str
    first_line: int

    @property
    def lemmas(self) -> list[str]:
        return [row[FORM] for row in self.rows]


def read_trees(data: bytes, filename: str = "input.conllu") -> list[Tree]:
    """Parse and validate every tree; raise InputError naming tree and line on the first fault."""
    trees: list[Tree] = []
    block: list[tuple[int, str]] = []
    lines = split_lines(decode_text(data, filename))
    for number, line in enumerate([*lines, ""], start=1):
        if line.strip():
            block.append((number, line))
        elif block:
            trees.append(_tree(block, len(trees) + 1, filename))
            block = []
    if not trees:
        raise InputError("contains no CoNLL-U tree", filename=filename)
    return trees


def _tree(block: list[tuple[int, str]], index: int, filename: str) -> Tree:
    rows: list[tuple[int, tuple[str, ...]]] = []
    for line_number, line in block:
        if line.startswith("#"):
            continue  # UD comments are harmless; SR'18 inputs have none
        cells: Sequence[str] = line.split("\t")
        if len(cells) != COLUMNS:
            raise InputError(
                f"tree {index}: expected {COLUMNS} tab-separated columns, found {len(cells)}",
                filename=filename,
                line=line_number,
            )
        if not cells[ID].isdigit():
            raise InputError(
                f"tree {index}: token id {cells[ID]!r} is not a positive integer "
                "(multiword or empty-node lines do not occur in SR'18 inputs)",
                filename=filename,
                line=line_number,
            )
        rows.append((line_number, tuple(cells)))
    first_line = block[0][0]
    ids = sorted(int(cells[ID]) for _, cells in rows)
    if ids != list(range(1, len(rows) + 1)):
        raise InputError(
            f"tree {index}: token ids must be 1..{len(rows)} (in any order), found {ids[:12]}",
            filename=filename,
            line=first_line,
        )
    roots = 0
    for line_number, cells in rows:
        head = cells[HEAD]
        if not head.isdigit() or int(head) > len(rows):
            raise InputError(
                f"tree {index}: head {head!r} of token {cells[ID]} is not in 0..{len(rows)}",
                filename=filename,
                line=line_number,
            )
        if head == cells[ID]:
            raise InputError(
                f"tree {index}: token {cells[ID]} is its own head",
                filename=filename,
                line=line_number,
            )
        roots += head == "0"
    if roots != 1:
        raise InputError(
            f"tree {index}: expected a single root (head 0), found {roots}",
            filename=filename,
            line=first_line,
        )
    return Tree(
        rows=tuple(cells for _, cells in rows),
        # Comments dropped: a UD file's "# text = ..." is the hidden reference itself.
        text="\n".join(line for _, line in block if not line.startswith("#")),
        first_line=first_line,
    )
