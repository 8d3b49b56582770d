"""Human evaluation on PostgreSQL: the annotator role (an enum value added by migration 0005)
and the judgement constraints behave as on SQLite."""

from __future__ import annotations

import itertools
import os

import pytest
from sqlalchemy import select

from app.data.config import Settings
from app.data.db import session_scope
from app.data.migrate import upgrade
from app.data.models import Judgement, Role, System, User
from app.web.services.accounts import create_user
from app.web.services.campaigns import CampaignSpec, create_campaign
from app.web.services.human_import import import_judgements
from app.web.services.human_results import analyse
from app.web.services.tracks import get_track
from scorer.errors import InputError
from tests.support.factories import demo_track, scored_system
from tests.support.servers import create_database

pytestmark = pytest.mark.integration
_names = itertools.count()


def test_annotator_role_campaign_and_import_on_postgres(postgres, tmp_path):
    url = create_database(postgres, f"nlg_human_{next(_names)}_{os.getpid()}")
    upgrade(url)
    settings = Settings(instance_path=tmp_path, database_url=url)
    demo_track(settings)
    with session_scope(url) as session:
        create_user(session, "ann@example.org", "password123", Role.ANNOTATOR)
        for name in ("slug", "tgen", "chen"):
            scored_system(session, "demo", "main", name, {"BLEU": 0.5})
        track = get_track(session, "demo", "main")
        campaign = create_campaign(session, track, CampaignSpec("q", "rankme", "quality", items=3))
        assert len(campaign.units) == 3
    with session_scope(url) as session:
        assert (
            session.scalar(select(User.role).where(User.email == "ann@example.org")) == "annotator"
        )
        track = get_track(session, "demo", "main")
        rows = "item,system,annotator,criterion,score\n1,slug,a,quality,90\n1,tgen,a,quality,50\n"
        ids = {s.name: s.id for s in session.scalars(select(System))}
        mapping = {"slug": ids["slug"], "tgen": ids["tgen"]}
        imported = import_judgements(
            session, track, "imp", "rankme", "quality", rows.encode(), "long.csv", mapping
        )
        assert analyse(session, imported, runs=40)["comparisons"] == 1
    with session_scope(url) as session:
        track = get_track(session, "demo", "main")
        twice = "item,system,annotator,criterion,score,unit\n1,slug,a,q,90,u1\n1,slug,a,q,50,u1\n"
        with pytest.raises(
            InputError, match=r"dup\.csv, line 3: annotator a scores slug on item 1"
        ):
            import_judgements(
                session, track, "dup", "rankme", "q", twice.encode(), "dup.csv", {"slug": 1}
            )
    with session_scope(url) as session:
        assert len(session.scalars(select(Judgement)).all()) == 2
