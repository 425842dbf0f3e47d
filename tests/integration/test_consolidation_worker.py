"""Consolidation by real Celery workers on the real Redis and PostgreSQL, judged by a fake LLM.

Two workers (the real ``memory-service worker`` command) serve the module; the fault
tests start their own on a private queue. Notes are seeded through the store, sessions
ended through the service, so the whole path runs: outbox, send, worker, lock, merge.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from sqlalchemy import Engine, text

from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.adapters.task_queue import CONSOLIDATE_SESSION, CeleryTaskQueue
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.config import Settings
from memory_service.core.clock import SystemClock
from memory_service.core.model import (
    AuditEvent,
    Durability,
    Memory,
    MemoryScope,
    MemoryStatus,
    Role,
    SessionStatus,
)
from memory_service.core.scope import TenantScope
from memory_service.services import outbox, sessions
from tests.factories import make_memory_for
from tests.support.celery_worker import RedisServer, WorkerProcess, wait_for
from tests.support.fake_llm import FakeLLM, Reply, Request, garbage, verdicts_by_text
from tests.support.scratch_database import keyring_for, scratch_postgres_service
from workers.celery_app import create_celery_app

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

EDITOR_OLD = "Uses VS Code as editor."
EDITOR_NEW = "Now uses Vim as editor."
SEAT = "Prefers aisle seats."
SEAT_PARAPHRASE = "Likes to sit on the aisle."
JUDGED = verdicts_by_text(
    {frozenset((EDITOR_OLD, EDITOR_NEW)): "conflict", frozenset((SEAT, SEAT_PARAPHRASE)): "same"}
)
WAIT = 30.0


@dataclass
class Stack:
    env: dict[str, str]
    engine: Engine
    uow_factory: SqlUnitOfWorkFactory
    app: Celery
    queue: CeleryTaskQueue
    log_dir: Path

    def worker(self, name: str, **env: str) -> WorkerProcess:
        return WorkerProcess({**self.env, **env}, name, self.log_dir)


def celery_queue(env: dict[str, str]) -> tuple[Celery, CeleryTaskQueue]:
    app = create_celery_app(Settings.from_env(env))
    return app, CeleryTaskQueue(app)


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def stack(
    postgres_url: str, redis_url: str, llm: FakeLLM, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    home = tmp_path_factory.mktemp("worker-home")
    with scratch_postgres_service(postgres_url) as service:
        database_url = service["DATABASE_URL"]
        env = {
            **service,
            "REDIS_URL": redis_url,
            "MEMORY_SERVICE_HOME": str(home),
            "OPENAI_BASE_URL": llm.base_url,
            "OPENAI_API_KEY": "test-key",
            "MEMORY_SERVICE_LLM_MODEL": "fake-model",
            "MEMORY_SERVICE_LLM_TIMEOUT": "20",
            "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-test-{secrets.token_hex(4)}",
            # Longer than any task here, so only a killed worker's message comes back.
            "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "60",
        }
        engine = create_engine_for(database_url)
        app, queue = celery_queue(env)
        stack = Stack(
            env,
            engine,
            SqlUnitOfWorkFactory(engine, keyring_for(env)),
            app,
            queue,
            home,
        )
        try:
            yield stack
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def workers(stack: Stack) -> Iterator[list[WorkerProcess]]:
    started = [stack.worker("a"), stack.worker("b")]
    try:
        yield [worker.wait_ready() for worker in started]
    finally:
        for worker in started:
            worker.stop()


@pytest.fixture
def scope() -> TenantScope:
    return TenantScope(tenant_id=f"t-{secrets.token_hex(5)}", role=Role.AGENT, actor="key:test")


@pytest.fixture(autouse=True)
def judged_by_table(llm: FakeLLM) -> None:
    llm.behaviour = JUDGED


def memory(
    scope: TenantScope,
    subject: str,
    text_: str,
    keywords: tuple[str, ...] = (),
    *,
    at: datetime | None = None,
    **fields: Any,
) -> Memory:
    """Five minutes old unless ``at`` says otherwise."""
    when = at or datetime.now(UTC) - timedelta(minutes=5)
    return make_memory_for(scope, subject, text_, keywords, at=when, **fields)


def add(stack: Stack, scope: TenantScope, *memories: Memory) -> None:
    with stack.uow_factory(scope.tenant_id) as uow:
        for item in memories:
            uow.memories.add(item)
        uow.commit()


def open_session(stack: Stack, scope: TenantScope, subject: str) -> str:
    return sessions.open_session(
        scope, subject, uow_factory=stack.uow_factory, clock=SystemClock()
    ).id


def end(stack: Stack, scope: TenantScope, session_id: str, queue: Any = None) -> None:
    sessions.end_session(
        scope,
        session_id,
        uow_factory=stack.uow_factory,
        clock=SystemClock(),
        tasks=queue or stack.queue,
    )


def vs_code_then_vim(stack: Stack, scope: TenantScope, subject: str) -> str:
    """A two-day-old global "VS Code" and an open session noting "Vim": a conflict to judge."""
    old = memory(scope, subject, EDITOR_OLD, ("editor",), at=datetime.now(UTC) - timedelta(days=2))
    add(stack, scope, old)
    session_id = open_session(stack, scope, subject)
    add(stack, scope, memory(scope, subject, EDITOR_NEW, ("editor",), session_id=session_id))
    return session_id


def session_status(stack: Stack, scope: TenantScope, session_id: str) -> SessionStatus | None:
    with stack.uow_factory(scope.tenant_id) as uow:
        session = uow.sessions.get(session_id)
    return session.status if session else None


def wait_consolidated(stack: Stack, scope: TenantScope, session_id: str) -> None:
    wait_for(
        lambda: session_status(stack, scope, session_id) is SessionStatus.CONSOLIDATED,
        timeout=WAIT,
        what=f"session {session_id} to be consolidated",
    )


def globals_of(stack: Stack, scope: TenantScope, subject: str) -> dict[str, Memory]:
    with stack.uow_factory(scope.tenant_id) as uow:
        found = uow.memories.list_for_subject(subject, scope=MemoryScope.GLOBAL)
    return {m.id: m for m in found}


def active_texts(stack: Stack, scope: TenantScope, subject: str) -> list[str]:
    found = globals_of(stack, scope, subject).values()
    return sorted(m.text for m in found if m.status is MemoryStatus.ACTIVE)


def events(stack: Stack, scope: TenantScope, subject: str, kind: str) -> list[AuditEvent]:
    with stack.uow_factory(scope.tenant_id) as uow:
        found = uow.audit.list_for_subject(subject)
    return [e for e in found if e.kind == kind]


def rows_of_tenant(stack: Stack, tenant_id: str) -> dict[str, list[Any]]:
    """Every row the tenant holds, raw, to compare before and after a repeat."""
    dump: dict[str, list[Any]] = {}
    with stack.engine.connect() as connection:
        for table in ("memories", "sessions", "audit_events", "subjects"):
            rows = connection.execute(
                text(f"SELECT * FROM {table} WHERE tenant_id = :t ORDER BY 1"),
                {"t": tenant_id},
            )
            dump[table] = [tuple(row) for row in rows]
    return dump


def run_task(stack: Stack, worker_logs: list[WorkerProcess], scope: TenantScope, sid: str) -> None:
    """Send the task by hand and wait until a worker reports it done."""
    task_id = stack.app.send_task(CONSOLIDATE_SESSION, args=[scope.tenant_id, sid]).id
    wait_for(
        lambda: any(w.succeeded(task_id) for w in worker_logs),
        timeout=WAIT,
        what=f"task {task_id} to succeed",
    )


def test_a_worker_merges_duplicates_paraphrases_and_supersedes_vs_code_by_vim(
    stack: Stack, workers: list[WorkerProcess], llm: FakeLLM, scope: TenantScope
) -> None:
    subject = "subject-main-1"
    long_ago = datetime.now(UTC) - timedelta(days=30)
    old_editor = memory(scope, subject, EDITOR_OLD, ("editor",), at=long_ago)
    seat = memory(scope, subject, SEAT, ("seat",), at=long_ago)
    add(stack, scope, old_editor, seat)
    session_id = open_session(stack, scope, subject)
    notes = [
        memory(scope, subject, EDITOR_NEW, ("editor",), session_id=session_id),
        memory(scope, subject, SEAT_PARAPHRASE, ("seat",), session_id=session_id),
        memory(scope, subject, "Speaks Portuguese.", ("language",), session_id=session_id),
        memory(scope, subject, "speaks portuguese", ("language",), session_id=session_id),
        # A passing state the guards refuse outright (one they only hold for confirmation is
        # never active unless the user confirmed it, and then it is kept).
        memory(scope, subject, "Is having dinner with the team tonight.", session_id=session_id),
        memory(
            scope,
            subject,
            "Wants the window seat.",
            session_id=session_id,
            durability=Durability.SESSION,
        ),
    ]
    add(stack, scope, *notes)
    requests_before = len(llm.requests)

    end(stack, scope, session_id)
    wait_consolidated(stack, scope, session_id)

    # The paraphrase judged the same keeps the seat's memory and id, in the newer wording.
    assert active_texts(stack, scope, subject) == [
        SEAT_PARAPHRASE,
        EDITOR_NEW,
        "Speaks Portuguese.",
    ]
    memories = globals_of(stack, scope, subject)
    vim = next(m for m in memories.values() if m.text == EDITOR_NEW)
    assert memories[old_editor.id].status is MemoryStatus.SUPERSEDED
    assert memories[old_editor.id].superseded_by == vim.id
    assert memories[old_editor.id].superseded_at is not None
    assert notes[1].id in memories[seat.id].provenance.derived_from  # the paraphrase merged
    portuguese = next(m for m in memories.values() if m.text == "Speaks Portuguese.")
    assert set(portuguese.provenance.derived_from) == {notes[2].id, notes[3].id}
    with stack.uow_factory(scope.tenant_id) as uow:
        stored_notes = {m.id: m for m in uow.memories.list_for_session(session_id)}
    assert stored_notes[notes[4].id].status is MemoryStatus.EXPIRED  # ephemeral
    assert stored_notes[notes[5].id].status is MemoryStatus.EXPIRED  # session-only
    assert len(llm.requests) == requests_before + 1  # one batched call for the session
    [run] = events(stack, scope, subject, "consolidation.run")
    assert run.details["model"] == "fake-model"
    assert run.details["judge_pairs"] >= 2 and run.details["prompt_tokens"] > 0
    assert "Portuguese" not in json.dumps(
        [e.details for e in events(stack, scope, subject, "consolidation.decision")]
    )

    before = rows_of_tenant(stack, scope.tenant_id)
    run_task(stack, workers, scope, session_id)  # a second run changes nothing
    assert rows_of_tenant(stack, scope.tenant_id) == before


def test_on_a_tie_the_session_note_wins(
    stack: Stack, workers: list[WorkerProcess], scope: TenantScope
) -> None:
    subject = "subject-tie-1"
    at = datetime.now(UTC) - timedelta(hours=1)
    old = memory(scope, subject, EDITOR_OLD, ("editor",), at=at)
    add(stack, scope, old)
    session_id = open_session(stack, scope, subject)
    add(stack, scope, memory(scope, subject, EDITOR_NEW, ("editor",), session_id=session_id, at=at))

    end(stack, scope, session_id)
    wait_consolidated(stack, scope, session_id)

    assert active_texts(stack, scope, subject) == [EDITOR_NEW]
    reasons = {e.details["reason"] for e in events(stack, scope, subject, "consolidation.decision")}
    # The decision says why the two conflict; on the tie the session note won.
    assert "judged_conflict" in reasons


def test_garbage_from_the_llm_falls_back_to_the_rules(
    stack: Stack, workers: list[WorkerProcess], llm: FakeLLM, scope: TenantScope
) -> None:
    llm.behaviour = garbage
    subject = "subject-garbage-1"
    session_id = vs_code_then_vim(stack, scope, subject)

    end(stack, scope, session_id)
    wait_consolidated(stack, scope, session_id)

    assert active_texts(stack, scope, subject) == [EDITOR_NEW]  # not "keep everything"
    [run] = events(stack, scope, subject, "consolidation.run")
    assert run.details["judge_failed"] is True
    decisions = events(stack, scope, subject, "consolidation.decision")
    [conflict] = [d.details for d in decisions if d.details["kind"] == "conflict"]
    assert conflict["decided_by"] == "rules"


def test_a_task_for_an_erased_subject_does_nothing(
    stack: Stack, workers: list[WorkerProcess], scope: TenantScope
) -> None:
    subject = "subject-erased-1"
    session_id = open_session(stack, scope, subject)
    add(stack, scope, memory(scope, subject, SEAT, ("seat",), session_id=session_id))

    class Held:
        def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
            """Keep the task back until the subject is erased."""

    end(stack, scope, session_id, queue=Held())
    with stack.uow_factory(scope.tenant_id) as uow:
        uow.erasure.erase_subject(subject)
        uow.commit()
    before = rows_of_tenant(stack, scope.tenant_id)

    run_task(stack, workers, scope, session_id)

    assert rows_of_tenant(stack, scope.tenant_id) == before
    assert not before["memories"] and not before["sessions"]
    assert [row for row in before["subjects"] if row[2] is not None] == []  # no key came back


def test_two_workers_racing_on_one_subject_give_one_result(
    stack: Stack, workers: list[WorkerProcess], llm: FakeLLM, scope: TenantScope
) -> None:
    release = threading.Event()

    def slow(request: Request) -> Reply:
        release.wait(5)  # hold the first worker inside its locked transaction
        return JUDGED(request)

    llm.behaviour = slow
    subject = "subject-race-1"
    first = vs_code_then_vim(stack, scope, subject)
    second = open_session(stack, scope, subject)
    add(stack, scope, memory(scope, subject, EDITOR_NEW, ("editor",), session_id=second))
    done_before = [w.succeeded() for w in workers]

    calls = len(llm.requests)
    end(stack, scope, first)
    wait_for(
        lambda: len(llm.requests) > calls,
        timeout=WAIT,
        what="the first worker to call the LLM",
    )
    end(stack, scope, second)
    release.set()
    wait_consolidated(stack, scope, first)
    wait_consolidated(stack, scope, second)

    assert active_texts(stack, scope, subject) == [EDITOR_NEW]
    [vim] = [
        m for m in globals_of(stack, scope, subject).values() if m.status is MemoryStatus.ACTIVE
    ]
    assert len(vim.provenance.derived_from) == 2  # both sessions' notes, one memory
    assert [w.succeeded() - n for w, n in zip(workers, done_before, strict=True)] == [1, 1]
    assert len(events(stack, scope, subject, "consolidation.run")) == 2


def test_a_worker_killed_mid_task_is_redelivered_and_completes_once(
    stack: Stack, llm: FakeLLM, scope: TenantScope
) -> None:
    private = {
        "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-kill-{secrets.token_hex(4)}",
        # Short, so the killed worker's unacknowledged message comes back within the test.
        "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "3",
        "MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL": "1",
    }
    _, queue = celery_queue({**stack.env, **private})
    release = threading.Event()

    def stuck(request: Request) -> Reply:
        release.wait(20)
        return JUDGED(request)

    llm.behaviour = stuck
    subject = "subject-killed-1"
    session_id = vs_code_then_vim(stack, scope, subject)
    victim = stack.worker("victim", **private).wait_ready()
    calls = len(llm.requests)
    try:
        end(stack, scope, session_id, queue=queue)
        wait_for(lambda: len(llm.requests) > calls, timeout=WAIT, what="the task to start")
        victim.kill()  # SIGKILL inside the locked transaction, before any ack
    finally:
        victim.stop()
    release.set()
    llm.behaviour = JUDGED
    assert session_status(stack, scope, session_id) is SessionStatus.ENDED  # nothing committed

    heir = stack.worker("heir", **private).wait_ready()
    try:
        wait_consolidated(stack, scope, session_id)
    finally:
        heir.stop()

    assert active_texts(stack, scope, subject) == [EDITOR_NEW]
    assert len(events(stack, scope, subject, "consolidation.run")) == 1


KILL_BATCH = 6
RECOVERY_LIMIT = 120.0


def test_on_rabbitmq_a_worker_killed_mid_batch_costs_seconds_not_an_hour(
    stack: Stack, llm: FakeLLM, scope: TenantScope, amqp_url: str
) -> None:
    """A batch of ends, a worker SIGKILLed mid-batch: with the broker's default
    visibility timeout of an hour, every session is still consolidated exactly once within
    two minutes, because RabbitMQ puts back the dead consumer's unacknowledged message."""
    private = {
        "CELERY_BROKER_URL": amqp_url,
        "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-amqp-{secrets.token_hex(4)}",
        "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "3600",  # the default: no help from a timeout
    }
    _, queue = celery_queue({**stack.env, **private})

    def slow(request: Request) -> Reply:
        time.sleep(0.3)  # each consolidation takes a while, so the kill lands mid-batch
        return JUDGED(request)

    llm.behaviour = slow
    subjects = [f"subject-batch-{index}" for index in range(KILL_BATCH)]
    session_ids = [vs_code_then_vim(stack, scope, subject) for subject in subjects]
    # Both consume from the start (a deployment runs several workers): the survivor takes
    # over the queue and, once RabbitMQ puts it back, the message the victim died with.
    victim, heir = stack.worker("batch-victim", **private), stack.worker("batch-heir", **private)
    try:
        victim.wait_ready()
        heir.wait_ready()
        for session_id in session_ids:
            end(stack, scope, session_id, queue=queue)
        wait_for(lambda: victim.succeeded() >= 1, timeout=WAIT, what="a first consolidation")
        victim.kill()  # SIGKILL while it holds the next one, unacknowledged
        killed_at = time.monotonic()
        for session_id in session_ids:

            def consolidated(session_id: str = session_id) -> bool:
                return session_status(stack, scope, session_id) is SessionStatus.CONSOLIDATED

            wait_for(
                consolidated,
                timeout=RECOVERY_LIMIT - (time.monotonic() - killed_at),
                what=f"session {session_id} to be consolidated",
            )
    finally:
        victim.stop()
        heir.stop()
        llm.behaviour = JUDGED

    # The bound is the wait_for timeouts above (RECOVERY_LIMIT in all): no timing assert here.
    for subject in subjects:
        assert len(events(stack, scope, subject, "consolidation.run")) == 1, subject


