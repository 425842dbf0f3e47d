"""Alembic environment: URL from the caller or ``Settings``, metadata from the tables module.

``memory_service.adapters.migrate`` passes the URL in ``config.attributes`` (no ini file
needed, so it works from an installed wheel); the ``alembic`` CLI falls back to
``sqlalchemy.url`` in ``alembic.ini`` or to ``DATABASE_URL`` / the embedded default.

On SQLite every migration runs in ONE transaction with foreign keys off: a batch migration
rebuilds a table by copying it and dropping the original, and with foreign keys on that
``DROP TABLE`` would first delete its rows, cascading to the children. Before the commit,
``PRAGMA foreign_key_check`` must find nothing, or the whole upgrade is rolled back.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from memory_service.adapters import tables
from memory_service.adapters.database import (
    begin_writing,
    create_engine_for,
    normalize_database_url,
)
from memory_service.config import Settings

config = context.config
if config.config_file_name is not None:
    # Only the alembic CLI has an ini file; the service keeps its own logging setup.
    fileConfig(config.config_file_name, disable_existing_loggers=False)
target_metadata = tables.SQLModel.metadata


def _database_url() -> str:
    url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
    return normalize_database_url(url or Settings.from_env().database_url)


def _configure(**kwargs: object) -> None:
    url = _database_url()
    context.configure(
        target_metadata=target_metadata,
        # SQLite alters tables by copying them; batch mode does that for us.
        render_as_batch=url.startswith("sqlite"),
        compare_type=True,
        **kwargs,
    )


def run_migrations_offline() -> None:
    _configure(url=_database_url(), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_on(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


def _run_on_sqlite(connection: Connection) -> None:
    driver = connection.connection.driver_connection
    assert driver is not None
    # A no-op inside a transaction, so set on the driver before the first BEGIN.
    driver.execute("PRAGMA foreign_keys = OFF")
    try:
        # SQLite's DDL is transactional once the driver leaves BEGIN to SQLAlchemy.
        _configure(connection=connection, transactional_ddl=True)
        with context.begin_transaction():
            begin_writing(connection)
            context.run_migrations()
            _check_foreign_keys(connection)
    finally:
        driver.execute("PRAGMA foreign_keys = ON")


def _check_foreign_keys(connection: Connection) -> None:
    """Raise (so the upgrade rolls back) if a migration left a row without its parent."""
    violations = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if violations:
        tables = sorted({str(row[0]) for row in violations})
        raise RuntimeError(
            f"the migrations left {len(violations)} rows without their parent row, "
            f"in {', '.join(tables)}; nothing was changed"
        )


def run_migrations_online() -> None:
    engine = create_engine_for(_database_url())
    try:
        with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                _run_on_sqlite(connection)
            else:
                _run_on(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
