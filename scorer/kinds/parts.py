"""The verified parts a kind is composed of, by name: readers of test sets and outputs, and
per-metric tokenisers. (Normalisations are ``scorer.normalise.NORMALISATIONS``, metrics
``scorer.metrics``, analyses ``scorer.kinds.analyses``.) A new part registers here, never as a
branch on a kind's name elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from scorer.errors import InputError
from scorer.io import conllu, drs, e2e, layouts, records, sr18, webnlg
from scorer.io.archive import is_zip, read_zip
from scorer.io.by_track import (
    read_drs_outputs,
    read_drs_references,
    read_e2e_outputs,
    read_e2e_references,
    read_line_outputs,
    read_sr18_outputs,
    read_sr18_references,
    read_webnlg_inputs,
    read_webnlg_outputs,
)
from scorer.io.e2e import ReferenceItem
from scorer.io.folders import has_side_file, member_files, side_file
from scorer.io.items import natural_key
from scorer.kinds.profile import InputsFile, Profile
from scorer.kinds.releases import (
    File,
    ReadRelease,
    Release,
    conllu_release,
    drs_release,
    e2e_release,
    profile_release,
)
from scorer.normalise import Normalisation

References = Callable[..., list[ReferenceItem]]
Outputs = Callable[[bytes, Sequence[str] | None, str], list[str]]


@dataclass(frozen=True)
class ReaderOption:
    """What a reader's option must be: ``what`` says it in a refusal, ``fits`` checks it."""

    what: str
    fits: Callable[[Any], bool]


FIELD = ReaderOption("a field name (text)", lambda value: isinstance(value, str) and bool(value))
NAMES = ReaderOption(
    "a list of names",
    lambda value: isinstance(value, list) and all(isinstance(v, str) and v for v in value),
)
LANGUAGE = ReaderOption("a language code (text)", lambda v: isinstance(v, str) and bool(v))
FILE_NAME = ReaderOption(
    "a file name (text, no folder)",
    lambda v: isinstance(v, str) and bool(v.strip()) and "/" not in v and "\\" not in v,
)
DELIMITER = ReaderOption("comma or tab", lambda v: isinstance(v, str) and v in records.DELIMITERS)


@dataclass(frozen=True)
class Reader:
    """How a kind's files are read: the references file (each item's input, references and
    attributes), the inputs file teams get (checked against it), an output file, a training
    file's texts, and how the inputs are written for teams to download. ``options`` are the
    keys a definition may set; the callables take them as keywords."""

    references: References
    outputs: Outputs
    training_texts: Callable[..., list[str]]
    inputs_file: Callable[..., InputsFile]
    inputs: Callable[..., list[str]] | None = None
    options: Mapping[str, ReaderOption] = field(default_factory=dict)
    """The keys a definition may set and what each must be (checked before any file is read)."""
    seen_in: Callable[[bytes, str], dict[str, Any]] | None = None
    """The reader's options that a training file sets (WebNLG: which categories are seen)."""
    folder_suffix: str | None = None
    """The files a folder (or a zip) of references, inputs or training data is read from,
    in the release's order (WebNLG: ``.xml``, one file per size and category); None: one file."""
    release: ReadRelease | None = None
    """How a release whose inputs and references are separate files that must align is read
    into items (E2E's CSVs, SR'18's trees and sentences, DRS with its sentences); None: the
    references file says everything, read as ``nlg-score`` reads it."""
    attribute_files: Mapping[str, str] = field(default_factory=dict)
    """Option naming a file beside the references -> the item attribute that file gives
    (WebNLG+ 2020's ``instance_types`` -> ``type``). Only some sets have it (the test set, not
    the dev folder): a set without it is read without that attribute's subsets, and says so."""

    def read_release(
        self, profile: Profile, inputs: File | None, references: File | None
    ) -> Release:
        """A test set's published files as items (a board's import reads them here)."""
        return (self.release or profile_release)(profile, inputs, references)

    def bound(self, options: dict[str, Any]) -> Reader:
        """This reader with a definition's options given to every part that reads them."""
        if not options:
            return self
        return Reader(
            partial(self.references, **options),
            self.outputs,
            partial(self.training_texts, **options),
            partial(self.inputs_file, **options),
            partial(self.inputs, **options) if self.inputs else None,
            self.options,
            self.seen_in,
            self.folder_suffix,
            self.release,
            self.attribute_files,
        )


