"""The schema comes from Alembic migrations, and they match the models exactly."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app.data.db import get_engine
from app.data.migrate import upgrade
from app.data.models import Base


def test_migrations_create_exactly_the_models_schema(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url)
    with get_engine(url).connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        tables = set(inspect(connection).get_table_names())
    assert diff == []
    assert {
        "users",
        "teams",
        "challenges",
        "tracks",
        "test_sets",
        "items",
        "item_references",
        "systems",
        "submissions",
        "scores",
        "outputs",
        "alembic_version",
    } <= tables


def test_bundled_tgen_systems_are_renamed_and_described_on_upgrade(tmp_path):
    """Boards that registered the bundled E2E run as "TGen (bundled baseline)" show it as
    "TGen-style (retrained here)" with its note; a team's system of that name is left alone."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url, "0013_system_names_per_team")
    now = "2024-01-01 00:00:00.000000"
    with get_engine(url).begin() as connection:
        connection.execute(text(
            "INSERT INTO challenges (id, slug, title, description, created_at) "
            "VALUES (1, 'e2e', 'E2E', '', :now)"), {"now": now})  # fmt: skip
        for track_id in (1, 2):
            connection.execute(text(
                "INSERT INTO tracks (id, challenge_id, slug, title, kind, language, profile, "
                "created_at) VALUES (:id, 1, :slug, 'Test', 'e2e', 'en', 'e2e', :now)"),
                {"id": track_id, "slug": f"t{track_id}", "now": now})  # fmt: skip
        connection.execute(text("INSERT INTO teams (id, name, join_code, created_at) "
                                "VALUES (1, 'T', 'code', :now)"), {"now": now})  # fmt: skip
        for system_id, team, baseline in ((1, None, 1), (2, 1, 0)):
            connection.execute(text(
                "INSERT INTO systems (id, track_id, team_id, name, description, architecture, "
                "is_baseline, is_primary, created_at) VALUES (:id, :id, :team, "
                "'TGen (bundled baseline)', '', '', :baseline, 0, :now)"),
                {"id": system_id, "team": team, "baseline": baseline, "now": now})  # fmt: skip
    upgrade(url)
    with get_engine(url).connect() as connection:
        rows = connection.execute(text("SELECT id, name, description FROM systems ORDER BY id"))
        (_, bundled, note), (_, team_system, team_note) = rows.all()
    assert bundled == "TGen-style (retrained here)"
    assert "not the TGen run of the E2E paper's Table 8" in note
    assert (team_system, team_note) == ("TGen (bundled baseline)", "")


def test_upgrading_sqlite_keeps_the_rows_that_refer_to_a_rebuilt_table(tmp_path):
    """SQLite alters a table by rebuilding it; with foreign keys on, dropping the old copy
    cascaded to every row referring to it (0011 rebuilt ``users``: every team membership and
    organiser right went). Migrations run with foreign keys off and checked after."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url, "0010")
    now = "2024-01-01 00:00:00.000000"
    with get_engine(url).begin() as connection:
        for statement in (
            "INSERT INTO users (id, email, password_hash, role, created_at) "
            "VALUES (1, 'a@x.org', 'h', 'organiser', :now)",
            "INSERT INTO teams (id, name, join_code, created_at) VALUES (1, 'T', 'c', :now)",
            "INSERT INTO memberships (id, user_id, team_id, joined_at) VALUES (1, 1, 1, :now)",
            "INSERT INTO challenges (id, slug, title, description, created_at) "
            "VALUES (1, 'c', 'C', '', :now)",
            "INSERT INTO challenge_organisers (id, challenge_id, user_id) VALUES (1, 1, 1)",
        ):
            connection.execute(text(statement), {"now": now})
    upgrade(url)
    with get_engine(url).connect() as connection:
        kept = [
            connection.execute(text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("memberships", "challenge_organisers")
        ]
        enforced = connection.execute(text("PRAGMA foreign_keys")).scalar()
    assert kept == [1, 1] and enforced == 1


def test_accounts_made_before_mail_count_as_verified_on_upgrade(tmp_path):
    """They were made by an administrator or have been used since: none loses uploads."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url, "0016_track_kind_definitions")
    with get_engine(url).begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (email, role, created_at, session_nonce) "
                "VALUES ('old@x.org', 'participant', '2024-01-01 00:00:00.000000', 'n')"
            )
        )
    upgrade(url)
    with get_engine(url).connect() as connection:
        verified, off = connection.execute(
            text("SELECT email_verified_at, notifications_off FROM users")
        ).one()
    assert verified is not None and off == "[]"


def _track_row(connection, slug: str, kind: str, profile: str, definition: str | None) -> None:
    connection.execute(
        text(
            "INSERT INTO tracks (challenge_id, slug, title, kind, language, profile, "
            "kind_definition, phase, is_published, hide_own_scores, confirmed_only_in_test, "
            "max_primary, created_at) VALUES (1, :slug, :slug, :kind, 'en', :profile, "
            ":definition, 'development', 0, 0, 1, 2, '2024-01-01 00:00:00.000000')"
        ),
        {"slug": slug, "kind": kind, "profile": profile, "definition": definition},
    )


def test_the_profile_column_goes_and_each_track_derives_the_same_profile(tmp_path):
    """One kind column: the profile a track stored is the one it now derives, built-in or
    defined; a row whose stored profile says otherwise stops the upgrade, naming it."""
    import json

    import pytest

    from app.data.models import Track
    from app.data.track_kinds import profile_name
    from scorer.kinds import build_profile

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    upgrade(url, "0020_account_requests")
    definition = {"name": "k", "reader": "lines", "metrics": ["chrF++"]}
    defined = build_profile(definition).name
    with get_engine(url).begin() as connection:
        connection.execute(text("INSERT INTO challenges (slug, title, description, created_at) "
                                "VALUES ('c', 'C', '', '2024-01-01 00:00:00.000000')"))  # fmt: skip
        _track_row(connection, "deep", "sr-deep", "sr18", None)
        _track_row(connection, "mine", "k", defined, json.dumps(definition))
        _track_row(connection, "odd", "e2e", "drs", None)
    with pytest.raises(RuntimeError, match=r"\(odd\): kind 'e2e' stores profile 'drs'"):
        upgrade(url)
    with get_engine(url).begin() as connection:
        connection.execute(text("UPDATE tracks SET profile = 'e2e' WHERE slug = 'odd'"))
    upgrade(url)
    from sqlalchemy.orm import Session

    with Session(get_engine(url)) as session:
        found = {t.slug: t.profile for t in session.query(Track)}
    assert found == {"deep": "sr18", "mine": defined, "odd": "e2e"}
    assert profile_name("k", definition) == defined
