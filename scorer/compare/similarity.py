"""System-output similarity (E2E paper Sect. 8.3, Figures 5 and A.6).

Every pair of systems on a track is scored with the track's word-overlap metrics, one system's
outputs standing in as the single reference for the other's, restaurant names delexicalised in
both; the pair's similarity is the normalised average of the five metrics (Table 8). The
references are compared the same way: every reference ("test set all") and one random reference
per MR ("test set rand", the seed of the textual statistics) as the reference side.

A system's mean similarity (Figure 5's "Mean" column) is the mean of its column: how close its
outputs come to each of the other systems' outputs, taken as references.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorer.kinds import Profile, random_references
from scorer.metrics import normalised_average as norm_avg
from scorer.references import ReferenceSet
from scorer.semantics.e2e_slots import delexicalise

REFERENCE_ROWS = ("test set all", "test set rand")


@dataclass(frozen=True)
class SimilarityMatrix:
    """``values[r][t]``: similarity of tested system ``tested[t]`` to reference ``rows[r]``."""

    rows: list[str]
    tested: list[str]
    values: list[list[float | None]]
    signature: str

    def mean(self, system: str) -> float | None:
        """Mean similarity of ``system`` to the other systems (reference rows left out)."""
        t = self.tested.index(system)
        values = [
            value
            for name, row in zip(self.rows, self.values, strict=True)
            if name != system and name not in REFERENCE_ROWS and (value := row[t]) is not None
        ]
        return sum(values) / len(values) if values else None

    def as_dict(self) -> dict:
        return dataclasses.asdict(self) | {"means": {s: self.mean(s) for s in self.tested}}


def overlap_profile(profile: Profile) -> Profile:
    """The profile with only the metrics the normalised average is made of."""
    ids = [profile.metric_ids[name] for name in norm_avg.SCALES if name in profile.metric_ids]
    if len(ids) != len(norm_avg.SCALES):
        raise ValueError(f"profile {profile.name} lacks the metrics of {norm_avg.NAME}")
    return dataclasses.replace(profile, metrics=tuple(ids), derived=(norm_avg.NAME,))


def similarity_matrix(
    profile: Profile, systems: Mapping[str, Sequence[str]], references: ReferenceSet
) -> SimilarityMatrix:
    """Similarity of every ordered pair of systems, plus the two reference rows."""
    if references.inputs is None:
        raise ValueError("system similarity needs the MRs (names are delexicalised)")
    scorer = overlap_profile(profile)
    mrs = list(references.inputs)
    delex = {
        name: [delexicalise(mr, text) for mr, text in zip(mrs, outputs, strict=True)]
        for name, outputs in systems.items()
    }
    reference_sides = {
        "test set all": [
            [delexicalise(mr, r) for r in refs] for mr, refs in zip(mrs, references, strict=True)
        ],
        "test set rand": [
            [delexicalise(mr, ref)]
            for mr, ref in zip(mrs, random_references(references), strict=True)
        ],
    }
    reference_sides |= {name: [[text] for text in outputs] for name, outputs in delex.items()}
    names = list(delex)
    values = [
        [
            None if reference == tested else _similarity(scorer, delex[tested], side)
            for tested in names
        ]
        for reference, side in reference_sides.items()
    ]
    return SimilarityMatrix(
        rows=list(reference_sides), tested=names, values=values, signature=signature(scorer)
    )


def _similarity(profile: Profile, outputs: list[str], references: list[list[str]]) -> float:
    scores = profile.scores_from_statistics(profile.statistics(outputs, references))
    return scores[norm_avg.NAME]


def signature(profile: Profile) -> str:
    metrics = ",".join(profile.signature_of(name) for name in norm_avg.SCALES)
    return f"similarity|{norm_avg.SIGNATURE}|delex:name,near|metrics:{metrics}"
