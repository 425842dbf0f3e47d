"""Contract of the consolidation additions to the store, on the fake, SQLite and PostgreSQL:
the outbox, the cross-tenant maintenance reads and ``lock_if_present``."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.core.clock import new_id
from memory_service.core.model import (
    Durability,
    Memory,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Role,
    Session,
    Source,
)
from memory_service.core.ports import MaintenanceStore
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from tests.integration.conftest import Store
from tests.support.fakes import InMemoryMaintenanceStore, InMemoryUnitOfWorkFactory


def maintenance_of(store: Store) -> MaintenanceStore:
    if isinstance(store.uow_factory, InMemoryUnitOfWorkFactory):
        return InMemoryMaintenanceStore(store.uow_factory.store)
    assert store.engine is not None
    return SqlMaintenanceStore(store.engine)


def open_session(store: Store, tenant_id: str, subject: str = "subject-1") -> Session:
    scope = TenantScope(tenant_id=tenant_id, role=Role.AGENT, actor="key:test")
    return sessions.open_session(scope, subject, uow_factory=store.uow_factory, clock=store.clock)


def note(store: Store, session: Session, **changes: object) -> Memory:
    now = store.clock.now()
    memory = Memory(
        id=new_id(),
        tenant_id=session.tenant_id,
        subject_id=session.subject_id,
        scope=MemoryScope.SESSION,
        session_id=session.id,
        text="Prefers aisle seats.",
        keywords=("seat",),
        purpose="general",
        source=Source.USER_STATED,
        durability=Durability.DURABLE,
        provenance=Provenance(actor="key:test", session_id=session.id),
        legal_basis="legitimate_interest",
        created_at=now,
        updated_at=now,
    )
    return replace(memory, **changes)


def test_an_outbox_entry_is_pending_until_an_attempt_dispatches_it(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    session = open_session(store, tenant_id)
    with store.uow_factory(tenant_id) as uow:
        entry_id = uow.outbox.add(session.id, store.clock.now())
        uow.commit()
    maintenance = maintenance_of(store)
    later = store.clock.now() + timedelta(seconds=1)

    pending = maintenance.pending_outbox(created_before=later, limit=100)
    assert [(e.id, e.session_id) for e in pending if e.tenant_id == tenant_id] == [
        (entry_id, session.id)
    ]
    too_soon = maintenance.pending_outbox(created_before=store.clock.now(), limit=100)
    assert entry_id not in {e.id for e in too_soon}
    with store.uow_factory(other_tenant_id) as uow:  # another tenant cannot touch it
        uow.outbox.record_attempt(entry_id, dispatched_at=store.clock.now())
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        uow.outbox.record_attempt(entry_id, dispatched_at=None)
        uow.commit()
    assert entry_id in {e.id for e in maintenance.pending_outbox(created_before=later, limit=100)}
    with store.uow_factory(tenant_id) as uow:
        uow.outbox.record_attempt(entry_id, dispatched_at=store.clock.now())
        uow.commit()
    assert entry_id not in {
        e.id for e in maintenance.pending_outbox(created_before=later, limit=100)
    }


def test_due_sessions_are_the_ended_and_the_idle_ones(store: Store, tenant_id: str) -> None:
    idle = open_session(store, tenant_id, "s-idle-1")
    ended = open_session(store, tenant_id, "s-ended-1")
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.save(ended.end(at=store.clock.now()))
        uow.commit()
    noted = open_session(store, tenant_id, "s-noted-1")
    store.clock.advance(hours=2)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(note(store, noted))  # recent activity keeps it open
        uow.commit()
    fresh = open_session(store, tenant_id, "s-fresh-1")
    done = open_session(store, tenant_id, "s-done-1")
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.save(done.mark_consolidated(at=store.clock.now()))
        uow.commit()

    due = maintenance_of(store).due_sessions(
        idle_before=store.clock.now() - timedelta(hours=1), limit=1000
    )

    mine = {d.session_id: d.idle for d in due if d.tenant_id == tenant_id}
    assert mine == {idle.id: True, ended.id: False}
    assert fresh.id not in mine and noted.id not in mine


def test_due_memories_are_active_and_past_their_expiry(store: Store, tenant_id: str) -> None:
    session = open_session(store, tenant_id)
    now = store.clock.now()
    past = note(store, session, expires_at=now - timedelta(days=1))
    future = note(store, session, expires_at=now + timedelta(days=1))
    gone = note(store, session, expires_at=now - timedelta(days=1), status=MemoryStatus.EXPIRED)
    forever = note(store, session)
    with store.uow_factory(tenant_id) as uow:
        for memory in (past, future, gone, forever):
            uow.memories.add(memory)
        uow.commit()

    due = maintenance_of(store).due_memories(now=now, limit=1000)

    assert {d.memory_id for d in due if d.tenant_id == tenant_id} == {past.id}


@pytest.mark.parametrize("known", [True, False])
def test_lock_if_present_never_creates_a_subject(store: Store, tenant_id: str, known: bool) -> None:
    subject = "subject-known-1" if known else "subject-unknown-1"
    if known:
        open_session(store, tenant_id, subject)
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(subject) is known
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(subject) is known


def test_an_erased_subject_is_neither_present_nor_due(store: Store, tenant_id: str) -> None:
    session = open_session(store, tenant_id)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(note(store, session, expires_at=store.clock.now() - timedelta(days=1)))
        uow.sessions.save(session.end(at=store.clock.now()))
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(session.subject_id)
        uow.commit()
    maintenance = maintenance_of(store)
    now = store.clock.now()

    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(session.subject_id) is False
    assert [
        d for d in maintenance.due_memories(now=now, limit=1000) if d.tenant_id == tenant_id
    ] == []
    assert [
        d for d in maintenance.due_sessions(idle_before=now, limit=1000) if d.tenant_id == tenant_id
    ] == []
