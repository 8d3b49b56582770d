"""METEOR 1.5's English resources, from where the jar takes them: function words, non-breaking
prefixes and WordNet synonyms inside ``meteor-1.5.jar``, paraphrases in ``paraphrase-en.gz``
beside it (both in the pycocoevalcap wheel).

The synonyms and the 5.3 million paraphrases are turned once into an SQLite file in the user's
cache folder (named for the hashes of the jar and the table), so a cold start opens a file and
looks up only the words it meets instead of parsing 61 MB of gzip text. The stemmer is Snowball's
English stemmer (``snowballstemmer`` 2.2.0 gives the jar's stems for every WordNet word).
"""

from __future__ import annotations

import gzip
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


def _build(target: Path) -> None:
    """One SQLite file: synonyms (word -> synsets, inflected form -> base forms) and the
    paraphrase trie: a row for every prefix of a source phrase, with the paraphrases of the
    whole phrase in the table's order (none for a prefix only)."""
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
    prefixes: set[str] = set()
    connection.executemany("INSERT INTO paraphrase VALUES (?, ?)", _grouped_paraphrases(prefixes))
    connection.executemany(
        "INSERT OR IGNORE INTO paraphrase VALUES (?, NULL)", ((p,) for p in prefixes)
    )
    connection.execute("CREATE INDEX bases_word ON bases (word)")
    connection.commit()
    connection.close()


def _grouped_paraphrases(prefixes: set[str]) -> Iterator[tuple[str, str]]:
    """(source phrase, its paraphrases joined by newlines) from the table, whose entries come
    in runs of one source phrase (three lines each: probability, source, paraphrase); the
    proper prefixes of every source phrase are added to ``prefixes``."""
    current: str | None = None
    targets: list[str] = []
    with gzip.open(coco_file(PARAPHRASES), "rt", encoding="utf-8") as stream:
        for _probability in stream:
            source = java_tokens(next(stream, ""))
            phrase = " ".join(source)
            if phrase != current:
                if current is not None:
                    yield current, "\n".join(targets)
                current, targets = phrase, []
                prefixes.update(" ".join(source[:n]) for n in range(1, len(source)))
            targets.append(" ".join(java_tokens(next(stream, ""))))
    if current is not None:
        yield current, "\n".join(targets)


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
        if phrase in self._paraphrases:
            return self._paraphrases[phrase]
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


@cache
def lexicon() -> Lexicon:
    """The process's lexicon; the first call on a machine builds the cache file (~1 min)."""
    sources = [coco_file(JAR), coco_file(PARAPHRASES)]
    return Lexicon(built_file("meteor-en", sources, ".sqlite", _build))


@cache
def stemmer() -> Stemmer:
    return Stemmer()
