"""The Celery app: JSON only, late acknowledgement, and the beat schedule.

Tasks are idempotent (see ``services/consolidation.py``), so they are acknowledged only
after they ran (``task_acks_late``) and put back when their worker dies
(``task_reject_on_worker_lost``). Each worker process takes one message at a time
(prefetch 1), so a slow consolidation never holds others hostage, and a worker killed
mid-task holds back only the message it was running.

What a dead worker costs depends on the broker (``Settings.broker_url``):

- RabbitMQ (``CELERY_BROKER_URL=amqp://...``, the production default of
  ``docker-compose.yml``) redelivers an unacknowledged message as soon as the consumer's
  connection drops: a ``kill -9`` costs seconds.
- Redis (``REDIS_URL`` alone, as before) has no consumer connections to watch: an
  unacknowledged message comes back only after ``MEMORY_SERVICE_VISIBILITY_TIMEOUT``
  (default 3600 s), which must exceed the longest task; workers look for such messages
  every ``MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL`` seconds.

The outbox relay sends again a consolidation dispatched longer ago than
``Settings.redelivery_after`` (the broker's own redelivery, plus a margin for retries)
whose session is still ``ended`` (see ``services/outbox.py``).
``MEMORY_SERVICE_CELERY_NAMESPACE`` names the queue (and the Redis key prefix), so two
deployments or test runs can share one broker without seeing each other's messages.

Warm workers: the worker's parent process loads the guards' models (``memory_service.warm``)
when it starts, before the prefork pool forks its children, and each child builds its
container as it starts and runs the hot statements once, rolled back (``warm_statements``:
compiled, and seen by its first database connection), so the first consolidation a child
runs is as fast as its tenth. That start must end within ``worker_proc_alive_timeout``
(Celery kills a child that has not said it is up by then): 4 s by default, 15 s here, as
the warm-up takes up to about 1.5 s and the machine may be loaded.
"""

from __future__ import annotations

import logging
import os
import traceback
from collections.abc import Mapping
from functools import cache

from celery import Celery
from celery.schedules import crontab
from celery.signals import worker_init, worker_process_init

from memory_service.adapters.task_queue import (
    CONSOLIDATE_DUE_SESSIONS,
    EXPIRE_DUE_MEMORIES,
    RELAY_OUTBOX,
)
from memory_service.config import ConfigurationError, Settings
from memory_service.warm import models_loaded_by, warm_models

log = logging.getLogger("memory_service.worker")

# Defined here rather than with the other names: only beat and the worker send it.
PURGE_EXPIRED_MEMORIES = "memory.purge_expired_memories"
PURGE_EXPIRED_MANIFESTS = "memory.purge_expired_manifests"
SCRUB_KEY_STORE = "memory.scrub_key_store"
WORKER_PROCESS = "memory.worker_process"


class ExceptionTypeOnly(logging.Filter):
    """Celery logs a failed or retried task with its exception's message and traceback text.
    A message can quote what a database driver was given, so, as the API does, only the
    exception's type and the frames are kept.

    Celery 5 puts the exception in several places of one record (``celery/app/trace.py``,
    ``celery/worker/request.py``): ``exc_info``; the ``args`` mapping (``exc`` is its
    ``repr``, ``traceback`` its formatted text) and the same mapping again as
    ``record.data`` for handlers that print extras (a JSON formatter does); ``args`` tuples
    holding the exception itself (``"Task handler raised error: %r"``, a retry's reason);
    and a ``RuntimeWarning`` quoting it when it was raised outside the task body, logged
    through ``py.warnings``. Each keeps only the type's name.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc_type: type[BaseException] | None = None
        frames = ""
        if record.exc_info and record.exc_info[0] is not None:
            exc_type, _, tb = record.exc_info
            frames = "".join(traceback.format_tb(tb))
            record.exc_info = None
            record.exc_text = None
        withheld = exc_type.__name__ if exc_type else "error (message withheld)"
        if isinstance(record.args, Mapping):
            record.args = _context_without_messages(record.args, withheld, frames)
        elif isinstance(record.args, tuple):
            record.args = tuple(_type_only(arg) for arg in record.args)
        data = getattr(record, "data", None)
        if isinstance(data, Mapping):
            record.data = _context_without_messages(data, withheld, frames)
        if isinstance(record.msg, BaseException):
            record.msg = type(record.msg).__name__
        if _quotes_an_internal_error(record):
            record.msg, record.args = f"{_INTERNAL_ERROR_WARNING} (message withheld)", ()
        return True


# The warning trace.report_internal_error raises quotes the exception's repr and traceback.
_INTERNAL_ERROR_WARNING = "Exception raised outside body"


class _TypeName(str):
    """An exception's type name that reads the same through ``%s`` and ``%r``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _type_only(value: object) -> object:
    return _TypeName(type(value).__name__) if isinstance(value, BaseException) else value


