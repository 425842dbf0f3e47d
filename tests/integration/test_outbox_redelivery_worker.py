"""A consolidation lost with Redis is sent again by the relay and runs exactly once.

A private redis-server without persistence takes the message, then restarts empty before
any worker has seen it: the outbox entry says dispatched, the session stays ``ended``.
The relay, run with a tiny redelivery horizon, sends it again and a real worker
consolidates it; a second relay finds nothing left to send.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session as DbSession
from sqlmodel import col

from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.adapters.tables import ConsolidationOutboxRow
from memory_service.adapters.task_queue import CeleryTaskQueue
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.config import Settings
from memory_service.core.clock import SystemClock
from memory_service.core.model import MemoryScope, SessionStatus
from memory_service.core.scope import TenantScope
from memory_service.services import outbox, sessions
from tests.factories import make_memory, make_scope
from tests.support.celery_worker import RedisServer, WorkerProcess, wait_for
from tests.support.scratch_database import keyring_for, scratch_postgres_service
from workers.celery_app import create_celery_app

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUBJECT = "subject-lost-1"


@dataclass
class Deployment:
    """A scratch database of its own (so the relay sees only this test's entries) and a
    private Redis, with what the test needs to end sessions and run the relay."""

    env: dict[str, str]
    engine: Engine
    uow_factory: SqlUnitOfWorkFactory
    queue: CeleryTaskQueue
    redis: RedisServer
    home: Path

    def relay(self) -> int:
        return outbox.relay_outbox(
            maintenance=SqlMaintenanceStore(self.engine),
            uow_factory=self.uow_factory,
            tasks=self.queue,
            clock=SystemClock(),
            redeliver_after=timedelta(0),
        )


@pytest.fixture
def deployment(postgres_url: str, tmp_path: Path) -> Iterator[Deployment]:
    server = RedisServer().start()
    try:
        with scratch_postgres_service(postgres_url) as service:
            database_url = service["DATABASE_URL"]
            env = {
                **service,
                "REDIS_URL": server.url,
                "MEMORY_SERVICE_HOME": str(tmp_path),
                "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-lost-{secrets.token_hex(4)}",
                "OPENAI_API_KEY": "",  # the deterministic path: no LLM in this test
                "OPENAI_BASE_URL": "",
            }
            app = create_celery_app(Settings.from_env(env))
            engine = create_engine_for(database_url)
            try:
                yield Deployment(
                    env,
                    engine,
                    SqlUnitOfWorkFactory(engine, keyring_for(env)),
                    CeleryTaskQueue(app),
                    server,
                    tmp_path,
                )
            finally:
                engine.dispose()
    finally:
        server.stop()


def session_status(deployment: Deployment, scope: TenantScope, session_id: str) -> SessionStatus:
    with deployment.uow_factory(scope.tenant_id) as uow:
        session = uow.sessions.get(session_id)
    assert session is not None
    return session.status


def outbox_row(deployment: Deployment, session_id: str) -> tuple[int, datetime | None]:
    row = ConsolidationOutboxRow
    with DbSession(deployment.engine) as db:
        attempts, dispatched_at = db.execute(
            select(col(row.attempts), col(row.dispatched_at)).where(
                col(row.session_id) == session_id
            )
        ).one()
    return attempts, dispatched_at


def test_a_consolidation_lost_in_a_redis_restart_is_sent_again_and_runs_once(
    deployment: Deployment,
) -> None:
    scope = make_scope(f"t-{secrets.token_hex(5)}")
    clock = SystemClock()
    opened = sessions.open_session(scope, SUBJECT, uow_factory=deployment.uow_factory, clock=clock)
    with deployment.uow_factory(scope.tenant_id) as uow:
        uow.memories.add(
            make_memory(
                "Prefers aisle seats.",
                at=datetime.now(UTC),
                tenant_id=scope.tenant_id,
                subject_id=SUBJECT,
                scope=MemoryScope.SESSION,
                session_id=opened.id,
            )
        )
        uow.commit()
    sessions.end_session(
        scope, opened.id, uow_factory=deployment.uow_factory, clock=clock, tasks=deployment.queue
    )
    attempts, first_dispatch = outbox_row(deployment, opened.id)
    assert attempts == 1 and first_dispatch is not None  # Redis took the message

    deployment.redis.stop()  # no persistence: the message goes with it
    deployment.redis.start()
    assert redis.Redis.from_url(deployment.redis.url).dbsize() == 0
    worker = WorkerProcess(deployment.env, "lost", deployment.home).wait_ready()
    try:
        assert session_status(deployment, scope, opened.id) is SessionStatus.ENDED

        assert deployment.relay() == 1

        wait_for(
            lambda: session_status(deployment, scope, opened.id) is SessionStatus.CONSOLIDATED,
            timeout=30,
            what="the session sent again to be consolidated",
        )
        assert deployment.relay() == 0  # consolidated: nothing left to send
    finally:
        worker.stop()

    attempts, last_dispatch = outbox_row(deployment, opened.id)
    assert attempts == 2 and last_dispatch is not None and last_dispatch > first_dispatch
    with deployment.uow_factory(scope.tenant_id) as uow:
        runs = [e for e in uow.audit.list_for_subject(SUBJECT) if e.kind == "consolidation.run"]
        memories = uow.memories.list_for_subject(SUBJECT, scope=MemoryScope.GLOBAL)
    assert len(runs) == 1
    assert [m.text for m in memories] == ["Prefers aisle seats."]
