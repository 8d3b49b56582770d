"""Generated E2E output/reference files for differential tests against the official script.

Outputs are made from dev references the way real systems' outputs differ from them: lower- or
upper-cased, tokenised (a space before punctuation, split clitics), truncated, with words dropped,
repeated or shuffled, blank, very long, with non-ASCII, digits, SGML entities and odd spacing.
Reference sets vary in how many references an item has (1 to all of them). Seeded, so a case
that once disagreed is reproduced by its seed; the files are written as the official script
reads them (a ``mr,ref`` CSV and a ``MR<TAB>output`` TSV or plain text).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable
from dataclasses import dataclass

Transform = Callable[[random.Random, str, list[str]], str]

_ODD_TOKENS = [
    "£20-25",
    "£30",
    "1,000",
    "3.5",
    "0",
    "0 stars",
    "5-star",
    "&amp;",
    "&quot;",
    "&lt;b&gt;",
    "<skipped>",
    "A&B",
    "(kids)",
    "[yes]",
    "{x}",
    "~",
    "e.g.",
    "U.K.",
    "it's",
    "don't",
    "café",
    "Café Rouge",
    "naïve",
    "Ł20",
    "Â£",
    "—",
    "“quoted”",
    "...",
    "?!",
    "x-name",
    "10:30",
    "@home",
    "50%",
    "a/b",
    "^_^",
    '"',
    '"quoted"',
    "\\",
    "|",
    "ÄÖÜ",
    "İstanbul",
]


def _words(text: str) -> list[str]:
    return text.split()


def identity(rng: random.Random, ref: str, others: list[str]) -> str:
    return ref


def lower(rng: random.Random, ref: str, others: list[str]) -> str:
    return ref.lower()


def upper(rng: random.Random, ref: str, others: list[str]) -> str:
    return ref.upper()


def tokenise(rng: random.Random, ref: str, others: list[str]) -> str:
    text = ref
    for mark in ".,!?;:)":
        text = text.replace(mark, " " + mark)
    text = text.replace("(", "( ").replace("'s", " 's").replace("n't", " n't")
    return text.lower() if rng.random() < 0.5 else text


def truncate(rng: random.Random, ref: str, others: list[str]) -> str:
    words = _words(ref)
    return " ".join(words[: rng.randint(0, max(1, len(words) // 2))])


def short(rng: random.Random, ref: str, others: list[str]) -> str:
    words = _words(ref)
    return " ".join(rng.sample(words, min(len(words), rng.randint(1, 3))))


def drop_words(rng: random.Random, ref: str, others: list[str]) -> str:
    return " ".join(w for w in _words(ref) if rng.random() > 0.3)


def repeat_words(rng: random.Random, ref: str, others: list[str]) -> str:
    out: list[str] = []
    for word in _words(ref):
        out.extend([word] * (1 + (rng.random() < 0.3) * rng.randint(1, 3)))
    return " ".join(out)


def repeat_phrase(rng: random.Random, ref: str, others: list[str]) -> str:
    return " ".join([ref] * rng.randint(2, 4))


def shuffle_words(rng: random.Random, ref: str, others: list[str]) -> str:
    words = _words(ref)
    rng.shuffle(words)
    return " ".join(words)


def blank(rng: random.Random, ref: str, others: list[str]) -> str:
    return ""


def very_long(rng: random.Random, ref: str, others: list[str]) -> str:
    return " ".join(rng.choice(others) for _ in range(rng.randint(5, 12)))


def odd_tokens(rng: random.Random, ref: str, others: list[str]) -> str:
    words = _words(ref)
    for _ in range(rng.randint(1, 4)):
        words.insert(rng.randint(0, len(words)), rng.choice(_ODD_TOKENS))
    return " ".join(words)


def odd_spacing(rng: random.Random, ref: str, others: list[str]) -> str:
    gaps = [" ", "  ", "\u00a0", " \u2009 ", "\u3000", " \t "]
    return "".join(rng.choice(gaps) if ch == " " else ch for ch in ref)


def other_item(rng: random.Random, ref: str, others: list[str]) -> str:
    return rng.choice(others)


def mixed(rng: random.Random, ref: str, others: list[str]) -> str:
    text = ref
    for transform in rng.sample(TRANSFORMS[1:12], 2):
        text = transform(rng, text, others)
    return text


TRANSFORMS: list[Transform] = [
    identity,
    lower,
    upper,
    tokenise,
    truncate,
    short,
    drop_words,
    repeat_words,
    repeat_phrase,
    shuffle_words,
    odd_tokens,
    odd_spacing,
    blank,
    very_long,
    other_item,
    mixed,
]


@dataclass(frozen=True)
class Case:
    """One generated test set: MRs, their references, one output per MR."""

    mrs: list[str]
    references: list[list[str]]
    outputs: list[str]
    transforms: list[str]

    def refs_csv(self) -> bytes:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["mr", "ref"])
        for mr, refs in zip(self.mrs, self.references, strict=True):
            for ref in refs:
                writer.writerow([mr, ref])
        return buffer.getvalue().encode()

    def outputs_tsv(self) -> bytes:
        buffer = io.StringIO()
        # Every field quoted: an empty output left bare would lose its tab to the official
        # script's line stripping (that script refuses such a line).
        writer = csv.writer(buffer, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writerow(["mr", "output"])
        for mr, output in zip(self.mrs, self.outputs, strict=True):
            writer.writerow([mr, output])
        return buffer.getvalue().encode()


def generate(
    items: list[tuple[str, list[str]]],
    seed: int | random.Random,
    odd_references: float = 0.05,
) -> Case:
    """One output per item, by a transform drawn per item; references subsampled per item.

    The output is made from a reference that is then usually left out of the item's references
    (as in the dev leave-one-out files), so outputs are never trivially perfect. ``seed`` may be
    a ``random.Random`` (hypothesis' ``st.randoms()``, which shrinks a failing case).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    pool = [ref for _, refs in items for ref in refs]
    mrs, references, outputs, names = [], [], [], []
    for mr, refs in items:
        refs = list(refs)
        source = refs.pop(0) if len(refs) > 1 and rng.random() < 0.8 else refs[0]
        if rng.random() < 0.5:
            refs = rng.sample(refs, rng.randint(1, len(refs)))
        refs = [
            odd_tokens(rng, ref, pool) if rng.random() < odd_references else ref for ref in refs
        ]
        transform = rng.choice(TRANSFORMS)
        output = transform(rng, source, pool)
        mrs.append(mr)
        references.append(refs)
        outputs.append(output.replace("\t", " "))
        names.append(transform.__name__)
    return Case(mrs, references, outputs, names)


def _quoted(field: str) -> str:
    return '"' + field.replace('"', '""') + '"'


def _bare_or_quoted(field: str) -> str:
    needs = not field or field[0] in "\"' " or "\t" in field or field[-1] == " "
    return _quoted(field) if needs else field


REFERENCE_LAYOUTS: dict[str, Callable[[Case], bytes]] = {
    "csv-bare-header": lambda case: case.refs_csv(),
    "csv-quoted-header-all-quoted": lambda case: "".join(
        f"{_quoted(a)},{_quoted(b)}\n"
        for a, b in [("mr", "ref")]
        + [(m, r) for m, rs in zip(case.mrs, case.references, strict=True) for r in rs]
    ).encode(),
    "csv-crlf-bom": lambda case: b"\xef\xbb\xbf" + case.refs_csv().replace(b"\n", b"\r\n"),
}
"""Reference files as the E2E releases ship them (dev/train: bare header, CRLF; test: quoted)."""

OUTPUT_LAYOUTS: dict[str, Callable[[Case], tuple[str, bytes]]] = {
    "tsv-all-quoted": lambda case: ("out.tsv", case.outputs_tsv()),
    "tsv-quoted-mr-bom-crlf": lambda case: (
        "out.tsv",
        b"\xef\xbb\xbf"
        + "".join(
            f"{_quoted(mr)}\t{_bare_or_quoted(out)}\r\n"
            for mr, out in [("MR", "output"), *zip(case.mrs, case.outputs, strict=True)]
        ).encode(),
    ),
    "tsv-bare-mr-rrn-trailing-spaces": lambda case: (
        "out.tsv",
        "".join(
            f"{_bare_or_quoted(mr)}\t{_bare_or_quoted(out)}  \r\r\n"
            for mr, out in [("mr", "output"), *zip(case.mrs, case.outputs, strict=True)]
        ).encode(),
    ),
    "plain-text": lambda case: (
        "out.txt",
        "".join(out.replace("\n", " ") + "\n" for out in case.outputs).encode(),
    ),
}
"""Output files in the layouts of the published E2E outputs (quoted MRs, BOM, CRLF, \\r\\r\\n,
trailing spaces) and plain text."""
