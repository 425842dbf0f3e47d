"""The TaskQueue port: Celery when REDIS_URL is set, the same service call in-process otherwise.

Only ids go into a payload: a message sits on the broker, out of erasure's reach, so it
must never carry text. Tasks are sent by name, so the API process needs no task code.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import Celery
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

from memory_service.core.errors import DependencyUnavailable

log = logging.getLogger(__name__)

CONSOLIDATE_SESSION = "memory.consolidate_session"
CONSOLIDATE_DUE_SESSIONS = "memory.consolidate_due_sessions"
EXPIRE_DUE_MEMORIES = "memory.expire_due_memories"
RELAY_OUTBOX = "memory.relay_outbox"

_BROKER_FAILURES = (KombuOperationalError, RedisError, OSError)


class CeleryTaskQueue:
    def __init__(self, app: Celery) -> None:
        self._app = app

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        """Raises DependencyUnavailable when the broker cannot take the message."""
        try:
            self._app.send_task(CONSOLIDATE_SESSION, args=[tenant_id, session_id])
        except _BROKER_FAILURES as exc:
            raise DependencyUnavailable("the task broker is unavailable; retry later") from exc


class InProcessTaskQueue:
    """The embedded default: run the consolidation right away, after the end committed.

    A failure is reported as DependencyUnavailable, so the outbox entry stays pending
    instead of failing a request whose own work already committed.
    """

    def __init__(self, consolidate: Callable[[str, str], object]) -> None:
        self._consolidate = consolidate

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        try:
            self._consolidate(tenant_id, session_id)
        except DependencyUnavailable:
            raise
        except Exception as exc:
            # The type only: an exception's text may quote what the store was given.
            log.error(
                "in-process consolidation of session %s failed (%s)",
                session_id,
                type(exc).__name__,
            )
            raise DependencyUnavailable("consolidation could not run; it stays queued") from exc