def reference_texts(read: References, *kept: str) -> Callable[..., list[str]]:
    """A training file's texts: every reference of the items ``read`` gives, read with the
    definition's options in ``kept`` (a training file need not have the test set's attributes)."""

    def texts(data: bytes, filename: str, **options: Any) -> list[str]:
        chosen = {key: value for key, value in options.items() if key in kept}
        return [text for item in read(data, filename, **chosen) for text in item.references]

    return texts


def blocks_file(suffix: str) -> Callable[..., InputsFile]:
    """Inputs as blocks separated by a blank line (CoNLL-U trees, DRSs, WebNLG triple sets)."""

    def write(texts: Sequence[str], **_: Any) -> InputsFile:
        return InputsFile("\n\n".join(text.strip("\n") for text in texts) + "\n", suffix)

    return write


def e2e_inputs_file(texts: Sequence[str], **_: Any) -> InputsFile:
    """The published testset layout: a one-column ``mr`` CSV."""
    return InputsFile(records.write_csv_inputs(texts, "mr"), "csv", "text/csv")


def e2e_training_texts(data: bytes, filename: str, **_: Any) -> list[str]:
    return [ref for item in e2e.read_dataset_csv(data, filename) for ref in item.references]


def drs_training_texts(data: bytes, filename: str, **_: Any) -> list[str]:
    """A DRS SBN file's text column, or one sentence per line (a PMB ``.raw`` file)."""
    if drs.looks_like_sbn(data):
        return [item.text or "" for item in drs.read_sbn_file(data, filename)]
    return sr18.read_sentences(data, filename)


def sentences(data: bytes, filename: str, **_: Any) -> list[str]:
    return sr18.read_sentences(data, filename)


def conllu_inputs(data: bytes, filename: str, **_: Any) -> list[str]:
    return [tree.text for tree in conllu.read_trees(data, filename)]


def drs_inputs(data: bytes, filename: str, **_: Any) -> list[str]:
    if drs.looks_like_sbn(data):
        return [item.drs for item in drs.read_sbn_file(data, filename)]
    return [item.drs for item in drs.read_clause_file(data, filename)]


def webnlg_references(
    data: bytes,
    filename: str,
    *,
    seen_categories: Sequence[str] | None = None,
    language: str | None = None,
    instance_types: str | None = None,
    written_for: tuple[str, str] | None = None,
) -> list[ReferenceItem]:
    """A WebNLG XML file, or a folder's (a zip's) XML files one after the other in the
    release's order (``scorer.io.folders``). ``seen_categories`` gives each item ``seen``
    (none without it); ``instance_types`` names the JSON file beside the XML (in its folder or
    zip) that gives each entry's ``type`` (WebNLG+ 2020's three-way split), where the set has
    it: a set without it (the dev folder) gets no ``type``, which the kind's subsets check
    turns into ``SubsetsMissing`` (imported and scored without those subsets, said so: the
    reader's ``attribute_files``). ``written_for``:
    the language the kind's parts are made for, and which part says it (set by the kind, not
    by a definition: ``scorer.kinds.definitions``)."""
    members = member_files(data, filename, ".xml")
    entries = [
        entry
        for name, content in members
        for entry in webnlg.read_references(
            content, name, language=language, written_for=written_for
        )
    ]
    types = None
    if instance_types is not None and has_side_file(data, filename, instance_types):
        if len(members) != 1:
            raise InputError(
                f"holds {len(members)} XML files; the types in {instance_types} are given by "
                "entry id, which repeats from file to file: give the one test file beside it",
                filename=filename,
            )
        named = f"{filename}: {instance_types}" if is_zip(data) else instance_types
        types = webnlg.read_instance_types(
            side_file(data, filename, instance_types), named, entries, members[0][0]
        )
    return list(webnlg.as_items(entries, seen_categories, types))


def webnlg_seen_in(data: bytes, filename: str) -> dict[str, Any]:
    """A training file's (or folder's) categories are the seen ones (the 2017 split's rule)."""
    found: set[str] = set()
    for name, content in member_files(data, filename, ".xml"):
        found |= webnlg.categories(content, name)
    return {"seen_categories": sorted(found)}


def webnlg_inputs(data: bytes, filename: str, **_: Any) -> list[str]:
    return [
        text
        for name, content in member_files(data, filename, ".xml")
        for text in read_webnlg_inputs(content, name)
    ]


