import pytest

from scorer.errors import InputError
from scorer.io.e2e import read_dataset_csv, read_grouped_references, read_inputs_csv, read_outputs
from scorer.profiles import get_profile
from tests.support.paths import e2e_file

CSV = (
    b"mr,ref\r\n"
    b'"name[A], food[French]",A serves French food.\r\n'
    b'"name[B], area[riverside]","B is by the river, near the bridge."\r\n'
    b'"name[A], food[French]","French food, at A."\r\n'
    b'"name[A], food[French]","Multi\r\nline"\r\n'
)


def test_references_are_grouped_per_mr_in_first_appearance_order():
    items = read_dataset_csv(CSV)
    assert [item.input for item in items] == ["name[A], food[French]", "name[B], area[riverside]"]
    assert items[0].references == ("A serves French food.", "French food, at A.", "Multi\nline")
    assert items[1].references == ("B is by the river, near the bridge.",)


def test_lf_and_crlf_csv_read_the_same():
    assert read_dataset_csv(CSV) == read_dataset_csv(CSV.replace(b"\r\n", b"\n"))


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"mr,text\nx,y\n", "expected a header row 'mr,ref'", 1),
        (b"mr,ref\nx,y,z\n", "expected 2 fields", 2),
        (b'mr,ref\n"name[A]",\n', "empty reference", 2),
        (b"mr,ref\n", "contains no references", None),
    ],
)
def test_bad_reference_csv_names_the_line(data, message, line):
    with pytest.raises(InputError, match=message) as error:
        read_dataset_csv(data, "refs.csv")
    assert error.value.line == line


def test_real_devset_has_547_mrs_and_4672_references():
    items = read_dataset_csv(e2e_file("devset.csv").read_bytes())
    assert len(items) == 547
    assert sum(len(item.references) for item in items) == 4672


def test_shuffled_trainset_is_grouped_by_mr_not_by_adjacency():
    items = read_dataset_csv(e2e_file("trainset.csv").read_bytes())
    assert len(items) == 4862
    assert sum(len(item.references) for item in items) == 42061


def test_test_inputs_csv():
    assert len(read_inputs_csv(e2e_file("testset_inputs.csv").read_bytes())) == 630


def test_grouped_plain_text_references():
    groups = read_grouped_references(b"a1\na2\n\nb1\n\n\nc1\n")
    assert groups == [["a1", "a2"], ["b1"], ["c1"]]


def test_outputs_tsv_and_plain_text():
    assert read_outputs(b"MR\toutput\nname[A]\tHello .\n") == (["Hello ."], ["name[A]"])
    assert read_outputs(b"one\n\nthree\n") == (["one", "", "three"], None)


def test_tsv_line_without_tab_is_refused():
    with pytest.raises(InputError, match="line 3: expected 'MR<TAB>output'"):
        read_outputs(b"MR\toutput\nname[A]\tok\nno tab here\n", "out.tsv")


def test_profile_checks_count_and_mr_order():
    profile = get_profile("e2e")
    inputs = ["name[A]", "name[B]"]
    assert profile.read_outputs(b"x  y \ny\n", inputs, "o.txt") == ["x y", "y"]
    with pytest.raises(InputError, match="expected 2 outputs .* found 3"):
        profile.read_outputs(b"x\ny\nz\n", inputs, "o.txt")
    with pytest.raises(InputError, match="expected 2 outputs .* found 1"):
        profile.read_outputs(b"x\n", inputs, "o.txt")
    with pytest.raises(InputError) as error:
        profile.read_outputs(b"MR\toutput\nname[A]\tx\nname[C]\ty\n", inputs, "o.tsv")
    assert error.value.line == 3
    assert "does not match test MR 2" in str(error.value)
