import pytest

from scorer.errors import InputError
from scorer.io.e2e import (
    read_dataset_csv,
    read_grouped_references,
    read_inputs_csv,
    read_outputs,
    read_references,
)
from scorer.kinds import get_profile
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
    # The E2E script strips every line before the csv module sees it: a line break inside a
    # quoted field disappears (two training references read so).
    assert items[0].references == ("A serves French food.", "French food, at A.", "Multiline")
    assert items[1].references == ("B is by the river, near the bridge.",)


def test_lf_and_crlf_csv_read_the_same():
    assert read_dataset_csv(CSV) == read_dataset_csv(CSV.replace(b"\r\n", b"\n"))


@pytest.mark.parametrize(
    ("data", "message", "line"),
    [
        (b"mr,text\nx,y\n", "must name exactly one MR column .* found 1 MR and 0 reference", 1),
        (b"mr,ref\nx,y,z\n", "3 fields where the header has 2", 2),
        (b"mr,ref\n\n\nx\n", "1 fields where the header has 2 .is a tab or a quote missing", 4),
        (b'mr,ref\n"name[A]",\n', "empty reference", 2),
        (b"mr,ref\n", "contains no references", None),
        (b"mr,mr2,ref\nx,y,z\n", "found 2 MR and 1 reference", 1),
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
    assert read_inputs_csv(b'\xef\xbb\xbf"MR"\r\n"name[A], area[riverside]"\r\n') == [
        "name[A], area[riverside]"
    ]


def test_grouped_plain_text_references():
    groups = read_grouped_references(b"a1\na2\n\nb1\n\n\nc1\n")
    assert groups == [["a1", "a2"], ["b1"], ["c1"]]
    # no blank line at all: one reference per line and item, as the E2E script reads it
    assert read_grouped_references(b"a1\nb1\nc1\n") == [["a1"], ["b1"], ["c1"]]


OFFICIAL_TEST_REFS = (
    b'"mr","ref"\n'
    b'"name[Blue Spice], eatType[coffee shop], area[city centre]","A coffee shop, Blue Spice."\n'
    b'"name[Blue Spice], eatType[coffee shop], area[city centre]","Blue Spice is central."\n'
    b'"name[Cotto], area[riverside]","Cotto is by the river."\n'
)


@pytest.mark.parametrize(
    "data",
    [
        OFFICIAL_TEST_REFS,
        OFFICIAL_TEST_REFS.replace(b"\n", b"\r\n"),
        b"\xef\xbb\xbf" + OFFICIAL_TEST_REFS,
        OFFICIAL_TEST_REFS.replace(b'"mr","ref"', b"MR,Reference"),
        OFFICIAL_TEST_REFS.replace(b'"mr","ref"', b'"meaning representation","human reference"'),
        OFFICIAL_TEST_REFS.replace(b'"mr","ref"', b"src\ttarget").replace(b'","', b'"\t"'),
    ],
    ids=["quoted-header", "crlf", "bom", "mr-reference", "long-names", "tsv-src-target"],
)
def test_reference_tables_in_every_layout_the_script_reads(data):
    items = read_references(data, "testset_w_refs.csv")
    assert [len(item.references) for item in items] == [2, 1]
    assert items[0].input == "name[Blue Spice], eatType[coffee shop], area[city centre]"
    assert items[1].references == ("Cotto is by the river.",)


def test_a_csv_never_silently_becomes_plain_text():
    headerless = OFFICIAL_TEST_REFS.split(b"\n", 1)[1]
    for name in ("refs.csv", "refs.txt"):
        with pytest.raises(InputError, match="not a header naming an MR column") as error:
            read_references(headerless, name)
        assert error.value.line == 1
    with pytest.raises(InputError, match="not a header"):
        read_references(b"a,b\nc,d\n", "refs.csv")
    plain = read_references(b"First ref.\nSecond ref.\n\nThird ref.\n", "refs.txt")
    assert [item.references for item in plain] == [("First ref.", "Second ref."), ("Third ref.",)]


PUBLISHED_MR = "name[Blue Spice], eatType[coffee shop], area[city centre]"


@pytest.mark.parametrize(
    ("data", "output"),
    [
        (b'MR\toutput\n"' + PUBLISHED_MR.encode() + b'"\tBlue Spice is a coffee shop.\n', None),
        (
            PUBLISHED_MR.encode().join([b"mr\toutput\r\n", b"\tBlue Spice is a coffee shop.\r\n"]),
            None,
        ),
        (
            b"\xef\xbb\xbfMR\toutput\r\r\n"
            + PUBLISHED_MR.encode()
            + b"\tBlue Spice is a coffee shop.  \r\r\n",
            None,
        ),
        (
            b"MR\toutput\n'" + PUBLISHED_MR.encode() + b"'\t'Blue Spice is a coffee shop.'\n",
            "'Blue Spice is a coffee shop.'",
        ),
        (b'"MR","output"\n"' + PUBLISHED_MR.encode() + b'",Blue Spice is a coffee shop.\n', None),
        (
            b"src\tsystem output\n" + PUBLISHED_MR.encode() + b"\tBlue Spice is a coffee shop.\n",
            None,
        ),
        (
            b"'MR'\t'output'\n'" + PUBLISHED_MR.encode() + b"'\t'Blue Spice is a coffee shop.'\n",
            "'Blue Spice is a coffee shop.'",
        ),
    ],
    ids=[
        "quoted-mr",
        "bare-crlf",
        "bom-rrn-trailing-spaces",
        "single-quotes",
        "csv",
        "src-sysout",
        "single-quoted-header",
    ],
)
def test_output_tables_in_the_published_layouts(data, output):
    outputs, mrs = read_outputs(data, "output.tsv")
    assert outputs == [output or "Blue Spice is a coffee shop."]
    assert mrs is not None and mrs[0].strip("'") == PUBLISHED_MR
    assert get_profile("e2e").read_outputs(data, [PUBLISHED_MR], "output.tsv") == [
        "Blue Spice is a coffee shop."
    ]


def test_outputs_tsv_and_plain_text():
    assert read_outputs(b"MR\toutput\nname[A]\tHello .\n") == (["Hello ."], ["name[A]"])
    assert read_outputs(b"one\n\nthree\n") == (["one", "", "three"], None)
    # The table fixes belong to tables: plain text keeps its characters, as in the script.
    assert read_outputs("costs Â£20\n".encode()) == (["costs Â£20"], None)
    assert read_outputs("MR\toutput\nname[A]\tcosts Â£20\n".encode())[0] == ["costs £20"]


def test_tsv_line_without_tab_is_refused():
    with pytest.raises(InputError, match="line 3: 1 fields where the header has 2"):
        read_outputs(b"MR\toutput\nname[A]\tok\nno tab here\n", "out.tsv")
    with pytest.raises(InputError, match="not a header naming an MR column"):
        read_outputs(b"name[A]\tok\n", "out.tsv")


def test_profile_checks_count_and_mr_order():
    profile = get_profile("e2e")
    inputs = ["name[A]", "name[B]"]
    assert profile.read_outputs(b"x  y \ny\n", inputs, "o.txt") == ["x y", "y"]
    with pytest.raises(InputError, match=r"expected 2 outputs .* found 3"):
        profile.read_outputs(b"x\ny\nz\n", inputs, "o.txt")
    with pytest.raises(InputError, match=r"expected 2 outputs .* found 1"):
        profile.read_outputs(b"x\n", inputs, "o.txt")
    with pytest.raises(InputError) as error:
        profile.read_outputs(b"MR\toutput\nname[A]\tx\nname[C]\ty\n", inputs, "o.tsv")
    assert error.value.line == 3
    assert "differs from test MR 2" in str(error.value)


LONG_MRS = [
    "name[The Eagle], eatType[coffee shop], food[Japanese], priceRange[less than £20], "
    "customer rating[low], area[riverside], familyFriendly[yes], near[Burger King]",
    "name[The Eagle], eatType[coffee shop], food[Japanese], priceRange[less than £20], "
    "customer rating[low], area[riverside], familyFriendly[no], near[Burger King]",
    "name[The Mill], eatType[pub], area[city centre]",
    "name[Aromi], food[French]",
]


def _refusal(data: str, filename: str = "out.tsv") -> InputError:
    with pytest.raises(InputError) as error:
        get_profile("e2e").read_outputs(data.encode(), LONG_MRS, filename)
    return error.value


def _rows(*rows: str) -> str:
    return "MR\toutput\n" + "\n".join(rows) + "\n"


def test_an_mr_mismatch_shows_where_two_long_mrs_differ():
    """Both MRs were cut at 80 characters, before their difference, so they looked the same."""
    error = _refusal(_rows(f"{LONG_MRS[1]}\tone", f"{LONG_MRS[0]}\ttwo", "x\ty", "z\tw"))
    assert error.line == 2
    assert "'…familyFriendly[no], near[Burger King]' differs from test MR 1 " in str(error)
    assert "'…familyFriendly[yes], near[Burger King]' at character 137" in str(error)
    assert "it is test MR 2 (a row missing before it, or rows out of order?)" in str(error)


def test_a_missing_row_is_named_by_the_row_after_it():
    error = _refusal(_rows(f"{LONG_MRS[0]}\ta", f"{LONG_MRS[2]}\tc", f"{LONG_MRS[3]}\td"))
    assert error.line == 3 and "differs from test MR 2" in str(error)
    assert "it is test MR 3 (a row missing before it" in str(error)


def test_a_row_swallowed_by_an_open_quote_names_its_line():
    """A '"' opening an output joins the rows up to the next quote into one field: the file
    then has a row too few, and the message names the row that ran on, not just "found 3"."""
    error = _refusal(
        _rows(f"{LONG_MRS[0]}\ta", f'{LONG_MRS[1]}\t"b', f'{LONG_MRS[2]}\tc"', f"{LONG_MRS[3]}\td")
    )
    assert error.line == 5 and "differs from test MR 3" in str(error)
    assert "the row on line 3 runs on to line 4: a '\"' there opens a quoted field" in str(error)
    error = _refusal(
        _rows(f"{LONG_MRS[0]}\ta", f'{LONG_MRS[1]}\t"b', f"{LONG_MRS[2]}\tc", f'{LONG_MRS[3]}\td"')
    )
    assert "found 2 after the header: the rows stop at test MR 2" in str(error)
    assert "test MR 3 ('name[The Mill], eatType[pub], area[city centre]')" in str(error)
    assert "the row on line 3 runs on to line 5" in str(error)


def test_a_lost_line_break_in_plain_text_names_the_joined_line():
    outputs = [
        "The Eagle is a cheap, family-friendly coffee shop.",
        "The Eagle is a cheap coffee shop, not for kids.",
        "The Mill is a pub in the centre of the city.",
        "Aromi serves French food to its customers.",
    ]
    joined = [outputs[0], outputs[1] + " " + outputs[2], outputs[3]]
    error = _refusal("\n".join(joined) + "\n", "out.txt")
    assert "found 3 lines; line 2 (92 characters, the longest)" in str(error)
    assert "may hold two outputs joined by a lost line break" in str(error)
    error = _refusal("a\nb\n\nc\nd\n", "out.txt")
    assert "found 5 lines; line 3 is empty: is a line break doubled?" in str(error)


def test_rows_past_the_last_test_mr_are_named():
    rows = [f"{mr}\tx" for mr in LONG_MRS]
    assert _refusal(_rows(*rows, rows[0])).line == 6
