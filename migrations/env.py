"""Alembic environment: URL from the caller or ``Settings``, metadata from the tables module.

``memory_service.adapters.migrate`` passes the URL in ``config.attributes`` (no ini file
needed, so it works from an installed wheel); the ``alembic`` CLI falls back to
``sqlalchemy.url`` in ``alembic.ini`` or to ``DATABASE_URL`` / the embedded default.
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from memory_service.adapters import tables
from memory_service.adapters.database import create_engine_for, normalize_database_url
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


def run_migrations_online() -> None:
    engine = create_engine_for(_database_url())
    try:
        with engine.connect() as connection:
            _run_on(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
