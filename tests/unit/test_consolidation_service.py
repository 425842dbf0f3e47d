"""The consolidation use cases on the in-memory store: one transaction, idempotent, ids only."""

from __future__ import annotations

import copy
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from memory_service.adapters.task_queue import InProcessTaskQueue
from memory_service.core.clock import new_id
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import Durability, Memory, MemoryScope, MemoryStatus, SessionStatus
from memory_service.core.scope import TenantScope
from memory_service.services import consolidation, outbox, sessions
from memory_service.services.consolidation import ConsolidationDeps, ConsolidationReport
from tests.factories import make_memory_for, make_scope
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


@dataclass
class Tenant:
    """A random tenant on a fresh in-memory store, with the fixed clock every step reads."""

    scope: TenantScope = field(default_factory=lambda: make_scope(f"t-{secrets.token_hex(4)}"))
    factory: InMemoryUnitOfWorkFactory = field(default_factory=InMemoryUnitOfWorkFactory)
    clock: FixedClock = field(default_factory=FixedClock)

    @property
    def id(self) -> str:
        return self.scope.tenant_id

    @property
    def deps(self) -> ConsolidationDeps:
        return ConsolidationDeps(uow_factory=self.factory, clock=self.clock)

    def open_with_notes(
        self,
        notes: list[tuple[str, tuple[str, ...]]],
        *,
        subject: str = "subject-1",
        durability: Durability = Durability.DURABLE,
    ) -> str:
        """Opens a session of ``subject`` and saves ``(text, keywords)`` notes a second apart."""
        session = sessions.open_session(
            self.scope, subject, uow_factory=self.factory, clock=self.clock
        )
        with self.factory(self.id) as uow:
            for text, keywords in notes:
                self.clock.advance(seconds=1)
                uow.memories.add(
                    self.note(text, keywords, subject, session.id, durability=durability)
                )
            uow.commit()
        return session.id

    def note(
        self,
        text: str,
        keywords: tuple[str, ...] = (),
        subject: str = "subject-1",
        session_id: str | None = None,
        **fields: object,
    ) -> Memory:
        """A note written now: of the session when one is given, else a global memory."""
        return make_memory_for(
            self.scope,
            subject,
            text,
            keywords,
            at=self.clock.now(),
            session_id=session_id,
            **fields,
        )

    def end_quietly(self, session_id: str) -> RecordingQueue:
        """Ends the session; the consolidation task only lands in the returned queue."""
        queue = RecordingQueue()
        sessions.end_session(
            self.scope, session_id, uow_factory=self.factory, clock=self.clock, tasks=queue
        )
        return queue

    def consolidate(self, session_id: str) -> ConsolidationReport | None:
        return consolidation.consolidate_session(self.id, session_id, deps=self.deps)

    def globals_of(self, subject: str = "subject-1") -> list[Memory]:
        with self.factory(self.id) as uow:
            return uow.memories.list_for_subject(subject, scope=MemoryScope.GLOBAL)


@pytest.fixture
def tenant() -> Tenant:
    return Tenant()


def test_an_ended_session_becomes_global_memory_in_one_commit(tenant: Tenant) -> None:
    session_id = tenant.open_with_notes(
        [("Prefers aisle seats.", ("seat",)), ("prefers aisle seats", ("seat",))]
    )
    tenant.end_quietly(session_id)

    report = tenant.consolidate(session_id)

    assert report is not None and report.created == 1
    [memory] = tenant.globals_of()
    assert memory.status is MemoryStatus.ACTIVE
    assert len(memory.provenance.derived_from) == 2
    with tenant.factory(tenant.id) as uow:
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


def test_a_second_run_changes_nothing(tenant: Tenant) -> None:
    session_id = tenant.open_with_notes([("Speaks Portuguese.", ("language",))])
    tenant.end_quietly(session_id)
    tenant.consolidate(session_id)
    before = copy.deepcopy(tenant.factory.store)

    assert tenant.consolidate(session_id) is None
    assert tenant.factory.store == before


