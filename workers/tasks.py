"""Thin tasks: ids in, one service call, nothing else.

Each worker process builds its container (engine, keyring, judge) on first use, after
the fork, so no database connection is ever shared between processes. Only transient
failures (``DependencyUnavailable``: database, broker) are retried, with exponential
backoff and jitter; a domain error is never retried.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from typing import Any

from celery import shared_task

from memory_service.adapters.task_queue import (
    CONSOLIDATE_DUE_SESSIONS,
    CONSOLIDATE_SESSION,
    EXPIRE_DUE_MEMORIES,
    RELAY_OUTBOX,
)
from memory_service.bootstrap import Container, build_container
from memory_service.core.errors import DependencyUnavailable
from memory_service.services import consolidation, context, outbox, retention
from memory_service.warm import models_loaded_by, warm_statements
from workers.celery_app import (
    PURGE_EXPIRED_MANIFESTS,
    PURGE_EXPIRED_MEMORIES,
    SCRUB_KEY_STORE,
    WORKER_PROCESS,
    worker_settings,
)

log = logging.getLogger("memory_service.worker")

RETRY: dict[str, Any] = {
    "autoretry_for": (DependencyUnavailable,),
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 8,
}


@cache
def _container() -> Container:
    return build_container(worker_settings())


def warm_container() -> None:
    """Build this process's container before its first task, then run the hot statements
    once on it, rolled back (:func:`memory_service.warm.warm_statements`), so the first task
    compiles nothing and meets a connection that has seen its tables. A failure of either
    (the database not up yet) is logged and left to the first task, which builds the
    container again and retries as usual."""
    try:
        container = _container()
    except Exception as exc:  # logged by type only: a message could quote a URL
        log.warning(
            "container not built at start (%s); the first task builds it", type(exc).__name__
        )
        return
    warm_statements(container)


@shared_task(name=WORKER_PROCESS)
def worker_process() -> None:
    """Logs which process ran it and which loaded its models: a check for operators (and
    the warm-worker test) that the pool's children run on their parent's models."""
    log.info(
        "task ran in process %d on models loaded by process %s", os.getpid(), models_loaded_by()
    )


@shared_task(name=CONSOLIDATE_SESSION, **RETRY)
def consolidate_session(tenant_id: str, session_id: str) -> None:
    """Queued when a session ends; a second run finds it consolidated and does nothing."""
    container = _container()
    report = consolidation.consolidate_session(tenant_id, session_id, deps=container.consolidation)
    container.metrics.consolidation_finished(report)


@shared_task(name=CONSOLIDATE_DUE_SESSIONS, **RETRY)
def consolidate_due_sessions() -> None:
    """Nightly: queue what was missed, end and queue idle sessions."""
    container = _container()
    consolidation.consolidate_due_sessions(
        maintenance=container.maintenance,
        uow_factory=container.uow_factory,
        tasks=container.tasks,
        clock=container.clock,
        idle_after=container.settings.idle_after,
    )


@shared_task(name=EXPIRE_DUE_MEMORIES, **RETRY)
def expire_due_memories() -> None:
    """Nightly: memories past their retention become ``expired``."""
    container = _container()
    consolidation.expire_due_memories(
        maintenance=container.maintenance, uow_factory=container.uow_factory, clock=container.clock
    )


@shared_task(name=PURGE_EXPIRED_MEMORIES, **RETRY)
def purge_expired_memories() -> None:
    """Nightly, after expiry: memories past retention and grace leave the store."""
    container = _container()
    retention.purge_expired_memories(
        store=container.retention_store, policy=container.admin.retention, clock=container.clock
    )


@shared_task(name=PURGE_EXPIRED_MANIFESTS, **RETRY)
def purge_expired_manifests() -> None:
    """Nightly: context manifests kept past their retention leave the store."""
    container = _container()
    context.purge_expired_manifests(
        maintenance=container.maintenance, uow_factory=container.uow_factory, clock=container.clock
    )


@shared_task(name=SCRUB_KEY_STORE, **RETRY)
def scrub_key_store() -> None:
    """Nightly: destroyed keys a long transaction kept in the key store's files go."""
    _container().keyring.store.scrub()


@shared_task(name=RELAY_OUTBOX)
def relay_outbox() -> None:
    """Every minute: send the consolidations a broker outage kept in the outbox, and again
    those the broker lost (dispatched before the redelivery horizon, still not consolidated).

    Not retried: the next minute's run is the retry.
    """
    container = _container()
    outbox.relay_outbox(
        maintenance=container.maintenance,
        uow_factory=container.uow_factory,
        tasks=container.tasks,
        clock=container.clock,
        redeliver_after=container.settings.redelivery_after,
    )
