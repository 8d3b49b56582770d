"""Alembic environment: the URL comes from the caller (``app.data.migrate``), never from a file."""

from alembic import context

from app.data.changes import UNMARKED
from app.data.db import get_engine
from app.data.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = get_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            _run(connection)
            connection.commit()
            return
        # SQLite alters a table by copying it and dropping the original: with foreign keys on,
        # the drop would delete every row that refers to it (ON DELETE CASCADE). The pragma
        # only takes effect outside a transaction, hence before the migrations begin one.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            _run(connection)
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                connection.rollback()
                raise RuntimeError(f"the migration left rows with dangling references: {broken}")
            connection.commit()
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")


def _run(connection) -> None:
    # A migration moves no change counter: ``board_changes`` exists only from 0027 on (and the
    # board is not serving while its schema changes).
    connection.execution_options(**{UNMARKED: True})
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run `nlgboard db upgrade`")
run_migrations()
