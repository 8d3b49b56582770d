"""Every column of every profile has a glossary entry (a new metric without words fails)."""

from __future__ import annotations

import pytest

from scorer.kinds import PROFILES, build_profile, read_kinds
from scorer.kinds.glossary import glossary
from scorer.metrics import get_metric, glossary_of, known_metrics
from scorer.metrics.base import COVERAGE, EDIT_DISTANCE, LEARNED, SEMANTIC, WORD_OVERLAP

GROUPS = {WORD_OVERLAP, EDIT_DISTANCE, SEMANTIC, LEARNED, COVERAGE}


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_column_is_explained_with_its_direction(name):
    entries = glossary(PROFILES[name])
    assert [e.name for e in entries] == list(PROFILES[name].columns)
    assert all(e.meaning for e in entries)
    for entry in entries:
        assert entry.signature is None or entry.signature.startswith(entry.name + "|")


def test_slot_error_columns_say_which_way_is_better():
    entries = {e.name: e for e in glossary(PROFILES["e2e"])}
    assert [entries[n].higher_is_better for n in ("SER", "OK%", "A%", "M%", "A+M%")] == [
        False, True, False, False, False,
    ]  # fmt: skip
    assert "nothing missed, added or wrong" in entries["OK%"].meaning


@pytest.mark.parametrize("metric", [m for m in known_metrics() if "@" not in m])
def test_every_registered_metric_says_what_it_means(metric):
    """chrF++, ROUGE-L and TER-pyter included, which the name-keyed glossary lacked."""
    assert glossary_of(metric).endswith(".")


@pytest.mark.parametrize("metric", [m for m in known_metrics() if "@" not in m])
def test_every_registered_metric_names_its_table_group(metric):
    """A kind's column groups are derived from these (``Profile.column_groups``)."""
    assert get_metric(metric).traits.group in GROUPS


def test_pyter_ter_says_what_pyter_does_not_what_tercom_does():
    pyter, tercom = glossary_of("TER-pyter"), glossary_of("TER")
    assert pyter != tercom and "pyter" in pyter and "greedy" in pyter
    assert "(tercom)" in tercom and "(tercom)" not in pyter


def test_a_kinds_entries_follow_its_columns_with_their_groups():
    from tests.support.paths import DEMO_DATA

    kinds = read_kinds((DEMO_DATA / "webnlg" / "challenge.yaml").read_bytes(), "challenge.yaml")
    profile = build_profile(kinds["webnlg2020-en"])
    entries = glossary(profile)
    assert [e.name for e in entries] == list(profile.columns)
    assert {e.name: e.group for e in entries}["TER"] == EDIT_DISTANCE
    assert "pyter" in {e.name: e.meaning for e in entries}["TER"]
