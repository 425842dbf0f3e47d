"""The outbox relay sends again what a broker lost, on fakes with a fixed clock.

A message Redis accepted can still vanish (a restart without persistence). The relay sends
again an entry dispatched longer ago than the redelivery horizon whose session is still
``ended``; consolidation is idempotent, so a send that was not lost after all costs one
no-op run.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from types import SimpleNamespace

import pytest

from memory_service.config import REDELIVERY_MARGIN, Settings
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import MemoryScope
from memory_service.core.scope import TenantScope
from memory_service.services import consolidation, outbox, sessions
from memory_service.services.consolidation import ConsolidationDeps
from tests.factories import make_memory, make_scope
from tests.support.fakes import (
    FixedClock,
    InMemoryMaintenanceStore,
    InMemoryUnitOfWorkFactory,
    OutboxRecord,
)
from workers import tasks as worker_tasks

HORIZON = timedelta(minutes=70)


class LossyQueue:
    """Takes every message and keeps none, like a Redis that restarts empty; ``down`` refuses."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.down = False

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        if self.down:
            raise DependencyUnavailable("the task broker is unavailable; retry later")
        self.sent.append((tenant_id, session_id))


@pytest.fixture
def queue() -> LossyQueue:
    return LossyQueue()


@pytest.fixture
def scope() -> TenantScope:
    return make_scope(f"t-{secrets.token_hex(4)}")


def ended_session(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    queue: LossyQueue,
    subject: str = "subject-1",
) -> str:
    """A session with one note, ended: its consolidation sent to ``queue`` (and lost there)."""
    session = sessions.open_session(scope, subject, uow_factory=factory, clock=clock)
    with factory(scope.tenant_id) as uow:
        uow.memories.add(
            make_memory(
                "Prefers green tea.",
                at=clock.now(),
                tenant_id=scope.tenant_id,
                subject_id=subject,
                scope=MemoryScope.SESSION,
                session_id=session.id,
            )
        )
        uow.commit()
    sessions.end_session(scope, session.id, uow_factory=factory, clock=clock, tasks=queue)
    return session.id


def relay(
    factory: InMemoryUnitOfWorkFactory,
    queue: LossyQueue,
    clock: FixedClock,
    *,
    redeliver_after: timedelta | None = HORIZON,
    limit: int = outbox.RELAY_BATCH,
) -> int:
    return outbox.relay_outbox(
        maintenance=InMemoryMaintenanceStore(factory.store),
        uow_factory=factory,
        tasks=queue,
        clock=clock,
        redeliver_after=redeliver_after,
        limit=limit,
    )


def entry_of(factory: InMemoryUnitOfWorkFactory, session_id: str) -> OutboxRecord:
    [entry] = [e for e in factory.store.outbox.values() if e.session_id == session_id]
    return entry


def test_a_dispatched_session_never_consolidated_is_sent_again_once_the_horizon_passed(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue)
    assert queue.sent == [(scope.tenant_id, session_id)]
    clock.advance(HORIZON + timedelta(minutes=1))

    assert relay(factory, queue, clock) == 1

    assert queue.sent == [(scope.tenant_id, session_id)] * 2
    entry = entry_of(factory, session_id)
    assert entry.attempts == 2 and entry.dispatched_at == clock.now()


def test_the_horizon_starts_again_from_the_last_dispatch(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue)
    clock.advance(HORIZON + timedelta(minutes=1))
    relay(factory, queue, clock)

    clock.advance(minutes=1)
    assert relay(factory, queue, clock) == 0
    clock.advance(HORIZON)
    assert relay(factory, queue, clock) == 1

    assert len(queue.sent) == 3
    assert entry_of(factory, session_id).attempts == 3


def test_a_consolidated_session_is_not_sent_again(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue)
    deps = ConsolidationDeps(uow_factory=factory, clock=clock)
    assert consolidation.consolidate_session(scope.tenant_id, session_id, deps=deps) is not None
    clock.advance(HORIZON * 3)

    assert relay(factory, queue, clock) == 0

    assert queue.sent == [(scope.tenant_id, session_id)]
    assert entry_of(factory, session_id).attempts == 1


