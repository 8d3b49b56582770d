"""A kind's columns stand in groups side by side (never "word overlap | other | word overlap"):
derived from each metric's ``Traits.group`` in the order the kind lists them, or declared by
the kind (``groups:``), which is then checked column by column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from scorer.kinds import BUILT_IN, KindError, Profile, build_profile, get_profile, read_kinds
from tests.support.paths import DEMO_DATA

BUNDLE_KINDS = [
    (path.parent.name, kind)
    for path in sorted(DEMO_DATA.rglob("challenge.yaml"))
    if b"\nkinds:" in path.read_bytes()
    for kind in read_kinds(path.read_bytes(), str(path)).values()
]
"""Every kind the example bundles define (``app/demo_data/**/challenge.yaml``)."""


def _contiguous(profile: Profile) -> None:
    groups = [group for group, _ in profile.column_groups]
    assert len(groups) == len(set(groups)), groups
    assert all(groups), groups
    flat = [name for _, names in profile.column_groups for name in names]
    assert flat == list(profile.columns)
    assert sorted(flat) == sorted(set(profile.metric_ids) | set(profile.derived))


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_kinds_groups_are_contiguous(name):
    _contiguous(get_profile(name))


@pytest.mark.parametrize(("folder", "kind"), BUNDLE_KINDS, ids=[f for f, _ in BUNDLE_KINDS])
def test_every_example_bundles_kinds_groups_are_contiguous(folder, kind):
    _contiguous(build_profile(kind))


def test_the_built_in_kinds_keep_the_papers_order():
    assert get_profile("e2e").column_groups == (
        ("word overlap", ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr", "norm_avg")),
        ("semantic accuracy", ("SER", "OK%", "A%", "M%", "A+M%")),
    )
    assert get_profile("webnlg2017").columns == ("BLEU", "METEOR", "TER")


def _kind(**changes: Any) -> Mapping[str, Any]:
    kind = {"name": "groups-test", "reader": "lines", "metrics": ["BLEU", "TER-pyter", "chrF++"]}
    return {**kind, **changes}


def test_a_group_split_by_the_metrics_order_is_kept_whole_where_it_first_comes():
    profile = build_profile(_kind())
    assert profile.column_groups == (
        ("word overlap", ("BLEU", "chrF++")),
        ("edit distance", ("TER",)),
    )


def test_a_kind_declares_its_groups_and_so_its_column_order():
    groups = [
        {"name": "edits", "columns": ["TER"]},
        {"name": "n-grams", "columns": ["chrF++", "BLEU"]},
    ]
    profile = build_profile(_kind(groups=groups))
    assert profile.columns == ("TER", "chrF++", "BLEU")
    assert profile.group_of("BLEU") == "n-grams"


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([{"name": "a", "columns": ["BLEU", "TER"]}], r"in no group: \['chrF\+\+'\]"),
        (
            [
                {"name": "a", "columns": ["BLEU", "TER"]},
                {"name": "b", "columns": ["TER", "chrF++"]},
            ],
            r"in two groups: \['TER'\]",
        ),
        (
            [{"name": "a", "columns": ["BLEU", "TER", "chrF++", "NIST"]}],
            r"not columns: \['NIST'\]",
        ),
        ([{"name": "a", "columns": "BLEU"}], r"groups\[0\]\.columns: a list of columns"),
        ({"a": ["BLEU"]}, r"kind\.groups: a list of \{name: text"),
    ],
)
def test_declared_groups_must_hold_every_column_once(groups, message):
    with pytest.raises(KindError, match=message):
        build_profile(_kind(groups=groups))