def _context_without_messages(
    context: Mapping[str, object], withheld: str, frames: str
) -> dict[str, object]:
    redacted = dict(context)
    if "exc" in redacted:
        redacted["exc"] = withheld
    if "traceback" in redacted:
        redacted["traceback"] = frames
    return redacted


def _quotes_an_internal_error(record: logging.LogRecord) -> bool:
    parts = [record.msg, *(record.args if isinstance(record.args, tuple) else ())]
    return any(isinstance(part, str) and _INTERNAL_ERROR_WARNING in part for part in parts)


_TASK_LOGGERS = ("celery.app.trace", "celery.worker.request", "py.warnings")


def create_celery_app(settings: Settings) -> Celery:
    """The app for these settings; the API process uses it only to send tasks by name."""
    if not settings.broker_url:
        raise ConfigurationError("CELERY_BROKER_URL or REDIS_URL is required for the Celery app")
    for name in _TASK_LOGGERS:
        task_logger = logging.getLogger(name)
        if not any(isinstance(f, ExceptionTypeOnly) for f in task_logger.filters):
            task_logger.addFilter(ExceptionTypeOnly())
    app = Celery("memory_service", broker=settings.broker_url, include=["workers.tasks"])
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,  # nobody waits on a result: none is stored
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue=settings.celery_namespace,
        broker_transport_options=_transport_options(settings),
        broker_connection_retry_on_startup=True,
        # A pool process builds its container and warms its statements before it is up
        # (about 0.3 to 1.5 s); Celery's 4 s left little margin on a loaded machine.
        worker_proc_alive_timeout=15.0,
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
                "schedule": crontab(hour=settings.sweep_hour, minute=0),
            },
            "expire-due-memories": {
                "task": EXPIRE_DUE_MEMORIES,
                "schedule": crontab(hour=settings.sweep_hour, minute=30),
            },
            "relay-consolidation-outbox": {"task": RELAY_OUTBOX, "schedule": 60.0},
            # After expiry: what has been expired for longer than the grace period goes.
            "purge-expired-memories": {
                "task": PURGE_EXPIRED_MEMORIES,
                "schedule": crontab(hour=settings.sweep_hour, minute=45),
            },
            "purge-expired-manifests": {
                "task": PURGE_EXPIRED_MANIFESTS,
                "schedule": crontab(hour=settings.sweep_hour, minute=50),
            },
            "scrub-key-store": {
                "task": SCRUB_KEY_STORE,
                "schedule": crontab(hour=settings.sweep_hour, minute=55),
            },
        },
    )
    return app


def _transport_options(settings: Settings) -> dict[str, object]:
    if settings.broker_is_redis:
        return {
            "visibility_timeout": settings.visibility_timeout,
            "unacked_restore_interval": settings.unacked_restore_interval,
            "unacked_restore_throttle": 1,
            "global_keyprefix": f"{settings.celery_namespace}:",
            "socket_connect_timeout": 2,
        }
    # AMQP: a send to a broker that is down fails fast (the outbox keeps the work).
    return {"connect_timeout": 2}


@cache
def worker_settings() -> Settings:
    """The worker's settings, read and checked once in the parent before the pool forks; each
    pool process inherits them (a wrong value fails the worker's start, not its first task)."""
    return Settings.from_env()


def _warm_before_fork(**_: object) -> None:
    """In the worker's parent, before the pool forks: the children inherit the models."""
    warm_models(worker_settings())


def _build_container_in_child(**_: object) -> None:
    """In each pool process as it starts: its own engine and keyring, on the shared models."""
    log.info(
        "worker process %d started on the models loaded by process %s",
        os.getpid(),
        models_loaded_by(),
    )
    from workers.tasks import warm_container

    warm_container()


worker_init.connect(_warm_before_fork, dispatch_uid="memory_service.warm_models")
worker_process_init.connect(_build_container_in_child, dispatch_uid="memory_service.container")


def _default_app() -> Celery:
    """The app ``celery -A workers.celery_app`` finds (the compose health check pings with it).

    A bare app when no broker is set, so importing this module never fails; the ``worker``
    and ``beat`` commands refuse to start without one anyway.
    """
    settings = Settings.from_env()
    return create_celery_app(settings) if settings.broker_url else Celery("memory_service")


app = _default_app()
