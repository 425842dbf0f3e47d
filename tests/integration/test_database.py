"""Engine settings and what callers see when the database is down."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import DBAPIError

from memory_service.adapters import database
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for, normalize_database_url
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.tables import TenantRow
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.errors import DependencyUnavailable
from tests.support.fakes import FixedClock

UNREACHABLE = "postgresql://postgres:hunter2@127.0.0.1:1/nowhere"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u@h:5432/db",
        "postgres://u@h:5432/db",
        "postgresql+psycopg2://u@h:5432/db",
        "postgresql+psycopg://u@h:5432/db",
    ],
)
def test_every_postgresql_spelling_runs_on_psycopg_3(url: str) -> None:
    assert normalize_database_url(url) == "postgresql+psycopg://u@h:5432/db"


def test_sqlite_gets_its_directory_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite:///{tmp_path / 'new' / 'dir' / 'x.db'}")
    try:
        with engine.connect() as connection:
            pragmas = {
                name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "foreign_keys", "busy_timeout")
            }
    finally:
        engine.dispose()
    assert (tmp_path / "new" / "dir").is_dir()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["foreign_keys"] == 1
    assert pragmas["busy_timeout"] >= 30_000


def test_an_unreachable_database_is_unavailable_with_a_generic_message(
    keyring: Keyring, clock: FixedClock
) -> None:
    engine = create_engine_for(UNREACHABLE)
    try:
        factory = SqlUnitOfWorkFactory(engine, keyring, clock)
        with pytest.raises(DependencyUnavailable) as raised, factory("t-1") as uow:
            uow.sessions.get("s-1")
        with pytest.raises(DependencyUnavailable) as raised_by_keys:
            SqlKeyStore(engine, clock).authenticate("msk_" + "a" * 43)
    finally:
        engine.dispose()
    for error in (raised.value, raised_by_keys.value):
        assert "hunter2" not in error.message and "127.0.0.1" not in error.message


def _another_writer_can_begin(engine: Engine) -> bool:
    other = engine.raw_connection()
    try:
        other.execute("PRAGMA busy_timeout = 0")
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            assert "locked" in str(exc)
            return False
        other.execute("ROLLBACK")
        return True
    finally:
        other.close()


def test_sqlite_transactions_take_the_write_lock_at_their_first_write(sqlite_url: str) -> None:
    engine = create_engine_for(sqlite_url)
    tenants = TenantRow.__table__
    try:
        with engine.connect() as first, first.begin():
            first.execute(select(tenants.c.id))
            assert _another_writer_can_begin(engine)  # a reader leaves the lock alone
            first.execute(
                insert(tenants).values(id="t-lock", name="t", created_at=datetime.now(UTC))
            )
            assert not _another_writer_can_begin(engine)  # held from the first write on
        assert _another_writer_can_begin(engine)  # and released at the end
    finally:
        engine.dispose()


def _backend_pid(engine: Engine) -> int:
    with engine.connect() as connection:
        pid: int = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    return pid


def _terminate(postgres_url: str, pid: int) -> None:
    other = create_engine_for(postgres_url)
    try:
        with other.connect() as connection:
            connection.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
    finally:
        other.dispose()


@pytest.mark.postgres
def test_a_connection_idle_past_the_limit_is_pinged_and_a_dead_one_replaced(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.0)
    engine = create_engine_for(postgres_url)
    try:
        first = _backend_pid(engine)
        _terminate(postgres_url, first)
        # The server closed the pooled connection; the ping finds out and the pool reconnects.
        assert _backend_pid(engine) != first
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_connection_used_within_the_limit_is_handed_out_without_a_ping(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 3600.0)
    engine = create_engine_for(postgres_url)
    pings: list[object] = []
    do_ping = engine.dialect.do_ping
    monkeypatch.setattr(engine.dialect, "do_ping", lambda c: pings.append(c) or do_ping(c))
    try:
        first = _backend_pid(engine)
        assert _backend_pid(engine) == first
        assert pings == []  # a round trip saved on each request
        _terminate(postgres_url, first)
        # The trade: a server gone within the limit fails that one request, then reconnects.
        with pytest.raises(DBAPIError):
            _backend_pid(engine)
        assert _backend_pid(engine) != first
    finally:
        engine.dispose()