def test_an_end_while_redis_is_down_is_consolidated_after_it_restarts(
    stack: Stack, scope: TenantScope
) -> None:
    redis = RedisServer().start()
    env = {**stack.env, "REDIS_URL": redis.url}
    _, queue = celery_queue(env)
    worker = stack.worker("redis-restart", REDIS_URL=redis.url).wait_ready()
    subject = "subject-redis-1"
    try:
        session_id = open_session(stack, scope, subject)
        add(stack, scope, memory(scope, subject, SEAT, ("seat",), session_id=session_id))
        redis.stop()

        end(stack, scope, session_id, queue=queue)  # the end commits; the send fails

        assert session_status(stack, scope, session_id) is SessionStatus.ENDED
        maintenance = SqlMaintenanceStore(stack.engine)
        later = datetime.now(UTC) + timedelta(minutes=5)
        [pending] = [
            e
            for e in maintenance.pending_outbox(created_before=later, limit=1000)
            if e.session_id == session_id
        ]
        redis.start()
        relay = outbox.relay_outbox(
            maintenance=maintenance,
            uow_factory=stack.uow_factory,
            tasks=queue,
            clock=SystemClock(),
            min_age=timedelta(0),
        )
        assert relay >= 1
        wait_consolidated(stack, scope, session_id)
    finally:
        worker.stop()
        redis.stop()

    assert active_texts(stack, scope, subject) == [SEAT]
    assert pending.id not in {
        e.id for e in maintenance.pending_outbox(created_before=later, limit=1000)
    }
