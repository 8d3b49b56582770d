"""DRS inputs: PMB 3 clause format with .raw sentences and PMB 5 SBN, on the real dev data, and
the errors that name the block of a broken input."""

import pytest

from scorer.errors import InputError
from scorer.io import drs
from tests.support.paths import DEMO_DATA, drs_file

CLAUSES = DEMO_DATA / "drs" / "test.txt"
SENTENCES = DEMO_DATA / "drs" / "test.txt.raw"


def test_real_pmb3_dev_clause_file_pairs_885_blocks_with_their_sentences():
    items = drs.read_test_set(
        drs_file("pmb3.0.0_en_clf/gold/dev.txt").read_bytes(),
        "dev.txt",
        drs_file("pmb3.0.0_en_clf/gold/dev.txt.raw").read_bytes(),
        "dev.txt.raw",
    )
    assert len(items) == 885
    first = items[0]
    assert first.text == "Tom was carrying a bucket of water."
    assert first.header_sentence == "ø Tom was carrying a bucket of ø water ."
    assert first.drs.splitlines()[:2] == ["b1 REF x1", 'b1 Name x1 "tom"']
    # What systems get carries neither the sentence nor the token comments.
    assert all("%" not in item.drs and "[" not in item.drs for item in items)
    # Every header sentence finds its own reference: the challenge-set pairing key holds.
    assert all(drs.sentence_key(i.header_sentence) == drs.sentence_key(i.text) for i in items)


@pytest.mark.parametrize(
    "name, count",
    [
        ("pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn", 1132),
        ("pmb5.0.0_en_sbn/split/dev/standard.sbn", 1132),
        ("pmb5.0.0_en_sbn/seq2seq/train/gold.sbn", 9057),
        ("pmb5.1.0_en_sbn/seq2seq/dev/standard.sbn", 1195),
    ],
)
def test_real_pmb5_sbn_files_in_both_layouts(name, count):
    items = drs.read_test_set(drs_file(name).read_bytes(), name)
    assert len(items) == count
    assert all(item.text and item.drs for item in items)


def test_both_sbn_layouts_give_the_same_items():
    tabbed = drs.read_sbn_file(drs_file("pmb5.0.0_en_sbn/seq2seq/dev/standard.sbn").read_bytes())
    blocks = drs.read_sbn_file(drs_file("pmb5.0.0_en_sbn/split/dev/standard.sbn").read_bytes())
    assert [(i.text, i.drs) for i in tabbed] == [(i.text, i.drs) for i in blocks]
    assert blocks[0].document == "p05/d2020"
    assert blocks[0].drs == "person.n.01 EQU speaker win.v.01 Agent -1 Time +1 time.n.08 TPR now"


def test_demo_clause_file_reads_without_the_shared_data():
    items = drs.read_test_set(CLAUSES.read_bytes(), "test.txt", SENTENCES.read_bytes())
    assert [i.text for i in items] == [
        "Anna reads a book.",
        "The dog slept.",
        "Tom has two cats.",
        "It is raining.",
    ]


def _clauses(*lines: str) -> bytes:
    return ("%%% a\n%%% b\n%%% It rains .\n" + "\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    "clause, message",
    [
        ("b1 REF", "has 2 fields"),
        ('b1 rain "v.01" e1 x1', "has 5 fields"),
        ("x1 REF e1", "first field must be a box name"),
        ("b1 REF now", "takes exactly one variable"),
        ("b1 NEGATION x2", "takes a box"),
        ('b1 rain "v01" e1', 'quoted like "n.02"'),
        ('b1 rain "v.01" "e1"', "concept's variable"),
        ("b1 Agent e1 speaker", "arguments are variables"),
    ],
)
def test_a_broken_clause_is_refused_naming_block_and_line(clause, message):
    data = _clauses("b1 REF e1", 'b1 rain "v.01" e1') + b"\n" + _clauses("b1 REF e1", clause)
    with pytest.raises(InputError) as caught:
        drs.read_clause_file(data, "test.txt")
    text = str(caught.value)
    assert text.startswith("test.txt, line 11: DRS block 2: clause")
    assert message in text


def test_quoted_constants_keep_spaces_and_percent_signs():
    items = drs.read_clause_file(_clauses('b1 Name x1 "new york"  % New York [0...8]', "b1 REF x1"))
    assert items[0].drs == 'b1 Name x1 "new york"\nb1 REF x1'


def test_clause_file_needs_its_sentences_and_the_same_count():
    with pytest.raises(InputError, match=r"give the \.raw file"):
        drs.read_test_set(CLAUSES.read_bytes(), "test.txt")
    with pytest.raises(InputError, match=r"has 3 sentences but test\.txt has 4 DRS blocks"):
        drs.read_test_set(CLAUSES.read_bytes(), "test.txt", b"a\nb\nc\n", "test.raw")
    with pytest.raises(InputError, match=r"test\.raw, line 2: empty sentence"):
        drs.read_test_set(CLAUSES.read_bytes(), "test.txt", b"a\n\nc\nd\n", "test.raw")


@pytest.mark.parametrize(
    "sbn, message",
    [
        ("dog.n.01 Colour +1", "points to node 2, but there are 1 nodes"),
        ("dog.n.01 bark.v.01 Agent -2", "points to node 0, but there are 2 nodes"),
        ("NEGATION <1", "has no node"),
    ],
)
def test_sbn_node_indices_must_land_on_a_node(sbn, message):
    data = f"A dog.\tdog.n.01\nIt barks.\t{sbn}\n".encode()
    with pytest.raises(InputError) as caught:
        drs.read_sbn_file(data, "x.sbn")
    assert str(caught.value).startswith("x.sbn, line 2: SBN item 2:")
    assert message in str(caught.value)


def test_sbn_layout_errors_name_the_line():
    with pytest.raises(InputError, match="line 2: expected 'text<TAB>SBN'"):
        drs.read_sbn_file(b"A dog.\tdog.n.01\nno tab here dog.n.01\n", "x.sbn")
    with pytest.raises(InputError, match="SBN block 2 has 2 lines; expected 3"):
        drs.read_sbn_file(b"p1/d1\nA dog.\ndog.n.01\n\np1/d2\nA cat.\n\n", "x.sbn")


def test_sentence_key_bridges_boxer_tokens_and_raw_text():
    assert drs.sentence_key("ø Tom 's hair is chestnut~brown .") == drs.sentence_key(
        "Tom's hair is chestnut brown."
    )
    assert drs.sentence_key('ø Mary took the " morning~after~pill .') == drs.sentence_key(
        'Mary took the "morning after" pill.'
    )
    assert drs.sentence_key("Tom left .") != drs.sentence_key("Tom stayed.")
