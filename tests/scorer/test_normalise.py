import pytest

from scorer.kinds import get_profile
from scorer.normalise import normalise_e2e, normalise_sr18


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("'The Eagle is a cheap pub.'", "The Eagle is a cheap pub."),
        ("It's a pub near 'The Bakers'.", "It's a pub near 'The Bakers'."),
        ("  spaced   out \t text  ", "spaced out text"),
        ("Café £20 stays as it is", "Café £20 stays as it is"),
    ],
)
def test_e2e_normalisation(raw, expected):
    assert normalise_e2e(raw) == expected


def test_sr18_normalisation():
    assert normalise_sr18("  The  Cat\tSat ") == "the cat sat"


def test_quoted_tsv_mrs_and_outputs_are_matched_and_stripped():
    profile = get_profile("e2e")
    inputs = ["name[Café Rouge], priceRange[£20-25]"]
    data = "MR\toutput\n'name[CafÃ© Rouge], priceRange[Â£20-25]'\t'It costs Â£20-25.'\r\r\n"
    assert profile.read_outputs(data.encode(), inputs, "o.tsv") == ["It costs £20-25."]
