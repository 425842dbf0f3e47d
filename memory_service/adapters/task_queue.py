"""The TaskQueue port: Celery when REDIS_URL is set, the same service call in-process otherwise.

Only ids go into a payload: a message sits on the broker, out of erasure's reach, so it
must never carry text. Tasks are sent by name, so the API process needs no task code.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
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
    """The embedded default: consolidation runs in one background thread, after the
    response, so ``POST .../end`` never waits for an LLM; ``inline`` runs it at once.

    The outbox entry is marked dispatched when the job is queued here. A run that fails on
    a transient error is retried a few times with backoff; one lost to a crash (the process
    killed mid-run) leaves its session ``ended`` with a dispatched entry, which the relay
    run at every start (:meth:`submit`, wired in ``bootstrap``) sends again. Jobs run one
    at a time, so two consolidations of one process never compete for the SQLite lock.
    """

    def __init__(
        self,
        consolidate: Callable[[str, str], object],
        *,
        inline: bool = False,
        retries: int = 3,
        backoff_seconds: float = 1.0,
    ) -> None:
        self._consolidate = consolidate
        self._inline = inline
        self._retries = retries
        self._backoff = backoff_seconds
        self._jobs: queue.Queue[Callable[[], object]] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        if self._inline:
            self._run_inline(tenant_id, session_id)
            return
        self.submit(lambda: self._run_with_retries(tenant_id, session_id))

    def submit(self, job: Callable[[], object]) -> None:
        """Run ``job`` in the background thread (inline mode: now)."""
        if self._inline:
            self._guarded(job)
            return
        with self._idle:
            self._pending += 1
        self._ensure_thread()
        self._jobs.put(job)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued job has run; False if ``timeout`` passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._work, name="memory-consolidation", daemon=True
                )
                self._thread.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                self._guarded(job)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    @staticmethod
    def _guarded(job: Callable[[], object]) -> None:
        try:
            job()
        except Exception as exc:  # a background job must never kill the thread
            # The type only: an exception's text may quote what the store was given.
            log.error("in-process background job failed (%s)", type(exc).__name__)

    def _run_with_retries(self, tenant_id: str, session_id: str) -> None:
        for attempt in range(self._retries + 1):
            try:
                self._consolidate(tenant_id, session_id)
                return
            except DependencyUnavailable:
                if attempt == self._retries:
                    break
                time.sleep(self._backoff * 2**attempt)
        log.error(
            "in-process consolidation of session %s failed %d times; the outbox relay "
            "sends it again at the next start",
            session_id,
            self._retries + 1,
        )

    def _run_inline(self, tenant_id: str, session_id: str) -> None:
        """A failure is reported as DependencyUnavailable, so the outbox entry stays
        pending instead of failing a request whose own work already committed."""
        try:
            self._consolidate(tenant_id, session_id)
        except DependencyUnavailable:
            raise
        except Exception as exc:
            log.error(
                "in-process consolidation of session %s failed (%s)",
                session_id,
                type(exc).__name__,
            )
            raise DependencyUnavailable("consolidation could not run; it stays queued") from exc
