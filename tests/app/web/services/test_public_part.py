"""A test set's declared public part (Kaggle's public leaderboard): open to everyone in the
test phase, while the headline on every item stays each team's own, rounded, until
publication."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.data.db import session_scope
from app.data.models import ItemSubset, Score
from app.data.testsets import PUBLIC_PART
from app.web.errors import DomainError
from app.web.services.public_part import declare_public_part
from app.web.services.tracks import get_track
from tests.support.board import API, bearer, set_track, upload
from tests.support.factories import demo_track, participant, run_queue

OTHER = b"\n".join(b"a restaurant" for _ in range(10)) + b"\n"


def _declare(settings, share: float = 0.3, seed: int = 0) -> int:
    with session_scope(settings.database_url) as session:
        return declare_public_part(session, get_track(session, "demo", "main"), "en", share, seed)


def test_a_public_part_is_open_to_everyone_in_the_test_phase_and_the_headline_is_not(
    app, client, settings
):
    demo_track(settings)
    assert _declare(settings) == 3
    tokens = {team: participant(settings, f"{team}@x.org", team=team) for team in "AB"}
    assert upload(client, tokens["A"], "marlin").status_code == 202
    assert upload(client, tokens["B"], "quokka", OTHER).status_code == 202
    run_queue(app)
    with session_scope(settings.database_url) as session:
        public = session.scalars(select(Score).where(Score.subset == PUBLIC_PART)).all()
        assert {s.submission.system.name for s in public} == {"marlin", "quokka"}
        exact = {s.submission.system.name: s.value for s in public if s.metric == "BLEU"}
    set_track(settings, phase="test")
    rows = client.get(f"{API}/leaderboard", headers=bearer(tokens["A"])).json["rows"]
    by_name = {row["system"]: row for row in rows}
    assert set(by_name) == {"marlin", "quokka"}
    assert by_name["quokka"]["scores"] == {}  # B's headline: B's own until publication
    assert by_name["quokka"]["subsets"][PUBLIC_PART]["BLEU"] == exact["quokka"]
    assert by_name["marlin"]["scores"]  # A's own, rounded
    anonymous = client.get(f"{API}/leaderboard").json["rows"]
    assert {r["system"]: r["subsets"][PUBLIC_PART]["BLEU"] for r in anonymous} == exact
    assert all(r["scores"] == {} for r in anonymous)


def test_a_public_part_is_declared_before_the_first_upload_and_once(app, client, settings):
    demo_track(settings)
    with pytest.raises(DomainError, match="between 0 and 1"):
        _declare(settings, share=1.0)
    assert _declare(settings, seed=7) == 3
    with session_scope(settings.database_url) as session:
        drawn = sorted(s.item.position for s in session.scalars(select(ItemSubset)))
    with pytest.raises(DomainError, match="already has a public part"):
        _declare(settings)
    token = participant(settings, "a@x.org", team="A")
    assert upload(client, token, "marlin").status_code == 202
    with session_scope(settings.database_url) as session:
        session.execute(ItemSubset.__table__.delete())
    with pytest.raises(DomainError, match="before the first upload"):
        _declare(settings)
    assert len(drawn) == 3


def test_the_cli_declares_a_public_part(app, runner, settings):
    demo_track(settings)
    result = runner.invoke(args=["track", "public-part", "demo", "main", "--language", "en",
                                 "--share", "0.5"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "5 items of main (en) are its public part" in result.output
