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