def test_vs_code_then_vim_supersedes_the_old_global_and_keeps_it(tenant: Tenant) -> None:
    first = tenant.open_with_notes([("Uses VS Code as editor.", ("editor",))])
    tenant.end_quietly(first)
    tenant.consolidate(first)
    [old] = tenant.globals_of()
    tenant.clock.advance(days=3)
    second = tenant.open_with_notes([("Now uses Vim as editor.", ("editor",))])
    tenant.end_quietly(second)

    tenant.consolidate(second)

    memories = {m.id: m for m in tenant.globals_of()}
    new = next(m for m in memories.values() if m.status is MemoryStatus.ACTIVE)
    assert "Vim" in new.text
    assert memories[old.id].status is MemoryStatus.SUPERSEDED
    assert memories[old.id].superseded_by == new.id
    assert memories[old.id].superseded_at == tenant.clock.now()


def test_session_only_and_ephemeral_notes_are_dropped(tenant: Tenant) -> None:
    session_id = tenant.open_with_notes([("Is having dinner with the team tonight.", ())])
    with tenant.factory(tenant.id) as uow:
        uow.memories.add(
            tenant.note(
                "Wants the window seat.", session_id=session_id, durability=Durability.SESSION
            )
        )
        uow.commit()
    tenant.end_quietly(session_id)

    report = tenant.consolidate(session_id)

    assert report is not None and report.created == 0
    assert tenant.globals_of() == []
    with tenant.factory(tenant.id) as uow:
        notes = uow.memories.list_for_session(session_id)
    assert {n.status for n in notes} == {MemoryStatus.EXPIRED}


def test_audit_events_carry_ids_and_codes_never_text(tenant: Tenant) -> None:
    session_id = tenant.open_with_notes(
        [(f"Uses {SECRET_WORD} as editor.", ("editor",)), (f"{SECRET_WORD} tonight.", ())]
    )
    tenant.end_quietly(session_id)
    tenant.consolidate(session_id)

    assert SECRET_WORD not in repr(tenant.factory.store.audit)
    assert SECRET_WORD not in repr(tenant.factory.store.outbox)


@pytest.mark.parametrize("state", ["unknown", "open", "erased"])
def test_nothing_happens_for_an_unknown_open_or_erased_session(state: str, tenant: Tenant) -> None:
    session_id = tenant.open_with_notes([("Prefers aisle seats.", ("seat",))])
    if state == "unknown":
        session_id = new_id()
    elif state == "erased":
        tenant.end_quietly(session_id)
        tenant.factory.store.subjects.discard((tenant.id, "subject-1"))  # the key is gone
    before = copy.deepcopy(tenant.factory.store)

    assert tenant.consolidate(session_id) is None
    assert tenant.factory.store == before


def test_ending_writes_an_outbox_entry_dispatched_after_the_commit(tenant: Tenant) -> None:
    session_id = tenant.open_with_notes([("Prefers tea.", ())])

    queue = tenant.end_quietly(session_id)

    assert queue.sent == [(tenant.id, session_id)]
    [entry] = tenant.factory.store.outbox.values()
    assert entry.session_id == session_id and entry.dispatched_at == tenant.clock.now()


def test_a_broker_outage_keeps_the_end_and_the_relay_sends_it_later(tenant: Tenant) -> None:
    scope, factory, clock = tenant.scope, tenant.factory, tenant.clock
    session_id = tenant.open_with_notes([("Prefers tea.", ())])
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


def _consolidator(tenant: Tenant) -> Callable[[str, str], object]:
    def consolidate(tenant_id: str, session_id: str) -> object:
        return consolidation.consolidate_session(tenant_id, session_id, deps=tenant.deps)

    return consolidate


def _end(tenant: Tenant, session_id: str, queue: InProcessTaskQueue) -> None:
    sessions.end_session(
        tenant.scope, session_id, uow_factory=tenant.factory, clock=tenant.clock, tasks=queue
    )


def test_the_inline_queue_consolidates_at_once(tenant: Tenant) -> None:
    queue = InProcessTaskQueue(_consolidator(tenant), inline=True)
    session_id = tenant.open_with_notes([("Prefers tea.", ())])

    _end(tenant, session_id, queue)

    assert [m.text for m in tenant.globals_of()] == ["Prefers tea."]
    [entry] = tenant.factory.store.outbox.values()
    assert entry.dispatched_at is not None