def line_references(data: bytes, filename: str, **_: Any) -> list[ReferenceItem]:
    return list(records.line_items(data, filename))


def lines(data: bytes, filename: str, **_: Any) -> list[str]:
    return records.read_lines(data, filename)


def lines_file(texts: Sequence[str], **_: Any) -> InputsFile:
    return InputsFile("".join(text.replace("\n", " ") + "\n" for text in texts), "txt")


PARALLEL_MAX_BYTES = 256 * 2**20
"""Largest a zip of parallel reference files may inflate to (WebNLG+ 2020: ~1 MB each)."""


def parallel_references(data: bytes, filename: str, **_: Any) -> list[ReferenceItem]:
    """Parallel reference files (``reference0..N``, an empty line where an item has fewer)
    given as one zip, read in natural order of their names; a plain file is one reference
    file."""
    if not is_zip(data):
        return layouts.read_parallel([(filename, data)])
    files = read_zip(data, filename, PARALLEL_MAX_BYTES)
    return layouts.read_parallel([(name, files[name]) for name in sorted(files, key=natural_key)])


def json_lists_references(data: bytes, filename: str, **_: Any) -> list[ReferenceItem]:
    return layouts.read_json_lists(data, filename)


def jsonl_inputs(data: bytes, filename: str, *, input: str = "input", **_: Any) -> list[str]:
    return records.jsonl_inputs(data, filename, input=input)


def jsonl_file(texts: Sequence[str], *, input: str = "input", **_: Any) -> InputsFile:
    return InputsFile(records.write_jsonl_inputs(texts, input), "jsonl")


def jsonl_references(data: bytes, filename: str, **options: Any) -> list[ReferenceItem]:
    return list(records.jsonl_items(data, filename, **options))


def csv_references(data: bytes, filename: str, **options: Any) -> list[ReferenceItem]:
    return list(records.csv_items(data, filename, **options))


def csv_inputs(data: bytes, filename: str, **options: Any) -> list[str]:
    return records.csv_inputs(data, filename, **_only(options, "input", "delimiter"))


def csv_file(
    texts: Sequence[str], *, input: str = "input", delimiter: str = "comma", **_: Any
) -> InputsFile:
    tab = records.DELIMITERS.get(delimiter) == "\t"
    return InputsFile(
        records.write_csv_inputs(texts, input, delimiter),
        "tsv" if tab else "csv",
        "text/tab-separated-values" if tab else "text/csv",
    )


def _only(options: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: options[key] for key in keys if key in options}


READERS: dict[str, Reader] = {
    "e2e-csv": Reader(
        read_e2e_references,
        read_e2e_outputs,
        e2e_training_texts,
        e2e_inputs_file,
        release=e2e_release,
    ),
    "conllu": Reader(
        read_sr18_references,
        read_sr18_outputs,
        sentences,
        blocks_file("conllu"),
        conllu_inputs,
        release=conllu_release,
    ),
    "drs": Reader(
        read_drs_references,
        read_drs_outputs,
        drs_training_texts,
        blocks_file("txt"),
        drs_inputs,
        release=drs_release,
    ),
    "webnlg-xml": Reader(
        webnlg_references,
        read_webnlg_outputs,
        reference_texts(webnlg_references, "language", "written_for"),
        blocks_file("txt"),
        webnlg_inputs,
        options={
            "seen_categories": NAMES,
            "language": LANGUAGE,
            "instance_types": FILE_NAME,
        },
        seen_in=webnlg_seen_in,
        folder_suffix=".xml",
        attribute_files={"instance_types": "type"},
    ),
    "lines": Reader(line_references, read_line_outputs, lines, lines_file, lines),
    "parallel": Reader(
        parallel_references,
        read_line_outputs,
        reference_texts(parallel_references),
        lines_file,
        lines,
    ),
    "json-lists": Reader(
        json_lists_references,
        read_line_outputs,
        reference_texts(json_lists_references),
        lines_file,
        lines,
    ),
    "jsonl": Reader(
        jsonl_references,
        read_line_outputs,
        reference_texts(jsonl_references, "input", "references"),
        jsonl_file,
        jsonl_inputs,
        options={"input": FIELD, "references": FIELD, "attributes": NAMES},
    ),
    "csv": Reader(
        csv_references,
        read_line_outputs,
        reference_texts(csv_references, "input", "references", "delimiter"),
        csv_file,
        csv_inputs,
        options={"input": FIELD, "references": FIELD, "attributes": NAMES, "delimiter": DELIMITER},
    ),
}
"""Readers by name. References files: ``e2e-csv`` the E2E ``mr,ref`` table; ``conllu`` SR'18
(inputs CoNLL-U trees, references one sentence per line or ``# text =`` blocks); ``drs`` DRS
clause or SBN files with their sentences; ``webnlg-xml`` WebNLG's benchmark XML (attributes
category, size, eid, seen); ``lines`` one reference per line; ``parallel`` parallel reference
files ``reference0..N`` (a zip of them, or one file) and ``json-lists`` one JSON array of
arrays of references, both with inputs one per line; ``jsonl`` JSON Lines with named
``input``/``references``/attribute fields; ``csv`` a CSV or TSV table, one row per reference,
with named columns. Outputs are one text per line (E2E also its CSV, SR'18 and DRS also
``# text =`` blocks)."""


