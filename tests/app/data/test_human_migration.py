"""Migration 0012 ties the judgements already stored to their systems: board judgements by
their unit entry, imported ones only by a system of exactly their name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from sqlalchemy import select

from app.data.db import session_scope
from app.data.migrate import alembic_config, upgrade
from app.data.models import Campaign, Judgement, System, UnitEntry
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.human_import import import_judgements
from app.web.services.tracks import get_track
from tests.support.human import QUALITY, human_board, judge


def test_upgrading_keys_existing_judgements_by_system(app, settings):
    human_board(settings)
    with session_scope(settings.database_url) as session:
        track = get_track(session, "demo", "main")
        track.deadline = datetime.now(UTC) - timedelta(days=1)
        spec = CampaignSpec("board", "rankme", "quality", items=3, include_human=True)
        judge(session, create_campaign(session, track, spec), QUALITY, annotators=1)
        rows = "item,system,annotator,criterion,score\n1,alpha,a,quality,90\n1,Gamma,a,quality,50\n"
        ids = {s.name: s.id for s in session.scalars(select(System))}
        import_judgements(
            session, track, "old", "rankme", "quality", rows.encode(), "old.csv",
            {"alpha": ids["alpha"], "Gamma": ids["gamma"]},
        )  # fmt: skip
    config = alembic_config(settings.database_url)
    command.downgrade(config, "0014_bundled_baseline_names")
    upgrade(settings.database_url)
    with session_scope(settings.database_url) as session:
        campaigns = {c.name: c.id for c in session.scalars(select(Campaign))}
        entries = session.scalars(select(UnitEntry)).all()
        assert {e.system_name for e in entries if e.is_reference} == {"HUMAN"}
        assert all(e.system_id is not None for e in entries if not e.is_reference)
        board = session.scalars(
            select(Judgement).where(Judgement.campaign_id == campaigns["board"])
        ).all()
        by_entry = {e.id: e for e in entries}
        assert board and all(
            (j.system_id, j.is_reference)
            == (by_entry[j.entry_id].system_id, by_entry[j.entry_id].is_reference)
            for j in board
        )
        assert any(j.is_reference for j in board)
        imported = {
            j.system_name: j.system_id
            for j in session.scalars(
                select(Judgement).where(Judgement.campaign_id == campaigns["old"])
            )
        }
    assert imported == {"alpha": ids["alpha"], "Gamma": None}  # exact names only
