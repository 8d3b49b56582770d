"""What an output file of a kind looks like, for the Submit page, the API and ``nlgboard-submit``:
said by the kind (``submit: {layout, example}`` in its definition) or, when it says nothing,
by its reader, which is what decides what an upload may be. A new reader says it here too
(``tests/scorer/kinds/test_instructions.py`` holds every reader to it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class SubmitInstructions:
    """An output file in words (``layout``, one or two sentences; Markdown on the pages, so
    `code` spans show as code) and a short example of its start (``example``, the file's
    text)."""

    layout: str
    example: str = ""


ONE_PER_LINE = SubmitInstructions(
    "Plain text, one output per line, in the order of the inputs: line k answers input k "
    "(no header, no numbering).",
    "The first output, for the first input.\nThe second output, for the second input.\n",
)

BLOCKS_OR_LINES = (
    "Plain text, one output per line, or one `# text = ...` line per output with a blank "
    "line between outputs (a CoNLL-U file of your own is read by its `# text =` lines only)"
)

READER_INSTRUCTIONS: Mapping[str, SubmitInstructions] = {
    "e2e-csv": SubmitInstructions(
        "Plain text, one output per line, in the order of the test MRs; or a CSV or TSV table "
        "whose header names an MR column and an output column (e.g. `MR<TAB>output`), one row "
        "per test MR in test order.",
        "MR\toutput\nname[Aromi], food[Italian]\tAromi serves Italian food.\n",
    ),
    "conllu": SubmitInstructions(
        f"{BLOCKS_OR_LINES}: one sentence per input tree, in the order of the trees.",
        "# text = The cat sat on the mat.\n\n# text = It was warm.\n",
    ),
    "drs": SubmitInstructions(
        f"{BLOCKS_OR_LINES}: one text per DRS, in test order (challenge-set items included).",
        "Tom sold his car.\nThe car was red.\n",
    ),
    "webnlg-xml": SubmitInstructions(
        "Plain text, one output per line: line k answers entry k of the test XML (the entries "
        "in eid order); no header, no ids.",
        "Alan Bean was born in Wheeler, Texas.\nAarhus Airport serves the city of Aarhus.\n",
    ),
    "lines": ONE_PER_LINE,
    "parallel": ONE_PER_LINE,
    "json-lists": ONE_PER_LINE,
    "jsonl": ONE_PER_LINE,
    "csv": ONE_PER_LINE,
}
"""Each reader's output files in words: the default of a kind that says nothing of its own."""
