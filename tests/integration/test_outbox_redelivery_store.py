"""Contract of ``MaintenanceStore.unconsolidated_outbox`` and of the last dispatch time, on
the fake, SQLite and PostgreSQL: the entries the relay sends again after a lost message."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect, select
from sqlalchemy.orm import Session as DbSession
from sqlmodel import col

from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.adapters.tables import ConsolidationOutboxRow
from memory_service.core.model import Role, Session, SessionStatus
from memory_service.core.ports import MaintenanceStore
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from tests.integration.conftest import Store
from tests.support.fakes import InMemoryMaintenanceStore, InMemoryUnitOfWorkFactory

EVERYTHING = 100_000


def maintenance_of(store: Store) -> MaintenanceStore:
    if isinstance(store.uow_factory, InMemoryUnitOfWorkFactory):
        return InMemoryMaintenanceStore(store.uow_factory.store)
    assert store.engine is not None
    return SqlMaintenanceStore(store.engine)


def dispatched_session(
    store: Store, tenant_id: str, subject: str, *, status: SessionStatus = SessionStatus.ENDED
) -> tuple[Session, str]:
    """A session ended now whose outbox entry was sent now; returns it and the entry id."""
    scope = TenantScope(tenant_id=tenant_id, role=Role.AGENT, actor="key:test")
    opened = sessions.open_session(scope, subject, uow_factory=store.uow_factory, clock=store.clock)
    now = store.clock.now()
    ended = replace(opened, status=status, ended_at=now)
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.save(ended)
        entry_id = uow.outbox.add(opened.id, now)
        uow.outbox.record_attempt(entry_id, dispatched_at=now)
        uow.commit()
    return ended, entry_id


def stale_of(store: Store, tenant_id: str, before: datetime, limit: int = EVERYTHING) -> list[str]:
    found = maintenance_of(store).unconsolidated_outbox(dispatched_before=before, limit=limit)
    return [entry.session_id for entry in found if entry.tenant_id == tenant_id]


def outbox_row(store: Store, tenant_id: str, entry_id: str) -> tuple[int, datetime | None]:
    """(attempts, dispatched_at) as stored: the port has no read for one entry."""
    if isinstance(store.uow_factory, InMemoryUnitOfWorkFactory):
        record = store.uow_factory.store.outbox[(tenant_id, entry_id)]
        return record.attempts, record.dispatched_at
    row = ConsolidationOutboxRow
    with DbSession(store.engine) as db:
        attempts, dispatched_at = db.execute(
            select(col(row.attempts), col(row.dispatched_at)).where(col(row.id) == entry_id)
        ).one()
    return attempts, dispatched_at


def test_listed_are_the_entries_dispatched_before_the_horizon_whose_session_is_still_ended(
    store: Store, tenant_id: str
) -> None:
    ended, _ = dispatched_session(store, tenant_id, "s-ended-1")
    consolidated, _ = dispatched_session(
        store, tenant_id, "s-done-1", status=SessionStatus.CONSOLIDATED
    )
    scope = TenantScope(tenant_id=tenant_id, role=Role.AGENT, actor="key:test")
    unsent = sessions.open_session(
        scope, "s-pending-1", uow_factory=store.uow_factory, clock=store.clock
    )
    with store.uow_factory(tenant_id) as uow:  # ended, but its send never succeeded
        uow.sessions.save(replace(unsent, status=SessionStatus.ENDED, ended_at=store.clock.now()))
        uow.outbox.add(unsent.id, store.clock.now())
        uow.commit()
    dispatched_at = store.clock.now()

    assert stale_of(store, tenant_id, dispatched_at) == []  # not strictly before
    assert stale_of(store, tenant_id, dispatched_at + timedelta(seconds=1)) == [ended.id]
    assert consolidated.id not in stale_of(store, tenant_id, dispatched_at + timedelta(days=1))


def test_a_session_of_an_erased_subject_is_never_listed(store: Store, tenant_id: str) -> None:
    dispatched_session(store, tenant_id, "s-erased-1")
    kept, _ = dispatched_session(store, tenant_id, "s-kept-1")
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject("s-erased-1")
        uow.commit()

    assert stale_of(store, tenant_id, store.clock.now() + timedelta(seconds=1)) == [kept.id]


def test_a_new_dispatch_moves_the_entry_past_the_horizon_again_and_counts_the_attempt(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    ended, entry_id = dispatched_session(store, tenant_id, "s-resent-1")
    first = store.clock.now()
    resent = store.clock.advance(hours=2)
    with store.uow_factory(other_tenant_id) as uow:  # another tenant cannot touch it
        uow.outbox.record_attempt(entry_id, dispatched_at=resent)
        uow.commit()
    assert outbox_row(store, tenant_id, entry_id) == (1, first)

    with store.uow_factory(tenant_id) as uow:
        uow.outbox.record_attempt(entry_id, dispatched_at=resent)
        uow.commit()

    assert outbox_row(store, tenant_id, entry_id) == (2, resent)
    assert stale_of(store, tenant_id, resent) == []
    assert stale_of(store, tenant_id, resent + timedelta(seconds=1)) == [ended.id]
    with store.uow_factory(tenant_id) as uow:  # a failed send keeps the last dispatch time
        uow.outbox.record_attempt(entry_id, dispatched_at=None)
        uow.commit()
    assert outbox_row(store, tenant_id, entry_id) == (3, resent)


def test_the_oldest_dispatches_come_first_and_the_batch_is_bounded(
    store: Store, tenant_id: str
) -> None:
    # Long before every other test's entries in the shared databases, so ours come first.
    store.clock.set(datetime(2001, 2, 3, 4, 5, tzinfo=UTC))
    listed = []
    for subject in ("s-1", "s-2", "s-3"):
        session, _ = dispatched_session(store, tenant_id, subject)
        listed.append(session.id)
        store.clock.advance(minutes=1)
    horizon = store.clock.now()

    assert stale_of(store, tenant_id, horizon, limit=2) == listed[:2]
    assert stale_of(store, tenant_id, horizon) == listed
    with store.uow_factory(tenant_id) as uow:  # the first ones done: out of the backlog
        for session_id in listed[:2]:
            session = uow.sessions.get(session_id)
            assert session is not None
            uow.sessions.save(replace(session, status=SessionStatus.CONSOLIDATED))
        uow.commit()
    assert stale_of(store, tenant_id, horizon, limit=2) == listed[2:]


@pytest.mark.parametrize(
    "url_fixture", ["shared_sqlite_url", pytest.param("shared_pg_url", marks=pytest.mark.postgres)]
)
def test_the_migrated_schema_finds_an_outbox_entry_by_its_session(
    url_fixture: str, request: pytest.FixtureRequest
) -> None:
    """The redelivery query joins each ended session to its entry: without this index the
    join reads the whole outbox, which keeps a row per session ever ended."""
    engine = create_engine_for(request.getfixturevalue(url_fixture))
    try:
        indexes = {
            index["name"]: index["column_names"]
            for index in inspect(engine).get_indexes("consolidation_outbox")
        }
    finally:
        engine.dispose()

    assert indexes["ix_consolidation_outbox_session"] == ["tenant_id", "session_id"]
