"""Warm workers: the models are loaded in the parent process, before its workers fork.

Proved by process ids, never by timing: the loader records the pid that ran it, and each
forked child (a Celery pool process, a ``serve --workers 2`` server process) reports its
own pid beside it. A child whose models were loaded by its parent names the parent's pid.
Each child also warms its statements before it serves (``warm_statements``, rolled back):
it logs that it did, and never that the warm-up failed (``test_warm_statements.py`` checks
that the warm-up leaves nothing behind).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_service.adapters import migrate
from memory_service.config import Settings
from tests.support.celery_worker import RedisServer, WorkerProcess, wait_for
from tests.support.serve_workers import STARTED, serving
from workers.celery_app import WORKER_PROCESS, create_celery_app

TASK = re.compile(r"task ran in process (\d+) on models loaded by process (\d+)")
WARMED = re.compile(r"statements warmed in process (\d+): (\d+) rounds")


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer().start()
    yield server
    server.stop()


@pytest.mark.redis
def test_celery_pool_processes_run_on_models_their_parent_loaded(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    env = {
        "MEMORY_SERVICE_HOME": str(tmp_path),
        "REDIS_URL": redis_server.url,
        "MEMORY_SERVICE_CELERY_NAMESPACE": "warm-workers",
    }
    # Migrated, as a deployment is: the children warm their statements on its tables (two
    # at once on SQLite's one write lock: the second waits for the first).
    migrate.upgrade(Settings.from_env(env).database_url)
    worker = WorkerProcess(env, "warm", tmp_path, pool="prefork", concurrency=2)
    try:
        worker.wait_ready(timeout=180)
        app = create_celery_app(Settings.from_env(env))
        for _ in range(4):
            app.send_task(WORKER_PROCESS)
        wait_for(lambda: len(TASK.findall(worker.log())) == 4, timeout=60, what="the tasks")
        parent = worker.process.pid
        children = STARTED.findall(worker.log())
        assert len(children) == 2
        assert all(int(loader) == parent != int(child) for child, loader in children)
        ran = TASK.findall(worker.log())
        assert all(int(loader) == parent != int(pid) for pid, loader in ran)
        assert {pid for pid, _ in ran} <= {child for child, _ in children}
        # Each pool process ran the hot statements, rolled back, before it took a task
        # (Celery says "ready" before its pool processes are up).
        wait_for(lambda: len(WARMED.findall(worker.log())) == 2, timeout=60, what="warm-ups")
        warmed = {pid: int(rounds) for pid, rounds in WARMED.findall(worker.log())}
        assert set(warmed) == {child for child, _ in children}, worker.log()
        assert all(rounds >= 1 for rounds in warmed.values())
        assert "warm_up_failed" not in worker.log()
    finally:
        worker.stop()


def test_serve_workers_run_on_models_the_supervisor_loaded(tmp_path: Path) -> None:
    with serving(tmp_path, workers=2) as served:
        children = served.children()
        assert len(children) == 2, served.log_path.read_text()
        assert all(loader == served.process.pid != child for child, loader in children)
        log = served.log_path.read_text()
        warmed = {int(pid) for pid, _ in WARMED.findall(log)}
        assert warmed == {child for child, _ in children}, log
        assert "warm_up_failed" not in log
