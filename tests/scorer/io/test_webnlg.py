"""WebNLG benchmark XML and the parallel / JSON / JSON Lines reference layouts: what is read,
and the message (file, line, rule) for what is refused."""

from __future__ import annotations

import pytest

from scorer.errors import InputError
from scorer.io import webnlg
from scorer.io.items import natural_key, subsets_by
from scorer.io.layouts import REFERENCE_LAYOUTS, read_json_lists, read_jsonl, read_parallel


def benchmark(*entries: str) -> bytes:
    return (
        "<benchmark>\n  <entries>\n" + "".join(entries) + "  </entries>\n</benchmark>\n"
    ).encode()


def entry(
    eid: str,
    triples: tuple[str, ...] = ("Aarhus | leaderName | Jacob_Bundsgaard",),
    lexes: tuple[str, ...] = ("The leader of Aarhus is Jacob Bundsgaard.",),
    category: str = "Airport",
) -> str:
    mtriples = "".join(f"<mtriple>{t}</mtriple>" for t in triples)
    lex = "".join(f'<lex comment="good" lid="Id{k}">{text}</lex>\n' for k, text in enumerate(lexes))
    return (
        f'    <entry category="{category}" eid="{eid}" size="{len(triples)}">\n'
        f"      <originaltripleset><otriple>ignored | x | y</otriple></originaltripleset>\n"
        f"      <modifiedtripleset>{mtriples}</modifiedtripleset>\n      {lex}    </entry>\n"
    )


def test_entries_come_in_natural_eid_order_with_their_triples_references_and_attributes():
    data = benchmark(
        entry("Id10", lexes=("ten",), category="Artist"),
        entry("Id2", ("A | b | C", "A | d | E &amp; F"), ("two", "deux")),
        entry("Id1", lexes=("one",)),
    )
    entries = webnlg.read_references(data, "test.xml")
    assert [e.eid for e in entries] == ["Id1", "Id2", "Id10"]
    assert entries[1].triples == (("A", "b", "C"), ("A", "d", "E & F"))
    assert entries[1].references == ("two", "deux")
    assert entries[1].input == "A | b | C || A | d | E & F"
    assert webnlg.delinearise(entries[1].input) == entries[1].triples
    items = webnlg.as_items(entries, webnlg.SEEN_CATEGORIES_2017)
    assert [item.attributes["seen"] for item in items] == ["seen", "seen", "unseen"]
    assert items[1].attributes == {"category": "Airport", "size": "2", "eid": "Id2", "seen": "seen"}
    assert subsets_by(items, "size") == {"1": [0, 2], "2": [1]}


def test_a_lex_holding_elements_gives_its_text_before_the_first_one_as_elementtree_does():
    data = benchmark(
        entry("Id1", lexes=("Text before<sortedtripleset><sentence/></sortedtripleset> after",))
    )
    assert webnlg.read_references(data, "x.xml")[0].references == ("Text before",)


def test_language_keeps_the_lex_elements_in_that_language_and_those_without_one():
    lexes = '<lex lid="Id1" lang="en">An English text.</lex><lex lid="Id2" lang="ru">Текст.</lex>'
    text = entry("Id1").replace(
        '<lex comment="good" lid="Id0">The leader of Aarhus is Jacob Bundsgaard.</lex>', lexes
    )
    assert webnlg.read_references(benchmark(text), "x.xml", language="ru")[0].references == (
        "Текст.",
    )
    untagged = entry("Id2", lexes=("Untagged.",))
    assert webnlg.read_references(benchmark(untagged), "x.xml", language="ru")[0].references == (
        "Untagged.",
    )


def russian_release() -> bytes:
    """As WebNLG 2020's Russian files: each entry's English text beside its Russian one."""
    lexes = '<lex lid="Id1" lang="en">An English text.</lex><lex lid="Id2" lang="ru">Текст.</lex>'
    return benchmark(
        entry("Id1").replace(
            '<lex comment="good" lid="Id0">The leader of Aarhus is Jacob Bundsgaard.</lex>', lexes
        )
    )


def test_a_file_in_two_languages_is_refused_unless_the_kind_says_which():
    with pytest.raises(InputError) as refused:
        webnlg.read_references(russian_release(), "ru.xml")
    assert str(refused.value) == (
        "ru.xml, line 6: has <lex> references in 2 languages (en, ru): the kind must say which "
        "are its references (the webnlg-xml reader's option language)"
    )


def test_an_english_kind_refuses_the_russian_release():
    with pytest.raises(InputError) as refused:
        webnlg.read_references(russian_release(), "ru.xml", language="en")
    assert str(refused.value) == (
        "ru.xml, line 6: has <lex lang='ru'> references: a file of the 'ru' task, not of the "
        "kind's language 'en' (the webnlg-xml reader's option language)"
    )


def test_an_empty_lang_is_english_as_in_the_2020_english_release():
    data = benchmark(entry("Id1").replace('<lex comment="good"', '<lex comment="good" lang=""'))
    (read,) = webnlg.read_references(data, "en.xml", language="en")
    assert read.references == ("The leader of Aarhus is Jacob Bundsgaard.",)
    with pytest.raises(InputError) as refused:
        webnlg.read_references(data, "en.xml", language="ru")
    assert str(refused.value) == (
        "en.xml, line 3: entry eid='Id1' has no <lex> reference in language 'ru' (the file's "
        '<lex> are in: en; lang="" (as in WebNLG 2020\'s English release) is read as English)'
    )


