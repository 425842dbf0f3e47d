"""Ending a session and saving a note are ordered by the subject's lock, on both databases.

Each round fires several notes and one end at the same session together. A note answers
either ``saved`` (then it was committed before the end, and the consolidation the end
queued counted it) or ``Conflict`` (409); no note is written after the end and left
active in a session that will never be consolidated again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.task_queue import InProcessTaskQueue
from memory_service.core.errors import Conflict
from memory_service.core.model import MemoryScope, NoteStatus, Role, SessionStatus
from memory_service.core.scope import TenantScope
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from memory_service.services.notes import NoteDeps, NoteResult, save_memory_note
from memory_service.services.sessions import end_session, open_session
from tests.integration.conftest import Store, sql_store
from tests.support.fakes import FixedClock
from tests.support.notes import FakeTenantPolicyStore, MarkerPii, NoLibraryIdentifiers

ROUNDS = 12
NOTES_PER_ROUND = 6


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def _race(calls: list[Callable[[], object]]) -> list[object]:
    """Run every call at once (a barrier releases them together); results or exceptions."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], object]) -> object:
        barrier.wait()
        try:
            return call()
        except Conflict as exc:
            return exc

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return [future.result() for future in [pool.submit(run, call) for call in calls]]


def test_no_note_is_saved_after_its_session_ended(sql: Store, tenant_id: str) -> None:
    scope = TenantScope(tenant_id, Role.AGENT, "key:agent")
    consolidation = ConsolidationDeps(uow_factory=sql.uow_factory, clock=sql.clock)
    notes_seen: dict[str, int] = {}

    def consolidate(tenant: str, session_id: str) -> object:
        report = consolidate_session(tenant, session_id, deps=consolidation)
        assert report is not None
        notes_seen[session_id] = report.notes
        return report

    tasks = InProcessTaskQueue(consolidate, inline=True)
    deps = NoteDeps(
        identifiers=NoLibraryIdentifiers(),
        uow_factory=sql.uow_factory,
        pii=MarkerPii(),
        policies=FakeTenantPolicyStore(),
        clock=sql.clock,
    )
    for round_ in range(ROUNDS):
        subject = f"cust-race-{round_}"
        session = open_session(scope, subject, uow_factory=sql.uow_factory, clock=sql.clock)

        def note(index: int, session_id: str = session.id, row: int = round_) -> object:
            arguments = {"text": f"Prefers seat {index} in row {row}."}
            return save_memory_note(scope, session_id, arguments, deps=deps)

        calls: list[Callable[[], object]] = [
            lambda index=index: note(index) for index in range(NOTES_PER_ROUND)
        ]
        end_at = NOTES_PER_ROUND // 2
        calls.insert(
            end_at,
            lambda session_id=session.id: end_session(
                scope, session_id, uow_factory=sql.uow_factory, clock=sql.clock, tasks=tasks
            ),
        )
        results = _race(calls)
        ended = results.pop(end_at)
        assert not isinstance(ended, Exception)
        saved = [r for r in results if isinstance(r, NoteResult)]
        # Every note is either saved before the end or answered 409: nothing else.
        assert all(r.status is NoteStatus.SAVED for r in saved)
        assert len(saved) + sum(isinstance(r, Conflict) for r in results) == NOTES_PER_ROUND

        with sql.uow_factory(tenant_id) as uow:
            stored = uow.sessions.get(session.id)
            notes = [
                m
                for m in uow.memories.list_for_session(session.id)
                if m.scope is MemoryScope.SESSION
            ]
        assert stored is not None and stored.status is SessionStatus.CONSOLIDATED
        # Every stored note was there when the one consolidation ran; none came later.
        assert len(notes) == len(saved) == notes_seen[session.id]
