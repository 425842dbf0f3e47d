"""After-commit jobs: one that fails neither undoes the commit nor stops the jobs after it.

A failure is logged by exception type only (its message could carry data). A
``DependencyUnavailable`` is raised again once every job has run, so the caller answers 503
and retries an idempotent operation (erasure purging the cache); any other failure is
logged and the call succeeds. The consolidation outbox covers a send that failed.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import Role, SessionStatus
from memory_service.core.scope import TenantScope
from memory_service.services import outbox, sessions
from tests.integration.conftest import Store
from tests.integration.records import make_memory
from tests.integration.test_consolidation_store import maintenance_of

SUBJECT = "cust-jobs-1"
MARKER = "the-message-must-not-be-logged"


class BrokenQueue:
    """A broker client failing in a way nobody mapped to DependencyUnavailable."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.broken = True

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        if self.broken:
            raise RuntimeError(MARKER)
        self.sent.append((tenant_id, session_id))


def _failing(error: Exception) -> None:
    raise error


def test_a_failing_job_is_logged_by_type_and_the_others_still_run(
    store: Store, tenant_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    memory = make_memory(tenant_id, SUBJECT, store.clock.now())
    ran: list[str] = []
    with caplog.at_level(logging.DEBUG), store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.after_commit(lambda: _failing(ValueError(MARKER)))
        uow.after_commit(lambda: ran.append("second"))
        uow.commit()

    assert ran == ["second"]
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == memory
    assert "ValueError" in caplog.text
    assert MARKER not in caplog.text
    assert all(record.exc_info is None for record in caplog.records)


def test_an_unavailable_dependency_is_raised_after_every_job_ran(
    store: Store, tenant_id: str
) -> None:
    memory = make_memory(tenant_id, SUBJECT, store.clock.now())
    ran: list[str] = []
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.after_commit(lambda: _failing(DependencyUnavailable("cache down")))
        uow.after_commit(lambda: ran.append("second"))
        with pytest.raises(DependencyUnavailable):
            uow.commit()

    assert ran == ["second"]
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == memory  # committed all the same


def test_an_end_whose_send_fails_succeeds_and_the_outbox_sends_it_later(
    store: Store, tenant_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    scope = TenantScope(tenant_id, Role.AGENT, "key:agent")
    queue = BrokenQueue()
    opened = sessions.open_session(scope, SUBJECT, uow_factory=store.uow_factory, clock=store.clock)

    ended = sessions.end_session(
        scope, opened.id, uow_factory=store.uow_factory, clock=store.clock, tasks=queue
    )

    assert ended.status is SessionStatus.ENDED
    assert queue.sent == []
    assert MARKER not in caplog.text
    queue.broken = False
    store.clock.advance(seconds=1)
    relayed = outbox.relay_outbox(
        maintenance=maintenance_of(store),
        uow_factory=store.uow_factory,
        tasks=queue,
        clock=store.clock,
        min_age=timedelta(0),
        limit=10_000,
    )
    assert relayed >= 1
    assert (tenant_id, opened.id) in queue.sent
