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


def test_an_e2e_file_keeps_its_texts_as_read_beside_the_normalised_ones():
    """SER reads the texts as the file has them (the slot-error script reads the file itself);
    the other metrics read them normalised. Outputs made in memory have only themselves."""
    from scorer.normalise import Outputs, as_read

    mrs = ["name[Moonflower], priceRange[less than £20]"]
    data = "MR\toutput\n" + f'"{mrs[0]}"\tMoonflower costs less than  £20.  \n'
    outputs = get_profile("e2e").read_outputs(data.encode(), mrs, "out.tsv")
    assert outputs == ["Moonflower costs less than £20."]
    assert as_read(outputs) == ("Moonflower costs less than  £20.",)
    assert as_read(["made in memory"]) == ["made in memory"]
    with pytest.raises(ValueError, match="1 normalised outputs for 2 read"):
        Outputs(["a"], ["a", "b"])
