"""``memory-service serve --workers N`` in a child process, for tests that look at its processes."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.harness import listening_sockets
from tests.support.celery_worker import wait_for
from tests.support.loopback import free_port

STARTED = re.compile(
    r"(?:worker|server) process (\d+) started on the models loaded by process (\d+)"
)
SERVE = (str(Path(sys.executable).with_name("memory-service")), "serve")


@dataclass(frozen=True)
class Served:
    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    def children(self) -> list[tuple[int, int]]:
        """(server process, process that loaded its models) for each started worker."""
        found = STARTED.findall(self.log_path.read_text())
        return [(int(child), int(loader)) for child, loader in found]


@contextmanager
def serving(tmp_path: Path, workers: int) -> Iterator[Served]:
    """The server on a free port, once every worker has started and it answers."""
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--workers", str(workers)],
            env={"MEMORY_SERVICE_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        served = Served(process, port, log_path)
        try:
            wait_for(
                lambda: len(served.children()) == workers or process.poll() is not None,
                timeout=180,
                what="every server process",
            )
            wait_for(lambda: _healthy(port), timeout=60, what="the server to answer")
            # A process listens once its app is built and its statements warmed (after the
            # line above): a burst sent before the last one listens goes to the others.
            wait_for(
                lambda: listening_sockets(port) >= workers or process.poll() is not None,
                timeout=60,
                what="every server process to listen",
            )
            yield served
        finally:
            process.terminate()
            process.wait(timeout=30)


def _healthy(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False
