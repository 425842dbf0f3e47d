"""Warm workers: the models are loaded in the parent process, before its workers fork.

Proved by process ids, never by timing: the loader records the pid that ran it, and each
forked child (a Celery pool process, a ``serve --workers 2`` server process) reports its
own pid beside it. A child whose models were loaded by its parent names the parent's pid.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memory_service.config import Settings
from tests.support.celery_worker import RedisServer, WorkerProcess, wait_for
from tests.support.loopback import free_port
from workers.celery_app import WORKER_PROCESS, create_celery_app

STARTED = re.compile(
    r"(?:worker|server) process (\d+) started on the models loaded by process (\d+)"
)
SERVE = (str(Path(sys.executable).with_name("memory-service")), "serve")
TASK = re.compile(r"task ran in process (\d+) on models loaded by process (\d+)")


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
    finally:
        worker.stop()


def test_serve_workers_run_on_models_the_supervisor_loaded(tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--workers", "2"],
            env={"MEMORY_SERVICE_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(
                lambda: (
                    len(STARTED.findall(log_path.read_text())) == 2 or process.poll() is not None
                ),
                timeout=180,
                what="both server processes",
            )
            wait_for(lambda: _healthy(port), timeout=60, what="the server to answer")
            children = STARTED.findall(log_path.read_text())
            assert len(children) == 2, log_path.read_text()
            assert all(int(loader) == process.pid != int(child) for child, loader in children)
        finally:
            process.terminate()
            process.wait(timeout=30)


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False
