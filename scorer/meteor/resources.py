"""METEOR 1.5's English resources, from where the jar takes them: function words, non-breaking
prefixes and WordNet synonyms inside ``meteor-1.5.jar``, paraphrases in ``paraphrase-en.gz``
beside it (both in the pycocoevalcap wheel).

The synonyms and the 5.3 million paraphrases are turned once into an SQLite file in the user's
cache folder (named for the hashes of the jar and the table), so a cold start opens a file and
looks up only the words it meets instead of parsing 61 MB of gzip text. The stemmer is Snowball's
English stemmer (``snowballstemmer`` 2.2.0 gives the jar's stems for every WordNet word).
"""

from __future__ import annotations

import gc
import gzip
import itertools
import operator
import os
import sqlite3
import threading
import zipfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import snowballstemmer

from scorer.cache import built_file
from scorer.java.jars import coco_file
from scorer.meteor.normalizer import java_tokens, read_prefixes

JAR = "meteor/meteor-1.5.jar"
PARAPHRASES = "meteor/data/paraphrase-en.gz"
Targets = dict[str | None, list[tuple[int, tuple[str, ...]]]]


def _jar_text(name: str) -> str:
    with zipfile.ZipFile(coco_file(JAR)) as archive:
        return archive.read(name).decode("utf-8")


@cache
def function_words() -> frozenset[str]:
    return frozenset(_jar_text("function/english.words").splitlines())


@cache
def nonbreaking_prefixes() -> dict[str, int]:
    return read_prefixes(_jar_text("nonbreaking/english.prefixes"))


