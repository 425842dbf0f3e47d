"""The processes the load run drives, all on loopback, all started and stopped here.

A scratch PostgreSQL database (migrated by ``memory-service migrate``, dropped at the end),
a private ``redis-server`` on a free port (never the machine's own, which tests use), the
API as ``memory-service serve --workers N``, one ``memory-service worker`` (solo pool, so a
SIGKILL takes the task it is running with it), ``memory-service beat`` (its outbox relay is
what sends consolidations that a broker outage held back), and the loopback fake LLM.
Every process logs to a file under the run's directory.
"""

from __future__ import annotations

import base64
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from memory_service.adapters.database import create_engine_for, normalize_database_url
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.core.clock import SystemClock
from memory_service.core.model import Role
from tests.support.celery_worker import RedisServer, wait_for
from tests.support.fake_llm import FakeLLM
from tests.support.loopback import free_port

MEMORY_SERVICE = str(Path(sys.executable).with_name("memory-service"))


@dataclass
class Process:
    """One service process and its log file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log_path: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        with self.log_path.open("ab") as log:
            self.popen = subprocess.Popen(
                self.argv,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: a stop reaches server workers too
            )
        return self

    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL the process itself (and only it), as a crash would."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class Stack:
    postgres_server_url: str
    run_dir: Path
    api_workers: int = 2
    llm_timeout_seconds: float = 1.0
    database_name: str = field(default_factory=lambda: f"ms_load_{secrets.token_hex(4)}")
    llm: FakeLLM = field(default_factory=FakeLLM)
    redis: RedisServer = field(default_factory=RedisServer)
    api_port: int = field(default_factory=free_port)
    worker_metrics_port: int = field(default_factory=free_port)
    processes: dict[str, Process] = field(default_factory=dict)
    worker_starts: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def database_url(self) -> str:
        url = make_url(normalize_database_url(self.postgres_server_url))
        return url.set(database=self.database_name).render_as_string(hide_password=False)

    def start(self) -> Stack:
        (self.run_dir / "home").mkdir(parents=True, exist_ok=True)
        with self._admin_engine().connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{self.database_name}"')
        self.redis.start()
        self.llm.start()
        self.env = self._environment()
        migrate = subprocess.run(
            [MEMORY_SERVICE, "migrate"], env=self.env, capture_output=True, timeout=120
        )
        if migrate.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{migrate.stderr.decode(errors='replace')}")
        self.engine = create_engine_for(self.database_url)
        self.keys = SqlKeyStore(self.engine, SystemClock())
        serve = ["serve", "--port", str(self.api_port), "--workers", str(self.api_workers)]
        self._process("api", [MEMORY_SERVICE, *serve], self._metrics_dir("api")).start()
        self.start_worker()
        self._process("beat", [MEMORY_SERVICE, "beat", "--loglevel", "WARNING"]).start()
        wait_for(self.api_ready, timeout=120, what="the API to answer /healthz")
        wait_for(lambda: " ready." in self.processes["worker"].log(), timeout=300, what="worker")
        return self

    def _environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": self.database_url,
            # The key store apart from the data; a file shared by the processes is enough here.
            "KEYSTORE_URL": f"sqlite:///{self.run_dir / 'home' / 'keys.db'}",
            "REDIS_URL": self.redis.url,
            "MEMORY_SERVICE_ENV": "production",
            "MEMORY_SERVICE_MASTER_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
            "MEMORY_SERVICE_HOME": str(self.run_dir / "home"),
            "OPENAI_BASE_URL": self.llm.base_url,
            "OPENAI_API_KEY": "fake-key",
            "MEMORY_SERVICE_LLM_MODEL": "fake-model",
            "MEMORY_SERVICE_LLM_TIMEOUT": str(self.llm_timeout_seconds),
            "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-load-{secrets.token_hex(4)}",
            # A killed worker's task comes back after this long (longer than any task here).
            "MEMORY_SERVICE_VISIBILITY_TIMEOUT": "20",
            "MEMORY_SERVICE_UNACKED_RESTORE_INTERVAL": "2",
            # High enough never to refuse: the Redis bucket still runs on every note.
            "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "1000000",
        }

    def _metrics_dir(self, name: str) -> dict[str, str]:
        """One multiprocess directory per service for the whole run, so a restarted worker
        adds to what the killed one counted (made empty at the first start only)."""
        directory = self.run_dir / f"metrics-{name}"
        directory.mkdir(exist_ok=True)
        return {"PROMETHEUS_MULTIPROC_DIR": str(directory)}

    @property
    def worker_metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.worker_metrics_port}/metrics"

    def _process(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
        process = Process(name, argv, {**self.env, **(env or {})}, self.run_dir / f"{name}.log")
        self.processes[name] = process
        return process

    def _admin_engine(self) -> Engine:
        if not hasattr(self, "_admin"):
            self._admin = create_engine_for(self.postgres_server_url).execution_options(
                isolation_level="AUTOCOMMIT"
            )
        return self._admin

    def api_ready(self) -> bool:
        try:
            return httpx.get(f"{self.base_url}/healthz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def agent_key(self, tenant: str) -> str:
        return self.keys.create(tenant, Role.AGENT)[1]

    # ---- faults ----

    def start_worker(self) -> None:
        self.worker_starts += 1
        name = f"load-{self.worker_starts}@%h"
        argv = [MEMORY_SERVICE, "worker", "--pool", "solo", "--concurrency", "1"]
        argv += ["--metrics-port", str(self.worker_metrics_port)]
        self._process(
            "worker",
            [*argv, "--hostname", name, "--loglevel", "INFO"],
            self._metrics_dir("worker"),
        ).start()

    def kill_worker(self) -> None:
        self.processes["worker"].kill()

    def stop_redis(self) -> None:
        self.redis.stop()

    def start_redis(self) -> None:
        self.redis.start()

    def block_database(self) -> int:
        """Refuse new connections to the scratch database and cut every open one."""
        with self._admin_engine().connect() as connection:
            connection.exec_driver_sql(
                f'ALTER DATABASE "{self.database_name}" WITH ALLOW_CONNECTIONS false'
            )
        return self.cut_database_connections()

    def cut_database_connections(self) -> int:
        with self._admin_engine().connect() as connection:
            cut = connection.execute(
                text(
                    "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM "
                    "pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()) t"
                ),
                {"name": self.database_name},
            ).scalar_one()
        return int(cut)

    def unblock_database(self) -> None:
        with self._admin_engine().connect() as connection:
            connection.exec_driver_sql(
                f'ALTER DATABASE "{self.database_name}" WITH ALLOW_CONNECTIONS true'
            )

    def run_nightly_sweep(self) -> None:
        """Queue the nightly sweep now, as beat would at night: ended sessions not yet
        consolidated are queued again."""
        from memory_service.adapters.task_queue import CONSOLIDATE_DUE_SESSIONS
        from memory_service.config import Settings
        from workers.celery_app import create_celery_app

        app = create_celery_app(Settings.from_env(self.env))
        app.send_task(CONSOLIDATE_DUE_SESSIONS)

    # ---- teardown ----

    def stop(self) -> None:
        for name in ("beat", "worker", "api"):
            if name in self.processes:
                self.processes[name].stop()
        self.llm.stop()
        self.redis.stop()
        if hasattr(self, "engine"):
            self.engine.dispose()
        _retry(self._drop_database)
        self._admin_engine().dispose()

    def _drop_database(self) -> None:
        with self._admin_engine().connect() as connection:
            connection.exec_driver_sql(
                f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)'
            )


def _retry(action: Callable[[], None], attempts: int = 3) -> None:
    for attempt in range(attempts):
        try:
            action()
            return
        except Exception:
            if attempt == attempts - 1:
                raise
            time.sleep(1)
