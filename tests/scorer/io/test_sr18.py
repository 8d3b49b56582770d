"""SR'18 files: CoNLL-U inputs validated with tree and line named, and sentence files."""

import pytest

from scorer.errors import InputError
from scorer.io.conllu import read_trees
from scorer.io.sr18 import read_sentences
from scorer.kinds import get_profile

ROW = "{id}\t{form}\t_\tNOUN\t_\t_\t{head}\tdep\t_\t_"


def tree(*heads: int) -> str:
    return "\n".join(ROW.format(id=i, form=f"w{i}", head=h) for i, h in enumerate(heads, 1))


def conllu(*trees: str) -> bytes:
    return ("\n\n".join(trees) + "\n").encode()


def test_trees_in_file_order_with_scrambled_ids_and_crlf():
    data = conllu(
        "2\tcat\t_\tNOUN\t_\t_\t0\troot\t_\t_\n1\tthe\t_\tDET\t_\t_\t2\tdet\t_\t_",
        tree(0, 1, 1),
    ).replace(b"\n", b"\r\n")
    trees = read_trees(data)
    assert [t.lemmas for t in trees] == [["cat", "the"], ["w1", "w2", "w3"]]
    assert trees[1].first_line == 4


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (tree(0, 1) + "\n\n" + tree(0, 1).replace("\tdep\t_\t_", "\tdep\t_"), "tree 2: ex", 4),
        (
            tree(0, 1) + "\n\n" + tree(0, 1).replace("2\tw2", "3\tw2"),
            "tree 2: token ids must be 1..2",
            4,
        ),
        (tree(0, 0), "tree 1: expected a single root (head 0), found 2", 1),
        (tree(2, 1), "found 0", 1),
        (tree(0, 3), "head '3' of token 2 is not in 0..2", 2),
        (tree(0, 2), "token 2 is its own head", 2),
        (tree(0, 1).replace("2\tw2", "1-2\tw2"), "is not a positive integer", 2),
        ("", "contains no CoNLL-U tree", None),
    ],
)
def test_invalid_trees_are_refused_naming_tree_and_line(text, message, line):
    with pytest.raises(InputError) as error:
        read_trees(conllu(text), "en.conll")
    assert message in str(error.value)
    assert error.value.filename == "en.conll"
    assert error.value.line == line


def test_sentences_from_text_blocks_or_plain_lines():
    blocks = b"# sent_id = 1\n# text = The cat.\n\n# newdoc id = x\n# text =  A dog .\n"
    assert read_sentences(blocks) == ["The cat.", "A dog ."]
    assert read_sentences(b"The cat.\nA dog .\n") == ["The cat.", "A dog ."]
    assert read_sentences(b"# sent_id = 1\n# text =\n") == [""]


UD_CONLLU = (
    "# newdoc id = weblog-1\r\n# sent_id = weblog-1-0001\r\n# text = Al-Zaman : American forces.\r\n"
    "1\tAl\tAl\tPROPN\tNNP\tNumber=Sing\t0\troot\t0:root\tSpaceAfter=No\r\n"
    "2-3\tdel\t_\t_\t_\t_\t_\t_\t_\t_\r\n"
    "4.1\tforces\tforce\tNOUN\tNNS\tNumber=Plur\t_\t_\t1:obj\t_\r\n"
    "\r\n"
    "# sent_id = weblog-1-0002\r\n# text = They killed él.\r\n# text_en = They killed him.\r\n"
    "1\tThey\tthey\tPRON\tPRP\t_\t2\tnsubj\t2:nsubj\t_\r\n\r\n"
).encode()


def test_full_conllu_files_read_their_text_lines_only():
    """UD treebank files and SR'19/'20 outputs: comments, token lines, multiword and empty
    nodes; only '# text =' counts, as in the official scorer (BOM and CRLF as usual)."""
    assert read_sentences(UD_CONLLU) == ["Al-Zaman : American forces.", "They killed él."]
    assert read_sentences(b"\xef\xbb\xbf" + UD_CONLLU.replace(b"\r\n", b"\n")) == [
        "Al-Zaman : American forces.",
        "They killed él.",
    ]
    profile = get_profile("sr18")
    refs = profile.read_references(UD_CONLLU, "en-ud-test.conllu")
    outputs = profile.read_outputs(UD_CONLLU, ["t1", "t2"], "en_out.conllu")
    plain = profile.read_outputs(
        "Al-Zaman : American forces.\nThey killed él.\n".encode(), ["t1", "t2"], "o.txt"
    )
    assert outputs == plain
    scores = {s.metric: s.value for s in profile.score(outputs, [r.references for r in refs])}
    assert scores["DIST"] == pytest.approx(100.0)


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"# text = a\n# text = b\n", "two '# text = ' lines", 2),
        (b"# text = a\n\n# sent_id = 2\n", "no '# text = ' line", 3),
        (b"# text = a\nplain line\n", "a line that is neither", 2),
        (b"# text = a\n1\ta\t_\n", "a line that is neither", 2),
    ],
)
def test_malformed_sentence_blocks(data, message, line):
    """Refused where a sentence would be silently skipped; token lines are not such lines."""
    with pytest.raises(InputError, match=message) as error:
        read_sentences(data, "en_out.txt")
    assert error.value.line == line