class Stemmer:
    """Snowball English, remembered per word (the same words come back in every segment)."""

    def __init__(self) -> None:
        self._stemmer = snowballstemmer.stemmer("english")
        self._stems: dict[str, str] = {}
        self._lock = threading.Lock()

    def stem(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            with self._lock:  # the Snowball object keeps state between calls
                found = self._stems[word] = self._stemmer.stemWord(word)
        return found


def _pairs(lines: list[str]) -> Iterator[tuple[str, str]]:
    """Two-line records (a key line, then a line of tokens), as SynonymDictionary reads them."""
    for i in range(0, len(lines) - 1, 2):
        yield lines[i], lines[i + 1]


def _build(target: Path, table: Path | None = None) -> None:
    """One SQLite file: synonyms (word -> synsets, inflected form -> base forms) and the
    paraphrase trie: a row for every prefix of a source phrase, with the paraphrases of the
    whole phrase in the table's order (none for a prefix only). From pycocoevalcap's
    paraphrase table unless another ``table`` is given (the tests' samples).

    The cyclic garbage collector is paused meanwhile: the millions of short-lived lines and
    rows hold no cycles, and its passes over them cost about a sixth of the build."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        _write_lexicon(target, coco_file(PARAPHRASES) if table is None else table)
    finally:
        if collecting:
            gc.enable()


def _write_lexicon(target: Path, table: Path) -> None:
    connection = sqlite3.connect(target)
    connection.executescript(
        """
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE synsets (word TEXT PRIMARY KEY, synsets TEXT) WITHOUT ROWID;
        CREATE TABLE bases (word TEXT, base TEXT);
        CREATE TABLE paraphrase (phrase TEXT PRIMARY KEY, targets TEXT) WITHOUT ROWID;
        """
    )
    synsets = _jar_text("synonym/english.synsets").split("\n")
    connection.executemany(
        "INSERT OR REPLACE INTO synsets VALUES (?, ?)",
        ((word, " ".join(java_tokens(sets))) for word, sets in _pairs(synsets)),
    )
    exceptions = _jar_text("synonym/english.exceptions").split("\n")
    connection.executemany(
        "INSERT INTO bases VALUES (?, ?)",
        ((form, base) for base, forms in _pairs(exceptions) for form in java_tokens(forms)),
    )
    phrases: set[str] = set()
    for rows in _paraphrase_blocks(table):
        phrases.update(map(operator.itemgetter(0), rows))
        connection.executemany("INSERT INTO paraphrase VALUES (?, ?)", rows)
    connection.executemany(
        "INSERT INTO paraphrase VALUES (?, NULL)",
        ((p,) for p in sorted(_prefixes(phrases) - phrases)),
    )
    connection.execute("CREATE INDEX bases_word ON bases (word)")
    connection.commit()
    connection.close()


CHUNK = 1 << 18
"""Bytes of the decompressed paraphrase table read at a time (cut at the last whole line): a
block's lines stay in the processor's cache (4 MB blocks took a third longer)."""
_UNTIDY = ("\t", "\x0c", "  ", "\n ", " \n")
"""What makes a line differ from its StringTokenizer tokens joined by single spaces (with a
leading or trailing space, checked apart)."""


def _paraphrase_blocks(path: Path, chunk: int = CHUNK) -> Iterator[list[tuple[str, str]]]:
    """(source phrase, its paraphrases joined by newlines) from the table, whose entries come
    in runs of one source phrase (three lines each: probability, source, paraphrase), a few
    thousand runs at a time.

    Read a few hundred kilobytes at a time and cut into lines by ``str.split`` (per-line Python work
    made the first run on a machine take half a minute). The lines are the text stream's
    (universal newlines: ``\r`` and ``\r\n`` end a line too). A source phrase is its
    StringTokenizer tokens joined by single spaces, as the aligner looks it up; the table's are
    already written so (checked on the distinct sources of each block, else tidied). A
    paraphrase is kept as its line: ``Lexicon.paraphrases`` splits it at every white space,
    which includes all of StringTokenizer's delimiters, so its words are the same either way."""
    carry: list[str] = []
    rest = b""
    for block in _decompressed(path, chunk):
        final = not block
        data = rest + block
        if final:
            if data and not data.endswith(b"\n"):
                data += b"\n"
        else:
            cut = data.rfind(b"\n") + 1
            data, rest = data[:cut], data[cut:]
        text = data.decode("utf-8")
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        lines.pop()  # after the last newline
        if carry:
            lines = carry + lines
        if final:
            lines += [""] * (-len(lines) % 3)  # a last entry cut short: empty lines
        rows, carry = _runs(lines, final)
        yield rows


def _decompressed(path: Path, chunk: int) -> Iterator[bytes]:
    """The gzip file's content in blocks, then ``b""``."""
    with gzip.open(path, "rb") as stream:
        while block := stream.read(chunk):
            yield block
    yield b""


def _runs(lines: list[str], final: bool) -> tuple[list[tuple[str, str]], list[str]]:
    """The runs of one source phrase in these entries, and the lines left over: unless
    ``final``, those from the last run's start on (the next block may continue it)."""
    sources, targets = lines[1::3], lines[2::3]
    starts = _run_starts(sources)
    joined = "\n".join(map(sources.__getitem__, starts))
    if any(mark in joined for mark in _UNTIDY) or joined.startswith(" ") or joined.endswith(" "):
        sources = [" ".join(java_tokens(source)) for source in sources]
        starts = _run_starts(sources)
    if final:
        carry, bounds = [], [*starts, len(sources)]
    else:
        carry, bounds = (lines[3 * starts[-1] :] if starts else lines), starts
    join = "\n".join
    rows = [(sources[start], join(targets[start:end])) for start, end in itertools.pairwise(bounds)]
    return rows, carry


def _run_starts(sources: list[str]) -> list[int]:
    """Where each run of equal sources starts (compared in C: a Python loop over the 5.3
    million entries would cost seconds)."""
    if not sources:
        return []
    changes = map(operator.ne, itertools.islice(sources, 1, None), sources)
    return [0, *itertools.compress(range(1, len(sources)), changes)]


def _prefixes(phrases: set[str]) -> set[str]:
    """Every proper prefix (whole words) of these phrases: the trie's inner rows."""
    prefixes: set[str] = set()
    shorter = phrases
    while shorter:
        shorter = {phrase.rpartition(" ")[0] for phrase in shorter if " " in phrase} - prefixes
        prefixes |= shorter
    return prefixes


class Lexicon:
    """Synonym sets and paraphrases, looked up in the cache file and remembered per process."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self.path = path
        """The built lexicon file, named for the jar and paraphrase table it was built from."""
        self._pid = os.getpid()
        self._connection = self._connect()
        self._lock = threading.Lock()
        self._synsets: dict[str, frozenset[int] | None] = {}
        self._bases: dict[str, tuple[str, ...]] = {}
        self._paraphrases: dict[str, Targets | None] = {}

    def _connect(self) -> sqlite3.Connection:
        uri = f"file:{self._path}?mode=ro"
        return sqlite3.connect(uri, uri=True, check_same_thread=False)

    def _query(self, sql: str, value: str) -> list[tuple[str]]:
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # half of a surrogate pair: no resource has it
                return []
        if os.getpid() != self._pid:  # a forked scorer: SQLite connections do not cross forks
            self._pid, self._lock = os.getpid(), threading.Lock()
            self._connection = self._connect()
        with self._lock:
            return self._connection.execute(sql, (value,)).fetchall()

    def synsets(self, word: str) -> frozenset[int] | None:
        """The word's synsets, ``None`` when WordNet does not have it."""
        if word not in self._synsets:
            rows = self._query("SELECT synsets FROM synsets WHERE word = ?", word)
            self._synsets[word] = frozenset(map(int, rows[0][0].split())) if rows else None
        return self._synsets[word]

    def bases(self, word: str) -> tuple[str, ...]:
        """The base forms of an irregular inflection (``english.exceptions``)."""
        if word not in self._bases:
            rows = self._query("SELECT base FROM bases WHERE word = ? ORDER BY rowid", word)
            self._bases[word] = tuple(row[0] for row in rows)
        return self._bases[word]

    def paraphrases(self, phrase: str) -> Targets | None:
        """``None`` when no source phrase starts with these words (space-joined); else the
        paraphrases of exactly this phrase, grouped by their first word (``None`` for an
        empty one): (place in the table's order, paraphrase)."""
        try:
            return self._paraphrases[phrase]
        except KeyError:  # first met in this process
            pass
        rows = self._query("SELECT targets FROM paraphrase WHERE phrase = ?", phrase)
        found: Targets | None = None
        if rows:
            found = {}
            if rows[0][0] is not None:
                for order, line in enumerate(rows[0][0].split("\n")):
                    words = tuple(line.split())
                    found.setdefault(words[0] if words else None, []).append((order, words))
        self._paraphrases[phrase] = found
        return found


LEXICON_SECONDS = 5
"""About how long building the lexicon takes on an idle machine (4-5 s on the project's
2-core machine at a load below 2; said when it starts, stretched by the load)."""


@cache
def lexicon() -> Lexicon:
    """The process's lexicon; the first call on a machine builds the cache file."""
    sources = [coco_file(JAR), coco_file(PARAPHRASES)]
    what = "METEOR's synonym and paraphrase tables"
    return Lexicon(built_file("meteor-en", sources, ".sqlite", _build, what, LEXICON_SECONDS))


@cache
def stemmer() -> Stemmer:
    return Stemmer()