def test_a_session_of_an_erased_subject_is_not_sent_again(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue, subject="subject-gone-1")
    with factory(scope.tenant_id) as uow:
        uow.erasure.erase_subject("subject-gone-1")
        uow.commit()
    clock.advance(HORIZON * 3)

    assert relay(factory, queue, clock) == 0

    assert queue.sent == [(scope.tenant_id, session_id)]


def test_within_the_horizon_nothing_is_sent_again(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue)
    dispatched = clock.now()
    clock.advance(HORIZON - timedelta(seconds=1))

    assert relay(factory, queue, clock) == 0

    assert queue.sent == [(scope.tenant_id, session_id)]
    entry = entry_of(factory, session_id)
    assert entry.attempts == 1 and entry.dispatched_at == dispatched


def test_without_a_horizon_the_relay_sends_only_what_is_pending(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    ended_session(scope, factory, clock, queue)
    clock.advance(HORIZON * 3)

    assert relay(factory, queue, clock, redeliver_after=None) == 0

    assert len(queue.sent) == 1


def test_a_broker_still_down_keeps_the_last_dispatch_time_and_the_entry_comes_back(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    session_id = ended_session(scope, factory, clock, queue)
    dispatched = clock.now()
    queue.down = True
    clock.advance(HORIZON + timedelta(minutes=1))

    assert relay(factory, queue, clock) == 0
    entry = entry_of(factory, session_id)
    assert entry.attempts == 2 and entry.dispatched_at == dispatched

    queue.down = False
    clock.advance(minutes=1)
    assert relay(factory, queue, clock) == 1
    assert queue.sent == [(scope.tenant_id, session_id)] * 2


def test_each_run_sends_again_a_bounded_batch_oldest_dispatch_first(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, queue: LossyQueue
) -> None:
    ended = []
    for subject in ("s-1", "s-2", "s-3"):
        ended.append(ended_session(scope, factory, clock, queue, subject=subject))
        clock.advance(minutes=1)
    clock.advance(HORIZON)
    queue.sent.clear()

    assert relay(factory, queue, clock, limit=2) == 2
    assert [sent for _, sent in queue.sent] == ended[:2]
    assert relay(factory, queue, clock, limit=2) == 1
    assert [sent for _, sent in queue.sent] == ended


def test_on_redis_the_horizon_is_the_visibility_timeout_plus_a_margin() -> None:
    settings = Settings.from_env(
        {"REDIS_URL": "redis://cache:6379/0", "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "120"}
    )

    assert settings.redelivery_after == timedelta(seconds=120) + REDELIVERY_MARGIN


def test_on_rabbitmq_the_horizon_is_the_margin_alone() -> None:
    """RabbitMQ redelivers a dead consumer's message at once: no visibility timeout to wait."""
    settings = Settings.from_env(
        {
            "REDIS_URL": "redis://cache:6379/0",
            "CELERY_BROKER_URL": "amqp://guest:guest@rabbitmq:5672//",
            "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "120",
        }
    )

    assert settings.redelivery_after == REDELIVERY_MARGIN


def test_the_margin_outlasts_the_backoff_of_a_task_retrying_after_transient_failures() -> None:
    retry = worker_tasks.RETRY
    backoff = sum(
        min(retry["retry_backoff"] * 2**attempt, retry["retry_backoff_max"])
        for attempt in range(retry["max_retries"])
    )

    assert timedelta(seconds=backoff) < REDELIVERY_MARGIN


def test_the_beat_task_sends_again_past_the_horizon_of_the_worker_settings(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    queue: LossyQueue,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    container = SimpleNamespace(
        settings=Settings.from_env(
            {"REDIS_URL": "redis://cache:6379/0", "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "120"}
        ),
        maintenance=InMemoryMaintenanceStore(factory.store),
        uow_factory=factory,
        tasks=queue,
        clock=clock,
    )
    monkeypatch.setattr(worker_tasks, "_container", lambda: container)
    session_id = ended_session(scope, factory, clock, queue)

    clock.advance(seconds=120)  # past the visibility timeout, not past the margin
    worker_tasks.relay_outbox()
    assert len(queue.sent) == 1
    clock.advance(REDELIVERY_MARGIN + timedelta(seconds=1))
    worker_tasks.relay_outbox()

    assert queue.sent == [(scope.tenant_id, session_id)] * 2
