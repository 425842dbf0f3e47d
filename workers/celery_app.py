"""The Celery app: Redis broker, JSON only, late acknowledgement, and the beat schedule.

Tasks are idempotent (see ``services/consolidation.py``), so they are acknowledged only
after they ran (``task_acks_late``) and put back when their worker dies
(``task_reject_on_worker_lost``); on Redis an unacknowledged message comes back after
the visibility timeout, which must exceed the longest task. Each worker process takes
one message at a time, so a slow consolidation never holds others hostage.

Settings beyond ``Settings`` (read here until they move there):

- ``MEMORY_SERVICE_CELERY_NAMESPACE``: queue name and Redis key prefix, so two
  deployments (or test runs) can share one Redis without seeing each other's messages.
- ``MEMORY_SERVICE_VISIBILITY_TIMEOUT``: seconds before an unacknowledged message is
  delivered again (default 3600); ``MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL`` how often
  workers look for such messages (default 10 s). The outbox relay sends again a
  consolidation dispatched longer ago than the timeout plus :data:`REDELIVERY_MARGIN` whose
  session is still ``ended``: Redis lost it (see ``services/outbox.py``).
- ``MEMORY_SERVICE_IDLE_SESSION_HOURS``: an open session with no activity for this long
  is ended and consolidated by the nightly sweep (default 24).
- ``MEMORY_SERVICE_SWEEP_HOUR``: UTC hour of the nightly sweep and expiry (default 3).
"""

from __future__ import annotations

import logging
import os
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from celery import Celery
from celery.schedules import crontab

from memory_service.adapters.task_queue import (
    CONSOLIDATE_DUE_SESSIONS,
    EXPIRE_DUE_MEMORIES,
    RELAY_OUTBOX,
)
from memory_service.config import ConfigurationError, Settings

# Defined here rather than with the other names: only beat and the worker send it.
PURGE_EXPIRED_MEMORIES = "memory.purge_expired_memories"
PURGE_EXPIRED_MANIFESTS = "memory.purge_expired_manifests"

# Past the visibility timeout, a task may still be retrying legitimately: the backoff of
# ``workers.tasks.RETRY`` adds up to about 8.5 minutes (2 + 4 + ... + 256 s).
REDELIVERY_MARGIN = timedelta(minutes=10)


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name) or ""
    try:
        return int(raw) if raw else default
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be an integer") from exc


@dataclass(frozen=True)
class WorkerSettings:
    namespace: str
    visibility_timeout: int
    unacked_restore_interval: int
    idle_after: timedelta
    sweep_hour: int

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WorkerSettings:
        env = os.environ if env is None else env
        return cls(
            namespace=env.get("MEMORY_SERVICE_CELERY_NAMESPACE") or "memory-service",
            visibility_timeout=_int(env, "MEMORY_SERVICE_VISIBILITY_TIMEOUT", 3600),
            unacked_restore_interval=_int(env, "MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL", 10),
            idle_after=timedelta(hours=_int(env, "MEMORY_SERVICE_IDLE_SESSION_HOURS", 24)),
            sweep_hour=_int(env, "MEMORY_SERVICE_SWEEP_HOUR", 3),
        )

    @property
    def redelivery_after(self) -> timedelta:
        """How long after a dispatch the outbox relay takes a still-``ended`` session's
        message for lost: by then Redis would have delivered an unacknowledged one again."""
        return timedelta(seconds=self.visibility_timeout) + REDELIVERY_MARGIN


class ExceptionTypeOnly(logging.Filter):
    """Celery logs a failed or retried task with its exception's message and traceback text.
    A message can quote what a database driver was given, so, as the API does, only the
    exception's type and the frames are kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc_type: type[BaseException] | None = None
        frames = ""
        if record.exc_info and record.exc_info[0] is not None:
            exc_type, _, tb = record.exc_info
            frames = "".join(traceback.format_tb(tb))
            record.exc_info = None
            record.exc_text = None
        context = record.args
        if isinstance(context, Mapping) and "exc" in context:
            redacted = dict(context)
            redacted["exc"] = exc_type.__name__ if exc_type else "error (message withheld)"
            if "traceback" in redacted:
                redacted["traceback"] = frames
            record.args = redacted
        return True


_TASK_LOGGERS = ("celery.app.trace", "celery.worker.request")


def create_celery_app(settings: Settings, worker: WorkerSettings | None = None) -> Celery:
    """The app for these settings; the API process uses it only to send tasks by name."""
    if not settings.redis_url:
        raise ConfigurationError("REDIS_URL is required for the Celery app")
    worker = worker or WorkerSettings.from_env()
    for name in _TASK_LOGGERS:
        task_logger = logging.getLogger(name)
        if not any(isinstance(f, ExceptionTypeOnly) for f in task_logger.filters):
            task_logger.addFilter(ExceptionTypeOnly())
    app = Celery("memory_service", broker=settings.redis_url, include=["workers.tasks"])
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,  # nobody waits on a result: none is stored
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue=worker.namespace,
        broker_transport_options={
            "visibility_timeout": worker.visibility_timeout,
            "unacked_restore_interval": worker.unacked_restore_interval,
            "unacked_restore_throttle": 1,
            "global_keyprefix": f"{worker.namespace}:",
            "socket_connect_timeout": 2,
        },
        broker_connection_retry_on_startup=True,
        # A send to a Redis that is down fails fast; the outbox keeps the work.
        task_publish_retry_policy={
            "max_retries": 2,
            "interval_start": 0,
            "interval_step": 0.2,
            "interval_max": 0.5,
        },
        enable_utc=True,
        timezone="UTC",
        worker_hijack_root_logger=False,
        beat_schedule_filename=str(settings.home / "celerybeat-schedule"),
        beat_schedule={
            "consolidate-due-sessions": {
                "task": CONSOLIDATE_DUE_SESSIONS,
                "schedule": crontab(hour=worker.sweep_hour, minute=0),
            },
            "expire-due-memories": {
                "task": EXPIRE_DUE_MEMORIES,
                "schedule": crontab(hour=worker.sweep_hour, minute=30),
            },
            "relay-consolidation-outbox": {"task": RELAY_OUTBOX, "schedule": 60.0},
            # After expiry: what has been expired for longer than the grace period goes.
            "purge-expired-memories": {
                "task": PURGE_EXPIRED_MEMORIES,
                "schedule": crontab(hour=worker.sweep_hour, minute=45),
            },
            "purge-expired-manifests": {
                "task": PURGE_EXPIRED_MANIFESTS,
                "schedule": crontab(hour=worker.sweep_hour, minute=50),
            },
        },
    )
    return app


def _default_app() -> Celery:
    """The app ``celery -A workers.celery_app`` finds (the compose health check pings with it).

    A bare app when REDIS_URL is unset, so importing this module never fails; the
    ``worker`` and ``beat`` commands refuse to start without REDIS_URL anyway.
    """
    settings = Settings.from_env()
    return create_celery_app(settings) if settings.redis_url else Celery("memory_service")


app = _default_app()
