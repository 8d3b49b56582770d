"""Property-based tests (hypothesis) of every reader of uploaded or imported files: whatever
the bytes, a reader returns or raises ``InputError`` (a message for a person), never another
exception (an HTTP 500); and well-formed files read back what was written."""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.errors import InputError
from scorer.human import judgements
from scorer.io import conllu, drs, e2e, sr18
from scorer.kinds import get_profile
from scorer.semantics.e2e_slots import parse_mr

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = "ab,;\"'[]|%\t\n\r =<>é\x00\ufeff0123456789.-_:#"
tricky_text = st.text(alphabet=st.sampled_from(TRICKY), max_size=300)
any_input = st.one_of(st.binary(max_size=600), tricky_text.map(lambda t: t.encode("utf-8")))

READERS = {
    "e2e dataset csv": lambda data: e2e.read_dataset_csv(data, "refs.csv"),
    "e2e inputs csv": lambda data: e2e.read_inputs_csv(data, "inputs.csv"),
    "e2e outputs": lambda data: e2e.read_outputs(data, "out.txt"),
    "e2e grouped references": lambda data: e2e.read_grouped_references(data, "refs.txt"),
    "conll-u": lambda data: conllu.read_trees(data, "in.conllu"),
    "sr18 sentences": lambda data: sr18.read_sentences(data, "s.txt"),
    "drs clauses": lambda data: drs.read_clause_file(data, "d.txt"),
    "drs sbn": lambda data: drs.read_sbn_file(data, "d.sbn"),
    "drs test set": lambda data: drs.read_test_set(data, "d.txt", data, "d.raw"),
    "rankme ratings": lambda data: judgements.read_ratings(data, "r.csv"),
    "long judgements": lambda data: judgements.read_judgements(data, "j.csv"),
    "e2e profile outputs": lambda data: get_profile("e2e").read_outputs(
        data, ["name[A]", "name[B]"], "o.txt"
    ),
    "sr18 profile outputs": lambda data: get_profile("sr18").read_outputs(data, ["t1", "t2"], "o"),
    "drs profile outputs": lambda data: get_profile("drs").read_outputs(data, ["d1", "d2"], "o"),
}


def only_input_errors(reader, data: bytes) -> None:
    try:
        reader(data)
    except InputError as error:
        assert str(error)


@FAST
@given(data=any_input)
def test_every_reader_returns_or_says_what_is_wrong(data):
    for reader in READERS.values():
        only_input_errors(reader, data)


@FAST
@given(rows=st.lists(tricky_text, max_size=12))
def test_csv_shaped_input_reaches_deeper_and_still_fails_cleanly(rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["mr", "ref"])
    for row in rows:
        writer.writerow(row.split(",")[:3])
    data = buffer.getvalue().encode("utf-8")
    for name in ("e2e dataset csv", "e2e inputs csv", "rankme ratings", "long judgements"):
        only_input_errors(READERS[name], data)


slot_name = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", min_size=1, max_size=10)
slot_value = st.text(alphabet="abcdefghijklmnopqrstuvwxyz £-0123456789'&", max_size=20).map(
    str.strip
)
mrs = st.lists(st.tuples(slot_name, slot_value), min_size=1, max_size=8)
sentences = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ,.\"'£é", min_size=1, max_size=80).filter(
    lambda s: s.strip()
)


@FAST
@given(slots=mrs)
def test_mr_strings_read_back_slot_by_slot(slots):
    text = ", ".join(f"{name}[{value}]" for name, value in slots)
    assert parse_mr(text) == [(name, value) for name, value in slots]


@FAST
@given(
    items=st.lists(
        st.tuples(mrs, st.lists(sentences, min_size=1, max_size=4)), min_size=1, max_size=6
    )
)
def test_dataset_csv_groups_every_reference_under_its_mr(items):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["mr", "ref"])
    expected: dict[str, list[str]] = {}
    for slots, refs in items:
        mr = ", ".join(f"{name}[{value}]" for name, value in slots)
        for ref in refs:
            writer.writerow([mr, ref])
            expected.setdefault(mr.strip(), []).append(ref.strip())
    read = e2e.read_dataset_csv(buffer.getvalue().encode("utf-8"))
    assert {item.input: list(item.references) for item in read} == expected


@st.composite
def trees(draw) -> str:
    size = draw(st.integers(1, 12))
    root = draw(st.integers(1, size))
    rows = []
    for token in range(1, size + 1):
        head = (
            0
            if token == root
            else draw(st.sampled_from([t for t in range(1, size + 1) if t != token]))
        )
        word = draw(st.text(alphabet="abcdefghij", min_size=1, max_size=6))
        rows.append(f"{token}\t{word}\t{word}\tNOUN\t_\t_\t{head}\tdep\t_\t_")
    return "\n".join(rows)


@FAST
@given(blocks=st.lists(trees(), min_size=1, max_size=5))
def test_conllu_trees_read_back_one_item_per_block(blocks):
    data = ("\n\n".join(blocks) + "\n").encode()
    try:
        read = conllu.read_trees(data)
    except InputError as error:  # heads may form a cycle: refused with the tree named
        assert "tree" in str(error)
        return
    assert [tree.text for tree in read] == blocks


@FAST
@given(lines=st.lists(sentences, min_size=1, max_size=20))
def test_plain_sentences_read_back_line_by_line(lines):
    data = ("\n".join(lines) + "\n").encode()
    assert sr18.read_sentences(data) == [line.strip() for line in lines]


@FAST
@given(
    rows=st.lists(
        st.tuples(
            st.integers(1, 50),
            st.sampled_from(["sysA", "sysB", "sysC"]),
            st.sampled_from(["w1", "w2"]),
            st.integers(0, 100),
        ),
        min_size=1,
        max_size=30,
        unique_by=lambda row: row[:3],
    )
)
def test_long_judgement_csv_reads_back_every_score(rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["item", "system", "annotator", "criterion", "score"])
    for item, system, annotator, score in rows:
        writer.writerow([item, system, annotator, "quality", score])
    read = judgements.read_judgements(buffer.getvalue().encode(), "j.csv")
    assert sorted((int(j.item), j.system, j.annotator, j.score) for j in read) == sorted(rows)
