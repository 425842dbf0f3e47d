"""The consolidation use cases on the in-memory store: one transaction, idempotent, ids only."""

from __future__ import annotations

import copy
import secrets
from datetime import timedelta

import pytest

from memory_service.adapters.task_queue import InProcessTaskQueue
from memory_service.core.clock import new_id
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import (
    Durability,
    Memory,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Role,
    SessionStatus,
    Source,
)
from memory_service.core.scope import TenantScope
from memory_service.services import consolidation, outbox, sessions
from memory_service.services.consolidation import ConsolidationDeps
from tests.support.fakes import (
    FixedClock,
    InMemoryMaintenanceStore,
    InMemoryUnitOfWorkFactory,
)

SECRET_WORD = "zanzibar-quokka"


class RecordingQueue:
    """Counts what was sent; ``down`` makes every send fail like a broker outage."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.down = False

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        if self.down:
            raise DependencyUnavailable("the task broker is unavailable; retry later")
        self.sent.append((tenant_id, session_id))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def factory() -> InMemoryUnitOfWorkFactory:
    return InMemoryUnitOfWorkFactory()


@pytest.fixture
def deps(factory: InMemoryUnitOfWorkFactory, clock: FixedClock) -> ConsolidationDeps:
    return ConsolidationDeps(uow_factory=factory, clock=clock)


@pytest.fixture
def scope() -> TenantScope:
    return TenantScope(tenant_id=f"t-{secrets.token_hex(4)}", role=Role.AGENT, actor="key:test")


def open_with_notes(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    notes: list[tuple[str, tuple[str, ...]]],
    *,
    subject: str = "subject-1",
    durability: Durability = Durability.DURABLE,
) -> str:
    session = sessions.open_session(scope, subject, uow_factory=factory, clock=clock)
    with factory(scope.tenant_id) as uow:
        for text, keywords in notes:
            clock.advance(seconds=1)
            uow.memories.add(
                make_note(scope, session.id, subject, text, keywords, clock, durability)
            )
        uow.commit()
    return session.id


def make_note(
    scope: TenantScope,
    session_id: str | None,
    subject: str,
    text: str,
    keywords: tuple[str, ...],
    clock: FixedClock,
    durability: Durability = Durability.DURABLE,
    memory_scope: MemoryScope = MemoryScope.SESSION,
) -> Memory:
    now = clock.now()
    return Memory(
        id=new_id(),
        tenant_id=scope.tenant_id,
        subject_id=subject,
        scope=memory_scope,
        session_id=session_id,
        text=text,
        keywords=keywords,
        purpose="general",
        source=Source.USER_STATED,
        durability=durability,
        provenance=Provenance(actor=scope.actor, session_id=session_id),
        legal_basis="legitimate_interest",
        created_at=now,
        updated_at=now,
    )


def end_quietly(
    scope: TenantScope, session_id: str, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> RecordingQueue:
    queue = RecordingQueue()
    sessions.end_session(scope, session_id, uow_factory=factory, clock=clock, tasks=queue)
    return queue


def globals_of(factory: InMemoryUnitOfWorkFactory, tenant: str, subject: str) -> list[Memory]:
    with factory(tenant) as uow:
        return uow.memories.list_for_subject(subject, scope=MemoryScope.GLOBAL)


def test_an_ended_session_becomes_global_memory_in_one_commit(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    session_id = open_with_notes(
        scope,
        factory,
        clock,
        [("Prefers aisle seats.", ("seat",)), ("prefers aisle seats", ("seat",))],
    )
    end_quietly(scope, session_id, factory, clock)

    report = consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps)

    assert report is not None and report.created == 1
    [memory] = globals_of(factory, scope.tenant_id, "subject-1")
    assert memory.status is MemoryStatus.ACTIVE
    assert len(memory.provenance.derived_from) == 2
    with factory(scope.tenant_id) as uow:
        session = uow.sessions.get(session_id)
        notes = uow.memories.list_for_session(session_id)
        events = uow.audit.list_for_subject("subject-1")
    assert session is not None and session.status is SessionStatus.CONSOLIDATED
    assert {n.status for n in notes} == {MemoryStatus.SUPERSEDED}
    assert {n.superseded_by for n in notes} == {memory.id}
    run = next(e for e in events if e.kind == "consolidation.run")
    assert run.details["created"] == 1 and run.details["notes"] == 2
    assert run.details["model"] is None
    decisions = [e for e in events if e.kind == "consolidation.decision"]
    assert {e.memory_id for e in decisions} == {n.id for n in notes}


def test_a_second_run_changes_nothing(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    session_id = open_with_notes(scope, factory, clock, [("Speaks Portuguese.", ("language",))])
    end_quietly(scope, session_id, factory, clock)
    consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps)
    before = copy.deepcopy(factory.store)

    assert consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps) is None
    assert factory.store == before


def test_vs_code_then_vim_supersedes_the_old_global_and_keeps_it(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    first = open_with_notes(scope, factory, clock, [("Uses VS Code as editor.", ("editor",))])
    end_quietly(scope, first, factory, clock)
    consolidation.consolidate_session(scope.tenant_id, first, deps=deps)
    [old] = globals_of(factory, scope.tenant_id, "subject-1")
    clock.advance(days=3)
    second = open_with_notes(scope, factory, clock, [("Now uses Vim as editor.", ("editor",))])
    end_quietly(scope, second, factory, clock)

    consolidation.consolidate_session(scope.tenant_id, second, deps=deps)

    memories = {m.id: m for m in globals_of(factory, scope.tenant_id, "subject-1")}
    new = next(m for m in memories.values() if m.status is MemoryStatus.ACTIVE)
    assert "Vim" in new.text
    assert memories[old.id].status is MemoryStatus.SUPERSEDED
    assert memories[old.id].superseded_by == new.id
    assert memories[old.id].superseded_at == clock.now()


def test_session_only_and_ephemeral_notes_are_dropped(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    session_id = open_with_notes(
        scope, factory, clock, [("Has a dinner with the team tonight.", ())]
    )
    with factory(scope.tenant_id) as uow:
        uow.memories.add(
            make_note(
                scope,
                session_id,
                "subject-1",
                "Wants the window seat.",
                (),
                clock,
                Durability.SESSION,
            )
        )
        uow.commit()
    end_quietly(scope, session_id, factory, clock)

    report = consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps)

    assert report is not None and report.created == 0
    assert globals_of(factory, scope.tenant_id, "subject-1") == []
    with factory(scope.tenant_id) as uow:
        notes = uow.memories.list_for_session(session_id)
    assert {n.status for n in notes} == {MemoryStatus.EXPIRED}


def test_audit_events_carry_ids_and_codes_never_text(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    session_id = open_with_notes(
        scope,
        factory,
        clock,
        [(f"Uses {SECRET_WORD} as editor.", ("editor",)), (f"{SECRET_WORD} tonight.", ())],
    )
    end_quietly(scope, session_id, factory, clock)
    consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps)

    assert SECRET_WORD not in repr(factory.store.audit)
    assert SECRET_WORD not in repr(factory.store.outbox)


@pytest.mark.parametrize("state", ["unknown", "open", "erased"])
def test_nothing_happens_for_an_unknown_open_or_erased_session(
    state: str,
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    session_id = open_with_notes(scope, factory, clock, [("Prefers aisle seats.", ("seat",))])
    if state == "unknown":
        session_id = new_id()
    elif state == "erased":
        end_quietly(scope, session_id, factory, clock)
        factory.store.subjects.discard((scope.tenant_id, "subject-1"))  # the key is gone
    before = copy.deepcopy(factory.store)

    assert consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps) is None
    assert factory.store == before


def test_ending_writes_an_outbox_entry_dispatched_after_the_commit(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    session_id = open_with_notes(scope, factory, clock, [("Prefers tea.", ())])

    queue = end_quietly(scope, session_id, factory, clock)

    assert queue.sent == [(scope.tenant_id, session_id)]
    [entry] = factory.store.outbox.values()
    assert entry.session_id == session_id and entry.dispatched_at == clock.now()


def test_a_broker_outage_keeps_the_end_and_the_relay_sends_it_later(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    session_id = open_with_notes(scope, factory, clock, [("Prefers tea.", ())])
    queue = RecordingQueue()
    queue.down = True

    ended = sessions.end_session(scope, session_id, uow_factory=factory, clock=clock, tasks=queue)

    assert ended.status is SessionStatus.ENDED
    [entry] = factory.store.outbox.values()
    assert entry.dispatched_at is None and entry.attempts == 1
    maintenance = InMemoryMaintenanceStore(factory.store)
    relay = {"maintenance": maintenance, "uow_factory": factory, "tasks": queue, "clock": clock}
    clock.advance(minutes=1)
    assert outbox.relay_outbox(**relay) == 0  # still down: stays pending
    queue.down = False
    clock.advance(minutes=1)

    assert outbox.relay_outbox(**relay) == 1
    assert queue.sent == [(scope.tenant_id, session_id)]
    [entry] = factory.store.outbox.values()
    assert entry.dispatched_at == clock.now() and entry.attempts == 3
    assert outbox.relay_outbox(**relay) == 0


def test_the_in_process_queue_consolidates_at_once(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    deps: ConsolidationDeps,
) -> None:
    queue = InProcessTaskQueue(
        lambda tenant, session: consolidation.consolidate_session(tenant, session, deps=deps)
    )
    session_id = open_with_notes(scope, factory, clock, [("Prefers tea.", ())])

    sessions.end_session(scope, session_id, uow_factory=factory, clock=clock, tasks=queue)

    assert [m.text for m in globals_of(factory, scope.tenant_id, "subject-1")] == ["Prefers tea."]
    [entry] = factory.store.outbox.values()
    assert entry.dispatched_at is not None


def test_an_in_process_failure_leaves_the_entry_pending_not_the_request_failing(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    def broken(tenant_id: str, session_id: str) -> None:
        raise RuntimeError("bug")

    session_id = open_with_notes(scope, factory, clock, [("Prefers tea.", ())])

    sessions.end_session(
        scope, session_id, uow_factory=factory, clock=clock, tasks=InProcessTaskQueue(broken)
    )

    [entry] = factory.store.outbox.values()
    assert entry.dispatched_at is None


def test_the_sweep_queues_missed_sessions_and_ends_idle_ones(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    idle = open_with_notes(scope, factory, clock, [("Prefers tea.", ())], subject="s-idle")
    missed = open_with_notes(scope, factory, clock, [("Prefers coffee.", ())], subject="s-missed")
    lost = RecordingQueue()
    lost.down = True
    sessions.end_session(scope, missed, uow_factory=factory, clock=clock, tasks=lost)
    clock.advance(hours=25)
    busy = open_with_notes(scope, factory, clock, [("Prefers juice.", ())], subject="s-busy")
    queue = RecordingQueue()

    report = consolidation.consolidate_due_sessions(
        maintenance=InMemoryMaintenanceStore(factory.store),
        uow_factory=factory,
        tasks=queue,
        clock=clock,
        idle_after=timedelta(hours=24),
    )

    assert (report.queued, report.idle_ended, report.failed) == (1, 1, 0)
    assert sorted(queue.sent) == sorted([(scope.tenant_id, missed), (scope.tenant_id, idle)])
    with factory(scope.tenant_id) as uow:
        assert uow.sessions.get(idle).status is SessionStatus.ENDED  # type: ignore[union-attr]
        assert uow.sessions.get(busy).status is SessionStatus.OPEN  # type: ignore[union-attr]


def test_expiry_marks_due_memories_in_batches_and_records_it(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    with factory(scope.tenant_id) as uow:
        due = [
            make_note(
                scope, None, "subject-1", f"Fact {i}.", (), clock, memory_scope=MemoryScope.GLOBAL
            ).with_changes(expires_at=clock.now() - timedelta(days=1))
            for i in range(5)
        ]
        later = make_note(
            scope, None, "subject-1", "Later.", (), clock, memory_scope=MemoryScope.GLOBAL
        ).with_changes(expires_at=clock.now() + timedelta(days=1))
        for memory in [*due, later]:
            uow.memories.add(memory)
        uow.commit()

    expired = consolidation.expire_due_memories(
        maintenance=InMemoryMaintenanceStore(factory.store),
        uow_factory=factory,
        clock=clock,
        batch_size=2,
    )

    assert expired == 5
    statuses = {m.id: m.status for m in globals_of(factory, scope.tenant_id, "subject-1")}
    assert {statuses[m.id] for m in due} == {MemoryStatus.EXPIRED}
    assert statuses[later.id] is MemoryStatus.ACTIVE
    events = [e for e in factory.store.audit if e.kind == "memory.expired"]
    assert {e.memory_id for e in events} == {m.id for m in due}