def test_the_background_queue_answers_before_the_consolidation_runs(tenant: Tenant) -> None:
    release = threading.Event()
    consolidate = _consolidator(tenant)

    def slow(tenant_id: str, session_id: str) -> object:
        assert release.wait(5)  # a judge taking its whole timeout
        return consolidate(tenant_id, session_id)

    queue = InProcessTaskQueue(slow)
    session_id = tenant.open_with_notes([("Prefers tea.", ())])

    _end(tenant, session_id, queue)

    assert tenant.globals_of() == []
    release.set()
    assert queue.wait_idle(timeout=5)
    assert [m.text for m in tenant.globals_of()] == ["Prefers tea."]


def test_a_background_run_lost_to_a_crash_is_sent_again_by_the_relay_at_start(
    tenant: Tenant,
) -> None:
    def crashed(tenant_id: str, session_id: str) -> object:
        raise DependencyUnavailable("database gone")

    lost = InProcessTaskQueue(crashed, retries=1, backoff_seconds=0)
    session_id = tenant.open_with_notes([("Prefers tea.", ())])
    _end(tenant, session_id, lost)
    assert lost.wait_idle(timeout=5)
    assert tenant.globals_of() == []
    tenant.clock.advance(seconds=1)

    restarted = InProcessTaskQueue(_consolidator(tenant))
    restarted.submit(
        lambda: outbox.relay_outbox(
            maintenance=InMemoryMaintenanceStore(tenant.factory.store),
            uow_factory=tenant.factory,
            tasks=restarted,
            clock=tenant.clock,
            min_age=timedelta(0),
            redeliver_after=timedelta(0),
        )
    )

    assert restarted.wait_idle(timeout=5)
    assert [m.text for m in tenant.globals_of()] == ["Prefers tea."]


def test_an_inline_failure_leaves_the_entry_pending_not_the_request_failing(
    tenant: Tenant,
) -> None:
    def broken(tenant_id: str, session_id: str) -> None:
        raise RuntimeError("bug")

    session_id = tenant.open_with_notes([("Prefers tea.", ())])

    _end(tenant, session_id, InProcessTaskQueue(broken, inline=True))

    [entry] = tenant.factory.store.outbox.values()
    assert entry.dispatched_at is None


def test_the_sweep_queues_missed_sessions_and_ends_idle_ones(tenant: Tenant) -> None:
    scope, factory, clock = tenant.scope, tenant.factory, tenant.clock
    idle = tenant.open_with_notes([("Prefers tea.", ())], subject="s-idle-1")
    missed = tenant.open_with_notes([("Prefers coffee.", ())], subject="s-missed-1")
    lost = RecordingQueue()
    lost.down = True
    sessions.end_session(scope, missed, uow_factory=factory, clock=clock, tasks=lost)
    clock.advance(hours=25)
    busy = tenant.open_with_notes([("Prefers juice.", ())], subject="s-busy-1")
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


def test_expiry_marks_due_memories_in_batches_and_records_it(tenant: Tenant) -> None:
    now = tenant.clock.now()
    with tenant.factory(tenant.id) as uow:
        due = [tenant.note(f"Fact {i}.", expires_at=now - timedelta(days=1)) for i in range(5)]
        later = tenant.note("Later.", expires_at=now + timedelta(days=1))
        for memory in [*due, later]:
            uow.memories.add(memory)
        uow.commit()

    expired = consolidation.expire_due_memories(
        maintenance=InMemoryMaintenanceStore(tenant.factory.store),
        uow_factory=tenant.factory,
        clock=tenant.clock,
        batch_size=2,
    )

    assert expired == 5
    statuses = {m.id: m.status for m in tenant.globals_of()}
    assert {statuses[m.id] for m in due} == {MemoryStatus.EXPIRED}
    assert statuses[later.id] is MemoryStatus.ACTIVE
    events = [e for e in tenant.factory.store.audit if e.kind == "memory.expired"]
    assert {e.memory_id for e in events} == {m.id for m in due}
