"""The METEOR lexicon's build (``scorer.meteor.resources._build``) gives the same lookups as the
build it replaced, kept here as the reference: the paraphrase table read line by line through
a text stream, every line tidied into its StringTokenizer tokens (about 20 s for the whole
table, against about 4 s now). Checked on samples of the real table and on made-up tables with
everything the fast path must notice (tabs, runs of spaces, CR line ends, a source phrase run
cut by a block's end, an entry cut short), read in blocks small enough to cut every run; the
whole table is compared row by row in a slow test.

And the first build on a machine says what it builds, where and roughly how long it takes,
once: a process that finds the file built says nothing."""

from __future__ import annotations

import functools
import gzip
import os
import sqlite3
from pathlib import Path

import pytest

from scorer import cache
from scorer.java.jars import coco_file
from scorer.meteor import resources
from scorer.meteor.normalizer import java_tokens
from scorer.meteor.resources import Lexicon

SAMPLE_ENTRIES = 6000


def reference_rows(table: Path) -> dict[str, str | None]:
    """The replaced build's paraphrase rows: phrase -> its paraphrases joined by newlines,
    ``None`` for a phrase that is only the prefix of others."""
    rows: dict[str, str | None] = {}
    prefixes: set[str] = set()
    current: str | None = None
    targets: list[str] = []
    with gzip.open(table, "rt", encoding="utf-8") as stream:
        for _probability in stream:
            source = java_tokens(next(stream, ""))
            phrase = " ".join(source)
            if phrase != current:
                if current is not None:
                    rows[current] = "\n".join(targets)
                current, targets = phrase, []
                prefixes.update(" ".join(source[:n]) for n in range(1, len(source)))
            targets.append(" ".join(java_tokens(next(stream, ""))))
    if current is not None:
        rows[current] = "\n".join(targets)
    for prefix in prefixes - rows.keys():
        rows[prefix] = None
    return rows


def built_rows(table: Path, chunk: int) -> dict[str, str | None]:
    """The new build's rows (prefix rows included), read in blocks of ``chunk`` bytes."""
    rows: dict[str, str | None] = {}
    for block in resources._paraphrase_blocks(table, chunk):
        for phrase, targets in block:
            assert phrase not in rows, f"{phrase!r} in two runs"
            rows[phrase] = targets
    for prefix in resources._prefixes(set(rows)) - rows.keys():
        rows[prefix] = None
    return rows


def words(rows: dict[str, str | None]) -> dict[str, list[tuple[str, ...]] | None]:
    """What ``Lexicon.paraphrases`` makes of each row: every paraphrase's words."""
    return {
        phrase: None if targets is None else [tuple(line.split()) for line in targets.split("\n")]
        for phrase, targets in rows.items()
    }


