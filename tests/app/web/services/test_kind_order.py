"""The kind orders a track's columns and a challenge's tracks: leaderboard groups side by side
as the kind groups them (``Profile.column_groups``), tracks as the kind lists its track kinds
(SR'18: shallow before deep), kinds in the order they came; no table keyed by kind name."""

from __future__ import annotations

from app.data.models import Challenge, Track
from app.web.services.columns import OTHER, columns
from app.web.services.overview import ordered_tracks
from scorer.kinds import build_profile, get_profile


def _track(track_id: int, kind: str) -> Track:
    return Track(id=track_id, slug=f"t{track_id}", title=kind, kind=kind)


def test_tracks_follow_their_kinds_track_kinds_then_creation():
    deep, e2e, shallow, deep_fr = (
        _track(1, "sr-deep"),
        _track(2, "e2e"),
        _track(3, "sr-shallow"),
        _track(4, "sr-deep"),
    )
    challenge = Challenge(slug="c", title="C", tracks=[e2e, deep_fr, shallow, deep])
    assert [t.id for t in ordered_tracks(challenge)] == [3, 1, 4, 2]


def test_leaderboard_groups_are_the_kinds_and_never_split():
    profile = build_profile(
        {"name": "order-test", "reader": "lines", "metrics": ["BLEU", "TER-pyter", "chrF++"]}
    )
    groups = columns([*profile.columns, "dropped-metric"], [], profile)
    assert [(g, [c.name for c in cs]) for g, cs in groups] == [
        ("word overlap", ["BLEU", "chrF++"]),
        ("edit distance", ["TER"]),
        (OTHER, ["dropped-metric"]),
    ]


def test_the_e2e_leaderboard_keeps_its_two_groups():
    profile = get_profile("e2e")
    groups = columns(list(profile.columns), [], profile)
    assert [g for g, _ in groups] == ["word overlap", "semantic accuracy"]
