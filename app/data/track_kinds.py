"""Track kinds organisers defined, found by their profile's name in whichever process scores or
shows a track (``scorer.kinds.PROFILE_LOADERS``): the definition is stored with the track."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from app.data.db import session_scope
from app.data.models import Track
from scorer.kinds import PROFILE_LOADERS, Profile, build_profile

_INSTALLED: set[str] = set()


def install(database_url: str) -> None:
    """Let ``get_profile`` build the profiles of this database's defined kinds (once per URL)."""
    if database_url in _INSTALLED:
        return
    _INSTALLED.add(database_url)

    def load(name: str) -> Profile | None:
        if "@" not in name:
            return None
        try:
            with session_scope(database_url) as session:
                definition = session.scalar(
                    select(Track.kind_definition)
                    .where(Track.profile == name, Track.kind_definition.isnot(None))
                    .limit(1)
                )
        except SQLAlchemyError:  # a board that is gone (a test's) knows no kinds
            return None
        return build_profile(definition) if definition else None

    PROFILE_LOADERS.append(load)