def write_table(path: Path, text: str | bytes) -> Path:
    with gzip.open(path, "wb") as stream:
        stream.write(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@functools.cache
def real_sample(first: int, entries: int) -> bytes:
    """``entries`` whole entries of the real table from entry number ``first`` on."""
    start, end = 3 * first, 3 * (first + entries)
    lines: list[bytes] = []
    seen, rest = 0, b""
    with gzip.open(coco_file(resources.PARAPHRASES), "rb") as stream:
        while seen < end and (block := stream.read(1 << 20)):
            block = rest + block
            cut = block.rfind(b"\n") + 1
            block, rest = block[:cut], block[cut:]
            count = block.count(b"\n")
            if seen + count > start:
                lines += block.split(b"\n")[max(0, start - seen) : end - seen]
            seen += count
    return b"".join(line + b"\n" for line in lines)


@pytest.mark.parametrize("skip", [0, 2_000_000, 5_274_084 - SAMPLE_ENTRIES])
@pytest.mark.parametrize("chunk", [97, 4096, resources.CHUNK])
def test_samples_of_the_real_table_give_the_rows_of_the_replaced_build(tmp_path, skip, chunk):
    """The start, the middle and the end of the table (whose lines are already tidy: the rows
    are the same strings, not only the same words)."""
    table = write_table(tmp_path / "sample.gz", real_sample(skip, SAMPLE_ENTRIES))
    assert built_rows(table, chunk) == reference_rows(table)


UNTIDY = [
    "0.5\nthe  city\ncentre\n0.4\nthe city\ntown  centre \n",  # two spaces: one phrase
    "0.5\n\tan\tarea \nneighbourhood\n0.1\nan area\n\fdistrict\n",  # tab, form feed, end space
    "0.2\r\ncity centre\r\ntown\r\n0.1\rcity centre\rdowntown\r",  # CR LF and lone CR line ends
    "0.3\n\n\n0.2\n \nnothing\n",  # an empty and a blank source and paraphrase
    "0.9\ncafé au lait\ncoffee with milk\n0.8\ncafé\ncoffee shop\n",  # beyond ASCII
    "0.1\nlast one\ncut\n0.2\nlast one",  # an entry cut short, no final line end
]


@pytest.mark.parametrize("text", UNTIDY)
@pytest.mark.parametrize("chunk", [1, 7, 64, resources.CHUNK])
def test_untidy_tables_give_the_words_of_the_replaced_build(tmp_path, text, chunk):
    """Source phrases tidied into the same keys; paraphrases kept as they are, which
    ``Lexicon.paraphrases`` splits into the same words."""
    clean = "0.7\nand the city\nand town\n0.6\nand the city\nplus town\n" * 5
    after = clean.replace("and", "or") if text.endswith(("\n", "\r")) else ""  # else the end
    table = write_table(tmp_path / "table.gz", clean + text + after)
    expected = reference_rows(table)
    found = built_rows(table, chunk)
    assert found.keys() == expected.keys()
    assert words(found) == words(expected)


def test_a_built_lexicon_answers_as_the_replaced_builds_contents(tmp_path):
    """Through ``Lexicon``: every phrase, a prefix, a missing word; and the synonyms."""
    sample = real_sample(3_000_000, 3000) + UNTIDY[0].encode()
    table = write_table(tmp_path / "sample.gz", sample)
    resources._build(tmp_path / "lexicon.sqlite", table)
    lexicon = Lexicon(tmp_path / "lexicon.sqlite")
    expected = reference_rows(table)
    reference_file = tmp_path / "reference.sqlite"
    with sqlite3.connect(reference_file) as connection:
        connection.execute("CREATE TABLE paraphrase (phrase TEXT PRIMARY KEY, targets TEXT)")
        connection.executemany("INSERT INTO paraphrase VALUES (?, ?)", expected.items())
    reference = Lexicon(reference_file)
    for phrase in [*expected, "no such phrase", ""]:
        assert lexicon.paraphrases(phrase) == reference.paraphrases(phrase), phrase
    assert lexicon.synsets("dog") == resources.lexicon().synsets("dog") is not None
    assert lexicon.bases("went") == resources.lexicon().bases("went") == ("go",)


@pytest.mark.slow
@pytest.mark.exhaustive  # the samples above run in make test; the whole table in make test-all
def test_the_whole_built_lexicon_holds_the_replaced_builds_rows(tmp_path):
    """Every paraphrase row of a new build, as the replaced build made them (built here: the
    machine's cache file, of the same name, may have been built by the replaced code)."""
    expected = reference_rows(coco_file(resources.PARAPHRASES))
    resources._build(tmp_path / "lexicon.sqlite")
    with sqlite3.connect(tmp_path / "lexicon.sqlite") as connection:
        found = dict(connection.execute("SELECT phrase, targets FROM paraphrase"))
    assert len(found) == len(expected) == 438_644
    assert found == expected


def test_the_first_build_says_what_it_builds_where_and_how_long_it_takes(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("NLGBOARD_CACHE", str(tmp_path))
    monkeypatch.setattr(os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    source = tmp_path / "resource.txt"
    source.write_text("data")

    def build(target: Path) -> None:
        target.write_text("built")

    first = cache.built_file("thing", [source], ".bin", build, "the thing's table", 4)
    assert capsys.readouterr().err == (
        f"nlgboard: building the thing's table in {tmp_path} "
        "(first run on this machine, about 4 s)...\n"
    )
    assert cache.built_file("thing", [source], ".bin", build, "the thing's table", 4) == first
    assert capsys.readouterr().err == ""  # built: nothing to say
    cache.built_file("quick", [source], ".bin", build)
    assert capsys.readouterr().err == ""  # not worth a line


def test_the_time_said_is_stretched_by_the_load(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "getloadavg", lambda: (5.0, 4.0, 3.0))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    cache.announce_build("the thing's table", tmp_path, 4)
    assert "(first run on this machine, about 10 s)..." in capsys.readouterr().err


def test_the_lexicon_announces_itself(monkeypatch):
    announced = {}
    path = resources.lexicon().path

    def built_file(name, sources, suffix, build, what=None, seconds=None):
        announced.update(what=what, seconds=seconds)
        return path

    monkeypatch.setattr(resources, "built_file", built_file)
    resources.lexicon.cache_clear()
    try:
        resources.lexicon()
    finally:
        resources.lexicon.cache_clear()
    assert "METEOR" in announced["what"] and 1 <= announced["seconds"] <= 10
