"""A failing task's log line names the exception's type, never its message."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from memory_service.config import Settings
from workers.celery_app import create_celery_app

MARKER = "driver-quoted-parameter-5e1d"


def test_a_failed_task_is_logged_without_its_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "REDIS_URL": "redis://127.0.0.1:6379/15"}
    )
    app = create_celery_app(settings)

    @app.task(name="test.fails_with_a_message")
    def fails() -> None:
        raise ValueError(f"insert failed for {MARKER}")

    caplog.set_level(logging.DEBUG)
    result = fails.apply()

    assert result.failed()
    assert "ValueError" in caplog.text
    assert MARKER not in caplog.text
