"""Every job the beat schedules is a task the worker registers (a typo would fail silently)."""

from __future__ import annotations

from pathlib import Path

from memory_service.config import Settings
from workers.celery_app import create_celery_app


def test_every_scheduled_task_is_registered(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "REDIS_URL": "redis://127.0.0.1:6379/15"}
    )
    app = create_celery_app(settings)
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert "memory.purge_expired_manifests" in scheduled
    assert scheduled <= set(app.tasks)
