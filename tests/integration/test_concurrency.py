"""Concurrent writers on the real databases: every write lands, the subject lock serialises."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from memory_service.adapters.crypto import Keyring
from memory_service.core.model import SubjectState
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock

THREADS = 4
MEMORIES_PER_THREAD = 8
INCREMENTS_PER_THREAD = 10
SUBJECT = "cust-busy-1"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def _run_in_threads(work: Callable[[int], None]) -> None:
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for result in [pool.submit(work, worker) for worker in range(THREADS)]:
            result.result()  # re-raises a worker's failure


def test_concurrent_writers_to_one_new_subject_lose_nothing(sql: Store, tenant_id: str) -> None:
    def write(worker: int) -> None:
        for index in range(MEMORIES_PER_THREAD):
            memory = make_memory(
                tenant_id, SUBJECT, sql.clock.now(), text=f"Fact {worker}-{index} holds."
            )
            with sql.uow_factory(tenant_id) as uow:
                uow.memories.add(memory)
                uow.commit()

    _run_in_threads(write)

    with sql.uow_factory(tenant_id) as uow:
        texts = {memory.text for memory in uow.memories.list_for_subject(SUBJECT)}
    assert len(texts) == THREADS * MEMORIES_PER_THREAD


def test_concurrent_first_sessions_of_one_subject_all_land_on_one_key(
    sql: Store, tenant_id: str
) -> None:
    """Threads open the first session of the same new subject at once: one of them gives it
    its key (``SubjectKeys.keyed``), the others find that row taken and read the key."""
    rounds = 6
    start = threading.Barrier(THREADS)

    def open_sessions(_worker: int) -> None:
        for round_ in range(rounds):
            start.wait()
            with sql.uow_factory(tenant_id) as uow:
                uow.sessions.add(make_session(tenant_id, f"cust-new-{round_}", sql.clock.now()))
                uow.commit()

    _run_in_threads(open_sessions)

    with sql.uow_factory(tenant_id) as uow:
        for round_ in range(rounds):
            subject = f"cust-new-{round_}"
            assert len(uow.sessions.list_for_subject(subject)) == THREADS
            assert uow.subjects.lock_if_present(subject) is True


def test_the_subject_lock_serialises_read_modify_write(sql: Store, tenant_id: str) -> None:
    def increment(_worker: int) -> None:
        for _ in range(INCREMENTS_PER_THREAD):
            with sql.uow_factory(tenant_id) as uow:
                uow.subjects.lock(SUBJECT)
                current = uow.subjects.get_state(SUBJECT)
                count = current.state["count"] if current else 0
                uow.subjects.put_state(
                    SubjectState(tenant_id, SUBJECT, {"count": count + 1}, sql.clock.now())
                )
                uow.commit()

    _run_in_threads(increment)

    with sql.uow_factory(tenant_id) as uow:
        final = uow.subjects.get_state(SUBJECT)
    assert final is not None
    assert final.state["count"] == THREADS * INCREMENTS_PER_THREAD
