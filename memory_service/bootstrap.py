"""The one place that wires: Settings in, concrete adapters out, handed to the services."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import Engine, text

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.tiktoken_counter import TiktokenCounter
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.adapters.yaml_state import dump_state_yaml
from memory_service.config import Settings
from memory_service.core.clock import SystemClock
from memory_service.core.ports import Clock, KeyStore, TaskQueue, UnitOfWorkFactory
from memory_service.services.context import ContextDeps
from memory_service.services.history import HistoryDeps

log = logging.getLogger("memory_service")


@dataclass
class Container:
    """Everything a request, a task or a command needs, built once per process."""

    settings: Settings
    engine: Engine
    uow_factory: UnitOfWorkFactory
    keys: KeyStore
    tasks: TaskQueue
    context: ContextDeps
    history: HistoryDeps
    clock: Clock = field(default_factory=SystemClock)

    def check_dependencies(self) -> dict[str, str]:
        """Each dependency as ``ok``, ``down`` or ``not_configured``; never an error detail."""
        checks = {"database": "ok", "broker": "not_configured"}
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except Exception:  # any failure means the same thing to a health probe
            checks["database"] = "down"
        if self.settings.redis_url:
            checks["broker"] = _ping_redis(self.settings.redis_url)
        return checks


def _ping_redis(url: str) -> str:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError:
        return "down"
    return "ok"


def build_container(settings: Settings) -> Container:
    """Adapters for these settings. Raises ConfigurationError before anything is served."""
    clock = SystemClock()
    engine = create_engine_for(settings.database_url)
    keyring = Keyring(settings.master_key())
    uow_factory = SqlUnitOfWorkFactory(engine, keyring, clock)
    return Container(
        settings=settings,
        engine=engine,
        uow_factory=uow_factory,
        keys=SqlKeyStore(engine, clock),
        tasks=_DeferredConsolidation(),
        context=ContextDeps(
            uow_factory=uow_factory,
            clock=clock,
            counter=TiktokenCounter(settings.tokenizer_model),  # built once: loading is slow
            dump_yaml=dump_state_yaml,
            max_global=settings.max_global_memories,
            manifest_retention=timedelta(days=settings.manifest_retention_days),
        ),
        history=HistoryDeps(
            uow_factory=uow_factory, clock=clock, keep_turns=settings.history_turns
        ),
        clock=clock,
    )


class _DeferredConsolidation:
    """Until the consolidation worker lands, ended sessions wait for the nightly sweep."""

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        log.info("consolidation of session %s deferred to the sweep", session_id)
