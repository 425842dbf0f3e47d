"""Real ``memory-service worker`` processes and a private redis-server, for integration tests.

Each worker is a subprocess running the real CLI, by default with the solo pool (one task at
a time, so SIGKILL lands mid-task), logging to a file the test can read.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from tests.support.loopback import free_port

MEMORY_SERVICE = Path(sys.executable).with_name("memory-service")


def wait_for(condition: Callable[[], bool], *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class WorkerProcess:
    def __init__(
        self,
        env: Mapping[str, str],
        name: str,
        log_dir: Path,
        *,
        pool: str = "solo",
        concurrency: int = 1,
    ) -> None:
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [
                str(MEMORY_SERVICE),
                "worker",
                f"--pool={pool}",
                f"--concurrency={concurrency}",
                # A random suffix: two checkouts running the suite at once share RabbitMQ, and
                # Celery nodes of one name answer each other's control and mingle messages.
                f"--hostname={name}-{secrets.token_hex(3)}@%h",
            ],
            env={**os.environ, **env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def succeeded(self, task_id: str | None = None) -> int:
        marker = f"[{task_id}] succeeded" if task_id else "] succeeded in"
        return self.log().count(marker)

    def wait_ready(self, timeout: float = 180) -> WorkerProcess:
        # The worker loads the guards' models before it says ready (memory_service.warm):
        # seconds on a quiet machine, a minute or more on a loaded one.
        wait_for(
            lambda: " ready." in self.log() or self.process.poll() is not None,
            timeout=timeout,
            what=f"worker {self.name} to start",
        )
        if self.process.poll() is not None:
            raise AssertionError(f"worker {self.name} exited:\n{self.log()}")
        return self

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


class RedisServer:
    """A throwaway redis-server without persistence, which a test may stop and restart."""

    def __init__(self, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.binary = binary
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--bind",
                "127.0.0.1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._accepts, timeout=10, what="redis-server to accept connections")
        return self

    def _accepts(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None
