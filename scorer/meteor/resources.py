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
import sqlite3
import threading
import zipfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import snowballstemmer

from scorer.cache import built_file
from scorer.java import coco_file
from scorer.meteor.normalizer import java_tokens, read_prefixes

JAR = "meteor/meteor-1.5.jar"
PARAPHRASES = "meteor/data/paraphrase-en.gz"
_BATCH = 50_000
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
    paraphrase trie (every prefix of a source phrase; the targets of each whole phrase, in
    the table's order)."""
    connection = sqlite3.connect(target)
    connection.executescript(
        """
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE synsets (word TEXT PRIMARY KEY, synsets TEXT) WITHOUT ROWID;
        CREATE TABLE bases (word TEXT, base TEXT);
        CREATE TABLE emit (phrase TEXT, target TEXT);
        CREATE TABLE node (phrase TEXT PRIMARY KEY) WITHOUT ROWID;
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
    with gzip.open(coco_file(PARAPHRASES), "rt", encoding="utf-8") as stream:
        batch: list[tuple[str, str]] = []
        nodes: set[str] = set()
        for _probability in stream:
            source = java_tokens(next(stream, ""))
            paraphrase = " ".join(java_tokens(next(stream, "")))
            batch.append((" ".join(source), paraphrase))
            nodes.update(" ".join(source[:n]) for n in range(1, len(source) + 1))
            if len(batch) >= _BATCH:
                _insert(connection, batch, nodes)
        _insert(connection, batch, nodes)
    connection.executescript(
        """
        CREATE INDEX bases_word ON bases (word);
        CREATE INDEX emit_phrase ON emit (phrase);
        """
    )
    connection.commit()
    connection.close()


def _insert(connection: sqlite3.Connection, batch: list, nodes: set[str]) -> None:
    """Write a batch of paraphrases and trie nodes, emptying both (memory stays flat)."""
    connection.executemany("INSERT INTO emit VALUES (?, ?)", batch)
    connection.executemany("INSERT OR IGNORE INTO node VALUES (?)", ((n,) for n in nodes))
    batch.clear()
    nodes.clear()


class Lexicon:
    """Synonym sets and paraphrases, looked up in the cache file and remembered per process."""

    def __init__(self, path: Path) -> None:
        self._connection = sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, check_same_thread=False
        )
        self._lock = threading.Lock()
        self._synsets: dict[str, frozenset[int] | None] = {}
        self._bases: dict[str, tuple[str, ...]] = {}
        self._nodes: dict[str, bool] = {}
        self._emits: dict[str, Targets] = {}

    def _query(self, sql: str, value: str) -> list[tuple[str]]:
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # half of a surrogate pair: no resource has it
                return []
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

    def is_node(self, phrase: str) -> bool:
        """Whether some paraphrase source starts with these words (space-joined)."""
        if phrase not in self._nodes:
            self._nodes[phrase] = bool(self._query("SELECT 1 FROM node WHERE phrase = ?", phrase))
        return self._nodes[phrase]

    def targets(self, phrase: str) -> Targets:
        """The paraphrases of exactly this source phrase, grouped by their first word (None
        for an empty one): (place in the table's order, paraphrase)."""
        found = self._emits.get(phrase)
        if found is None:
            rows = self._query("SELECT target FROM emit WHERE phrase = ? ORDER BY rowid", phrase)
            grouped: dict[str | None, list[tuple[int, tuple[str, ...]]]] = {}
            for order, (row,) in enumerate(rows):
                words = tuple(java_tokens(row))
                grouped.setdefault(words[0] if words else None, []).append((order, words))
            found = self._emits[phrase] = grouped
        return found


@cache
def lexicon() -> Lexicon:
    """The process's lexicon; the first call on a machine builds the cache file (~1 min)."""
    sources = [coco_file(JAR), coco_file(PARAPHRASES)]
    return Lexicon(built_file("meteor-en", sources, ".sqlite", _build))


@cache
def stemmer() -> Stemmer:
    return Stemmer()
