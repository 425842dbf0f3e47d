"""SQLite's write lock is taken by units of work that write, at their first write, never by reads.

Reads (the key lookup of every request, listings, the health check) run in a plain ``BEGIN``:
WAL gives them a consistent snapshot without queuing behind writers. A transaction that
read first still waits for a concurrent writer at its first write instead of failing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text

from memory_service.adapters import database
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.sql.tenants import SqlTenantPolicyStore
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.model import Role
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-lock-1"


@pytest.fixture
def engine(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    # A short busy timeout, so a read that wrongly queues behind the writer fails fast.
    monkeypatch.setattr(database, "SQLITE_BUSY_TIMEOUT_SECONDS", 1)
    engine = create_engine_for(sqlite_url)
    try:
        yield engine
    finally:
        engine.dispose()


def _other_writer(engine: Engine) -> sqlite3.Connection:
    """A raw connection that fails at once instead of waiting for the lock."""
    raw = sqlite3.connect(engine.url.database or "", timeout=0, isolation_level=None)
    raw.execute("PRAGMA busy_timeout = 0")
    return raw


def _write_lock_is_free(engine: Engine) -> bool:
    """Whether another connection could start writing right now; it asks without waiting."""
    other = _other_writer(engine)
    try:
        other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if "locked" not in str(error):
            raise
        return False
    else:
        other.execute("ROLLBACK")
        return True
    finally:
        other.close()


def test_a_reading_unit_of_work_leaves_the_write_lock_free(
    engine: Engine, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    with factory(tenant_id) as uow:
        assert uow.sessions.get("no-such-session") is None
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert _write_lock_is_free(engine)


def test_reads_go_ahead_while_a_writer_holds_the_lock(
    engine: Engine, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    keys = SqlKeyStore(engine, clock)
    record, clear_key = keys.create(tenant_id, Role.AGENT)
    memory = make_memory(tenant_id, SUBJECT, clock.now())
    factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    with factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.commit()

    writer = _other_writer(engine)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE tenants SET name = 'renamed' WHERE id = ?", (tenant_id,))
        assert keys.authenticate(clear_key) == record
        assert SqlTenantPolicyStore(engine, clock).get(tenant_id) is not None
        with factory(tenant_id) as uow:
            assert uow.memories.list_for_subject(SUBJECT) == [memory]
        with engine.connect() as connection:  # what the health check does
            assert connection.execute(text("SELECT 1")).scalar_one() == 1
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_unit_of_work_that_read_first_still_writes_after_a_concurrent_commit(
    engine: Engine, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    """A plain deferred transaction would fail here (its snapshot is stale); ours waits."""
    factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    session = make_session(tenant_id, SUBJECT, clock.now())
    with factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.commit()
    first = make_memory(tenant_id, SUBJECT, clock.now(), text="First fact holds.")
    second = make_memory(tenant_id, SUBJECT, clock.now(), text="Second fact holds.")

    with factory(tenant_id) as reader_then_writer:
        assert reader_then_writer.sessions.get(session.id) == session
        assert reader_then_writer.memories.list_for_subject(SUBJECT) == []
        with factory(tenant_id) as other:
            other.memories.add(first)
            other.commit()
        reader_then_writer.memories.add(second)
        reader_then_writer.commit()

    with factory(tenant_id) as uow:
        assert {m.id for m in uow.memories.list_for_subject(SUBJECT)} == {first.id, second.id}


def test_a_writing_unit_of_work_holds_the_lock_from_its_first_write_to_its_end(
    engine: Engine, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    with factory(tenant_id) as uow:
        uow.memories.add(make_memory(tenant_id, SUBJECT, clock.now()))
        assert not _write_lock_is_free(engine)
        uow.commit()
    assert _write_lock_is_free(engine)  # released by the commit


def test_the_subject_lock_takes_the_write_lock_before_it_reads(
    engine: Engine, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    with factory(tenant_id) as uow:
        uow.sessions.add(make_session(tenant_id, SUBJECT, clock.now()))
        uow.commit()
    with factory(tenant_id) as uow:
        uow.subjects.lock(SUBJECT)  # an existing subject: the lock itself writes nothing
        assert not _write_lock_is_free(engine)
