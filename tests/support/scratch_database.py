"""Scratch PostgreSQL databases: tests and benchmarks each get a migrated database of their own.

A random name keeps parallel runs apart; dropping ``WITH (FORCE)`` removes the database even
when a failed run left connections open, so nothing piles up on the shared server.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import make_url

from memory_service.adapters import migrate
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for, normalize_database_url


@contextmanager
def scratch_postgres_database(server_url: str, *, prefix: str = "ms_test") -> Iterator[str]:
    """Yields the URL of a migrated database with a random name; drops it afterwards."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    admin = create_engine_for(server_url).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = (
        make_url(normalize_database_url(server_url))
        .set(database=name)
        .render_as_string(hide_password=False)
    )
    try:
        migrate.upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@contextmanager
def scratch_postgres_service(server_url: str) -> Iterator[dict[str, str]]:
    """What a PostgreSQL deployment sets: a migrated data database, a key store database of
    its own, and a master key; yields those variables."""
    import base64

    with (
        scratch_postgres_database(server_url) as database_url,
        scratch_postgres_database(server_url, prefix="ms_keys") as keystore_url,
    ):
        yield {
            "DATABASE_URL": database_url,
            "KEYSTORE_URL": keystore_url,
            "MEMORY_SERVICE_MASTER_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        }


def keyring_for(env: dict[str, str]) -> Keyring:
    """The keyring a process started with ``env`` uses (same master key, same key store)."""
    import base64

    from memory_service.adapters.keystore import SqlDataKeyStore

    store = SqlDataKeyStore(create_engine_for(env["KEYSTORE_URL"]))
    return Keyring(base64.b64decode(env["MEMORY_SERVICE_MASTER_KEY"]), store)
