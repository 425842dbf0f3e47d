"""The Celery worker's own metrics: a prefork worker started with ``--metrics-port``.

The task runs in a pool process; the worker's parent serves the sum of its processes
(prometheus-client's multiprocess mode, in a directory ``memory-service worker`` makes).
"""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from memory_service.adapters.task_queue import CeleryTaskQueue
from memory_service.api.app import create_app
from memory_service.config import Settings
from tests.e2e.conftest import create_tenant, new_subject
from tests.support.celery_worker import MEMORY_SERVICE, wait_for
from tests.support.containers import migrated_container
from tests.support.loopback import free_port
from tests.support.scratch_database import scratch_postgres_service
from workers.celery_app import create_celery_app

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def env(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[dict[str, str]]:
    with scratch_postgres_service(postgres_url) as service:
        yield {
            **service,
            "REDIS_URL": redis_url,
            "MEMORY_SERVICE_HOME": str(tmp_path),
            "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-metrics-{secrets.token_hex(4)}",
            "OPENAI_API_KEY": "",
            "OPENAI_BASE_URL": "",
        }


def _runs(url: str) -> float:
    try:
        text = httpx.get(url, timeout=2).text
    except httpx.HTTPError:
        return -1
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "memory_service_consolidation_runs_total" and sample.labels == {
                "outcome": "consolidated"
            }:
                return sample.value
    return 0


def test_a_prefork_worker_serves_the_runs_its_pool_did(env: dict[str, str], tmp_path: Path) -> None:
    container = migrated_container(env)
    # The API's queue must use the test's private namespace, as the worker does.
    container.tasks = CeleryTaskQueue(create_celery_app(Settings.from_env(env)))
    port = free_port()
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [
            str(MEMORY_SERVICE),
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            f"--metrics-port={port}",
            f"--hostname=metrics-{secrets.token_hex(3)}@%h",
        ],
        env={**os.environ, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        wait_for(lambda: _runs(url) == 0, timeout=60, what="the worker's metrics port")
        tenant = create_tenant(container)
        with TestClient(create_app(container)) as client:
            for _ in range(2):
                opened = client.post(
                    "/v1/sessions", json={"subject_id": new_subject()}, headers=tenant.agent
                )
                session_id = opened.json()["session_id"]
                client.post(
                    f"/v1/sessions/{session_id}/notes",
                    json={"text": "Prefers aisle seats.", "keywords": ["seats"]},
                    headers=tenant.agent,
                )
                ended = client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent)
                assert ended.status_code == 202
        wait_for(lambda: _runs(url) == 2, timeout=60, what="two consolidations in the metrics")
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        log.close()
        container.engine.dispose()
