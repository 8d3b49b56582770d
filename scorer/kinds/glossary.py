"""What each leaderboard column means, in a sentence, for the challenge pages' glossary (and
anyone reading ``nlg-score``'s output): each metric's ``Traits.glossary`` (a preset's own words
where it has them), the derived columns' beside their formula. The formulas and citations stay
in each metric's module; these are the words a participant needs to read a table."""

from __future__ import annotations

from dataclasses import dataclass

from scorer.kinds import Profile
from scorer.metrics import glossary_of
from scorer.metrics import normalised_average as norm_avg

DERIVED = {norm_avg.NAME: norm_avg.GLOSSARY}
"""Columns computed from other columns, not by a metric."""


@dataclass(frozen=True)
class Entry:
    name: str
    meaning: str
    higher_is_better: bool
    signature: str | None
    """The signature a score of this column carries here; None when this installation lacks
    the metric (the embedding metrics need the ``semantic`` extra)."""
    group: str = ""
    """The column's group in the kind's tables (``Profile.group_of``)."""


def glossary(profile: Profile) -> list[Entry]:
    """Every column of ``profile``, in its order, with its meaning, direction, signature and
    group."""
    absent = set(profile.absent_metrics)
    return [
        Entry(
            name,
            meaning(profile, name),
            profile.higher_is_better(name),
            None if name in absent else profile.column_signature(name),
            profile.group_of(name),
        )
        for name in profile.columns
    ]


def meaning(profile: Profile, name: str) -> str:
    """What the column ``name`` of ``profile`` means."""
    metric = profile.metric_ids.get(name)
    return glossary_of(metric) if metric is not None else DERIVED.get(name, "")