def test_test_inputs_need_no_references_but_a_reference_file_does():
    data = benchmark(entry("Id1"), entry("Id2", lexes=()))
    assert [e.references for e in webnlg.read_inputs(data, "in.xml")] == [
        ("The leader of Aarhus is Jacob Bundsgaard.",),
        (),
    ]
    with pytest.raises(InputError) as refused:
        webnlg.read_references(data, "refs.xml")
    assert str(refused.value) == "refs.xml, line 8: entry eid='Id2' has no <lex> reference"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<benchmark><entries><entry", "refs.xml, line 1: is not well-formed XML"),
        (
            benchmark(entry("Id1"), entry("Id1")),
            "line 8: entry eid='Id1' appears twice (first on line 3)",
        ),
        (
            benchmark(entry("Id1", triples=("A | b",))),
            "line 5: the triple 'A | b' is not 'subject | property | object'",
        ),
        (benchmark(entry("Id1", triples=("A | b || c | d",))), "holds '||'"),
        (benchmark(entry("Id1", triples=())), "line 3: entry eid='Id1' has no <mtriple>"),
        (benchmark(entry("Id1", lexes=(" ",))), "line 6: an empty <lex>"),
        (
            benchmark(entry("Id1").replace('size="1"', 'size="one"')),
            "line 3: entry size='one' is not a number",
        ),
        (
            benchmark(entry("Id1").replace(' eid="Id1"', "")),
            "line 3: an <entry> without the attribute(s) eid",
        ),
        (
            b'<!DOCTYPE b [<!ENTITY x "y">]><benchmark/>',
            "refs.xml, line 1: has a DOCTYPE declaration",
        ),
        (b"<benchmark><entries/></benchmark>", "refs.xml: has no <entry> elements"),
    ],
)
def test_bad_files_are_refused_naming_the_line_and_the_rule(data, message):
    with pytest.raises(InputError) as refused:
        webnlg.read_references(data, "refs.xml")
    assert message in str(refused.value)


def test_natural_order_sorts_numbers_inside_ids():
    assert sorted(["Id10", "Id2", "Id1", "Id100"], key=natural_key) == [
        "Id1",
        "Id2",
        "Id10",
        "Id100",
    ]


def test_categories_of_a_training_file_say_which_categories_are_seen():
    data = benchmark(entry("Id1", category="Food"), entry("Id2", category="City"))
    assert webnlg.categories(data, "train.xml") == {"Food", "City"}


def test_parallel_files_give_each_item_its_non_empty_lines_in_file_order():
    files = [
        ("reference0", b"a1\nb1\nc1\n"),
        ("reference1", b"a2\n\n \n"),
        ("reference2", b"\nb3\n\n"),
    ]
    items = read_parallel(files)
    assert [item.references for item in items] == [("a1", "a2"), ("b1", "b3"), ("c1",)]


def test_parallel_files_joined_by_line_breaks_keep_a_last_empty_line():
    """WebNLG+ 2020's reference3: the last item has no 4th reference, the file ends in a
    line break and is one line 'short'."""
    files = [("reference0", b"a1\nb1"), ("reference1", b"a2\n")]
    assert [item.references for item in read_parallel(files)] == [("a1", "a2"), ("b1",)]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            [("reference0", b"a\nb\nc\n"), ("reference1", b"a\n")],
            "reference1: has 1 lines where reference0 has 3",
        ),
        (
            [("reference0", b"a\n\nc\n"), ("reference1", b"a\n\nc\n")],
            "all reference files, line 2: is empty in every reference file",
        ),
        ([("reference0", b"a\n\xff\n")], "reference0, line 2: is not valid UTF-8"),
        ([], "no reference files given"),
    ],
)
def test_bad_parallel_files_are_refused(files, message):
    with pytest.raises(InputError) as refused:
        read_parallel(files)
    assert message in str(refused.value)


def test_json_lists_and_json_lines():
    data = b'[\n  ["a1", "a2"],\n  ["b1", ""]\n]\n'
    assert [item.references for item in read_json_lists(data, "refs.json")] == [
        ("a1", "a2"),
        ("b1",),
    ]
    lines = b'{"id": 1, "target": "a1"}\n{"id": 2, "target": ["b1", "b2"]}\n'
    assert [item.references for item in read_jsonl(lines, "refs.jsonl", "target")] == [
        ("a1",),
        ("b1", "b2"),
    ]
    layout = REFERENCE_LAYOUTS["jsonl"]([("refs.jsonl", lines)], field="target")
    assert len(layout) == 2


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'[\n  ["a"],\n  ["b", 3]\n]',
            "refs.json, line 3: item 2 is not a reference string or an array of them",
        ),
        (b'[\n  ["a"],\n  [""]\n]', "refs.json, line 3: item 2 holds no non-empty reference"),
        (
            b'[\n  ["a"]\n  ["b"]\n]',
            "refs.json, line 3: is not valid JSON here (expected ',' or ']'",
        ),
        (b'[\n  ["a", \n', "refs.json, line 3"),
        (b'{"a": 1}', "refs.json: is not a JSON array"),
        (b"[]", "refs.json: is an empty array"),
    ],
)
def test_bad_json_lists_are_refused_naming_the_line(data, message):
    with pytest.raises(InputError) as refused:
        read_json_lists(data, "refs.json")
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'{"target": "a"}\n{"tgt": "b"}\n',
            "refs.jsonl, line 2: has no field 'target' (fields: tgt)",
        ),
        (b'{"target": "a"}\n\n{"target": "b"}\n', "refs.jsonl, line 2: is empty"),
        (b'{"target": "a"}\n{"target": \n', "refs.jsonl, line 2: is not JSON"),
        (b'["a"]\n', "refs.jsonl, line 1: is not a JSON object"),
        (b'{"target": {"x": 1}}\n', "line 1: field 'target' is not a reference string"),
    ],
)
def test_bad_json_lines_are_refused_naming_the_line(data, message):
    with pytest.raises(InputError) as refused:
        read_jsonl(data, "refs.jsonl", "target")
    assert message in str(refused.value)
