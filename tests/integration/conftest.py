"""Store fixtures: migrated SQLite files, scratch PostgreSQL databases, and one ``store``
fixture over the fake, SQLite and PostgreSQL so the contract suite runs on all three.

Schemas come from the Alembic migrations only. Each contract test works in its own
random tenant, so the per-backend databases are shared by the session without cleanup.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import Engine

from memory_service.adapters import migrate
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.ports import KeyStore, UnitOfWorkFactory
from tests.support.fakes import FakeKeyStore, FixedClock, InMemoryUnitOfWorkFactory
from tests.support.scratch_database import scratch_postgres_database


def migrated_sqlite_url(directory: Path) -> str:
    url = f"sqlite:///{directory / 'store.db'}"
    migrate.upgrade(url)
    return url


@pytest.fixture
def master_key() -> bytes:
    """Generated per test: the tests never read ~/.memory-service."""
    return secrets.token_bytes(32)


@pytest.fixture
def keyring(master_key: bytes) -> Keyring:
    return Keyring(master_key)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return migrated_sqlite_url(tmp_path)


@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:
    with scratch_postgres_database(postgres_url) as url:
        yield url


@pytest.fixture(scope="session")
def shared_sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return migrated_sqlite_url(tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="session")
def shared_pg_url(postgres_url: str) -> Iterator[str]:
    with scratch_postgres_database(postgres_url) as url:
        yield url


@dataclass
class Store:
    """One backend under test: a unit-of-work factory, its key store, and its engine."""

    uow_factory: UnitOfWorkFactory
    keys: KeyStore
    engine: Engine | None
    clock: FixedClock


@contextmanager
def sql_store(url: str, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    engine = create_engine_for(url)
    try:
        yield Store(
            SqlUnitOfWorkFactory(engine, keyring, clock), SqlKeyStore(engine, clock), engine, clock
        )
    finally:
        engine.dispose()


@pytest.fixture(params=["fake", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    if request.param == "fake":
        yield Store(InMemoryUnitOfWorkFactory(), FakeKeyStore(clock), None, clock)
        return
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_backed_store(
    request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock
) -> Iterator[Store]:
    """The SQL stores only, for what the in-memory fake has no counterpart of (bytes at rest,
    the term table): generated for SQL rather than skipped on the fake."""
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


@pytest.fixture
def tenant_id() -> str:
    return f"t-{secrets.token_hex(6)}"


@pytest.fixture
def other_tenant_id() -> str:
    return f"t-{secrets.token_hex(6)}"
