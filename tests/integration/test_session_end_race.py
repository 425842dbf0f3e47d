"""Ending a session is a conditional state change: of two concurrent ends exactly one wins.

Both requests read the session while it is still open; only one may write ``ended``, leave
the ``session.ended`` event and queue the consolidation. The other gets a Conflict (409).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from types import TracebackType
from typing import Any

import pytest

from memory_service.adapters.crypto import Keyring
from memory_service.core.errors import Conflict
from memory_service.core.model import Role, Session, SessionStatus
from memory_service.core.ports import SessionRepository, UnitOfWork, UnitOfWorkFactory
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-race-1"


class RecordingQueue:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        with self._lock:
            self.sent.append((tenant_id, session_id))


class _ReadersMeet:
    """Session reads that return only once both racing requests have read."""

    def __init__(self, inner: SessionRepository, barrier: threading.Barrier) -> None:
        self._inner = inner
        self._barrier = barrier

    def get(self, session_id: str) -> Session | None:
        found = self._inner.get(session_id)
        self._barrier.wait(timeout=30)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _MeetingUnitOfWork:
    def __init__(self, inner: UnitOfWork, barrier: threading.Barrier) -> None:
        self._inner = inner
        self._barrier = barrier

    def __enter__(self) -> _MeetingUnitOfWork:
        self._inner.__enter__()
        self.sessions = _ReadersMeet(self._inner.sessions, self._barrier)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._inner.__exit__(exc_type, exc, tb)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _meeting(factory: UnitOfWorkFactory, barrier: threading.Barrier) -> UnitOfWorkFactory:
    return lambda tenant_id: _MeetingUnitOfWork(factory(tenant_id), barrier)  # type: ignore[return-value]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def test_two_concurrent_ends_succeed_once(sql: Store, tenant_id: str) -> None:
    scope = TenantScope(tenant_id, Role.AGENT, "key:agent")
    opened = sessions.open_session(scope, SUBJECT, uow_factory=sql.uow_factory, clock=sql.clock)
    queue = RecordingQueue()
    racing = _meeting(sql.uow_factory, threading.Barrier(2))

    def end(_: int) -> Session | Conflict:
        try:
            return sessions.end_session(
                scope, opened.id, uow_factory=racing, clock=sql.clock, tasks=queue
            )
        except Conflict as conflict:
            return conflict

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(end, range(2)))

    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["Conflict", "Session"]
    assert queue.sent == [(tenant_id, opened.id)]
    with sql.uow_factory(tenant_id) as uow:
        stored = uow.sessions.get(opened.id)
        ended_events = [e for e in uow.audit.list_for_subject(SUBJECT) if e.kind == "session.ended"]
    assert stored is not None and stored.status is SessionStatus.ENDED
    assert len(ended_events) == 1


def test_a_transition_writes_only_from_the_expected_status(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    opened = make_session(tenant_id, SUBJECT, now)
    ended = replace(opened, status=SessionStatus.ENDED, ended_at=now)
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(opened)
        uow.commit()

    with store.uow_factory(tenant_id) as uow:
        assert uow.sessions.transition(ended, from_status=SessionStatus.OPEN) is True
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        again = replace(ended, ended_at=now.replace(year=2030))
        assert uow.sessions.transition(again, from_status=SessionStatus.OPEN) is False
        unknown = make_session(tenant_id, SUBJECT, now)
        assert uow.sessions.transition(unknown, from_status=SessionStatus.OPEN) is False
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.sessions.get(opened.id) == ended
        assert uow.sessions.get(unknown.id) is None
