"""Item attributes a kind's definition declares (``scorer/kinds/attributes.py``)."""

from __future__ import annotations

import pytest

from scorer.errors import KindError
from scorer.kinds import build_profile, get_profile
from scorer.kinds.attributes import conllu_length, e2e_slots, length_bucket


@pytest.mark.parametrize(
    ("words", "bucket"), [(0, "0"), (1, "1-10"), (10, "1-10"), (11, "11-20"), (40, "31-40"),
                          (41, "41+"), (300, "41+")],
)  # fmt: skip
def test_lengths_fall_into_fixed_buckets(words, bucket):
    assert length_bucket(words) == bucket


def test_an_e2e_mr_gives_its_number_of_slots_and_each_slot_present_or_absent():
    found = e2e_slots("name[The Eagle], food[French], customer rating[low]", [])
    assert found["slots"] == "3"
    assert found["slot:food"] == found["slot:customer rating"] == "present"
    assert found["slot:near"] == found["slot:area"] == "absent"
    assert e2e_slots("not an MR [", []) == {}


def test_an_sr18_tree_length_counts_its_nodes_not_comments_or_ranges():
    tree = "# sent_id = 1\n1\tThe\n2\tcat\n3-4\tdu\n3\tde\n4\tle\n"
    assert conllu_length(tree, ["hidden"]) == {"length": "1-10"}
    assert conllu_length("", ["no tree offline"]) == {}


def test_the_built_in_kinds_declare_their_attributes():
    e2e = get_profile("e2e")
    assert {"slots", "slot:food", "references"} <= set(e2e.breakdown_attributes)
    assert e2e.reference_attributes == {"references"}
    assert set(get_profile("webnlg2017").breakdown_attributes) == {"seen", "category", "size"}
    assert get_profile("sr18").breakdown_attributes == ("length",)
    assert set(get_profile("drs").breakdown_attributes) == {"subset", "length"}
    assert get_profile("drs").reference_attributes == {"length"}


def test_given_attributes_win_over_computed_ones():
    e2e = get_profile("e2e")
    found = e2e.item_attributes("name[X]", ["a", "b"], {"references": "7", "mine": "yes"})
    assert found["references"] == "7" and found["mine"] == "yes" and found["slots"] == "1"


def test_an_unknown_attribute_function_is_refused_naming_the_key():
    definition = {"name": "mine", "reader": "lines", "metrics": ["BLEU"],
                  "attributes": ["e2e-slot"]}  # fmt: skip
    with pytest.raises(KindError, match=r"kind\.attributes: unknown 'e2e-slot'.*e2e-slots"):
        build_profile(definition)
