"""A failing task's log records name the exception's type, never its message.

Every record is read whole (``vars(record)`` after formatting, as a JSON formatter that
prints extras would), so a message left in ``record.data``, in ``args`` or in a warning
fails the test, not only one in the formatted line.
"""

from __future__ import annotations

import json
import logging
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from celery.app.trace import report_internal_error
from celery.worker import request as worker_request

from memory_service.config import Settings
from workers.celery_app import create_celery_app

MARKER = "driver-quoted-parameter-5e1d"
CELERY_LOGGERS = ("celery.app.trace", "celery.worker.request", "py.warnings")


class EveryField(logging.Handler):
    """Keeps each record as a JSON formatter with extras would print it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = logging.Formatter().format(record)  # message, exc_text and stack
        self.lines.append(text + json.dumps(vars(record), default=repr))


@pytest.fixture
def app(tmp_path: Path) -> Celery:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "REDIS_URL": "redis://127.0.0.1:6379/15"}
    )
    return create_celery_app(settings)


@pytest.fixture
def logged() -> Iterator[list[str]]:
    handler = EveryField()
    loggers = [logging.getLogger(name) for name in CELERY_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)


def test_a_failed_task_is_logged_without_its_message(app: Celery, logged: list[str]) -> None:
    @app.task(name="test.fails_with_a_message")
    def fails() -> None:
        raise ValueError(f"insert failed for {MARKER}")

    result = fails.apply()

    assert result.failed()
    assert any("ValueError" in line for line in logged)
    assert not [line for line in logged if MARKER in line]


def test_a_retried_task_is_logged_without_its_reason(app: Celery, logged: list[str]) -> None:
    @app.task(name="test.retries_with_a_message", bind=True, max_retries=1)
    def retries(self: Any) -> None:
        raise self.retry(exc=ValueError(f"timeout talking to {MARKER}"), countdown=0)

    retries.apply()

    assert any("retry" in line for line in logged)
    assert not [line for line in logged if MARKER in line]


def test_the_worker_request_error_line_names_the_type_only(app: Celery, logged: list[str]) -> None:
    try:
        raise ValueError(f"connection refused for {MARKER}")
    except ValueError as exc:
        # The call celery/worker/request.py makes when a task handler itself fails.
        worker_request.error("Task handler raised error: %r", exc, exc_info=sys.exc_info())

    assert any("Task handler raised error: ValueError" in line for line in logged)
    assert not [line for line in logged if MARKER in line]


def test_an_error_outside_the_task_body_is_warned_without_its_message(
    app: Celery, logged: list[str]
) -> None:
    @app.task(name="test.internal_error")
    def task() -> None:
        """Only its backend is used: the warning is raised as the tracer raises it."""

    logging.captureWarnings(True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            try:
                raise RuntimeError(f"on_failure broke on {MARKER}")
            except RuntimeError as exc:
                report_internal_error(task, exc)
    finally:
        logging.captureWarnings(False)

    assert any("Exception raised outside body (message withheld)" in line for line in logged)
    assert not [line for line in logged if MARKER in line]
