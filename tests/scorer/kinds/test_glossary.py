"""Every column of every profile has a glossary entry (a new metric without words fails)."""

from __future__ import annotations

import pytest

from scorer.kinds import PROFILES
from scorer.kinds.glossary import glossary
from scorer.metrics import glossary_of, known_metrics


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