@lru_cache(maxsize=1 << 16)
def nltk_words(text: str) -> str:
    """Memoised: a worker tokenises the same references for every submission to a test set."""
    return " ".join(_nltk_tokenizer().tokenize(text))


@lru_cache(maxsize=1)
def _nltk_tokenizer() -> Any:
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


@lru_cache(maxsize=1 << 16)
def nltk_punkt_untrained_words(text: str) -> str:
    """``nltk.word_tokenize(text)`` with punkt's algorithm untrained: its sentences (NLTK's
    ``PunktSentenceTokenizer`` with default parameters: no abbreviation, collocation or
    sentence-starter lists, no orthographic statistics), then NLTK's word tokeniser on each."""
    words = _nltk_tokenizer()
    return " ".join(
        token
        for sentence in _punkt_untrained().tokenize(text)
        for token in words.tokenize(sentence)
    )


@lru_cache(maxsize=1)
def _punkt_untrained() -> Any:
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    return PunktSentenceTokenizer()


@lru_cache(maxsize=1 << 16)
def nltk35_punkt_untrained_words(text: str) -> str:
    """NLTK 3.5's ``nltk.word_tokenize(text)`` (the NLTK WebNLG+ 2020's eval.py pins) with
    punkt untrained, by the board's own copy of 3.5's rules (``scorer.tokenizers.nltk35``),
    whatever NLTK is installed; needs no NLTK at all."""
    from scorer.tokenizers.nltk35 import word_tokenize

    return " ".join(word_tokenize(text))


@lru_cache(maxsize=1 << 16)
def razdel_words(text: str) -> str:
    """razdel's tokens (``razdel.tokenize``), as WebNLG+ 2020's eval.py makes Russian ones."""
    from razdel import tokenize

    return " ".join(token.text for token in tokenize(text))


TOKENISERS: dict[str, Callable[[str], str]] = {
    "nltk": nltk_words,
    "nltk-punkt": nltk_punkt_untrained_words,
    "nltk35-punkt": nltk35_punkt_untrained_words,
    "razdel": razdel_words,
}
"""Per-metric tokens, named in a score's signature by their function (``tokens:nltk_words``):

- ``nltk``: NLTK's word tokeniser (its Treebank rules) on the whole text, as
  ``nltk.word_tokenize(text, preserve_line=True)``: no sentence split, so a full stop inside a
  text stays on its word (kept as it was: stored scores name it);
- ``nltk-punkt``: ``nltk.word_tokenize(text)``, sentences first, with punkt's algorithm but not
  its trained English parameters (NLTK's data, which cannot be installed here): WebNLG+ 2020's
  English tokens but where a trained abbreviation or collocation keeps a sentence together
  (``St. Louis``, ``U.S. Navy``); the README measures what that changes; the installed
  NLTK's rules (3.10 splits ``Madrid–Barajas`` at the en dash, NLTK 3.5 does not), kept as it
  was: stored scores name it;
- ``nltk35-punkt``: the same with NLTK 3.5's rules (punkt's and the Treebank words'), eval.py's
  pinned NLTK, as the board's own code (``scorer.tokenizers.nltk35``): eval.py's English tokens
  but where a trained abbreviation keeps a sentence together;
- ``razdel``: razdel's ``tokenize`` (WebNLG+ 2020's Russian tokens)."""

UNCHANGED = Normalisation("none", lambda text: text, lambda text: text)
