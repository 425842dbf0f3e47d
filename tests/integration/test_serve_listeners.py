"""``serve --workers 2``: each server process accepts connections of its own.

With one shared listening socket the process that wakes first took every pending keep-alive
connection (``benchmarks.scaling``, session 8: 1.04 and 0.10 cores busy). Each process now
listens on a socket of its own bound with ``SO_REUSEPORT`` (``api/server.py``), and the kernel
spreads connections by their addresses' hash. Proved by who holds the accepted sockets
(``/proc``), never by timing: of a burst of 64 connections each process must hold a quarter
at least (by hash, fewer than 16 of 64 happens with a probability near 1e-4; the shared
socket gave one process 2 of 16 in a burst).
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from tests.integration.test_warm_workers import SERVE, STARTED, _healthy
from tests.support.celery_worker import wait_for
from tests.support.loopback import free_port

CONNECTIONS = 64
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc")


def _established_inodes(port: int) -> set[str]:
    """Inodes of the server side of established TCP connections on ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                inodes.add(fields[9])
    return inodes


def _held_by(pid: int, inodes: set[str]) -> int:
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            held += 1
    return held


def test_both_server_processes_accept_connections(tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--workers", "2"],
            env={"MEMORY_SERVICE_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        connections: list[socket.socket] = []
        try:
            wait_for(
                lambda: (
                    len(STARTED.findall(log_path.read_text())) == 2 or process.poll() is not None
                ),
                timeout=180,
                what="both server processes",
            )
            wait_for(lambda: _healthy(port), timeout=60, what="the server to answer")
            # A burst, as a pool of clients opens it: every connection is pending before any
            # request, so a shared socket's first waker would take them all.
            connections = [
                socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)
            ]
            for connection in connections:
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            for connection in connections:
                assert connection.recv(64).startswith(b"HTTP/1.1 200")
            children = [int(child) for child, _ in STARTED.findall(log_path.read_text())]
            inodes = _established_inodes(port)
            held = [_held_by(pid, inodes) for pid in children]
            assert sum(held) == CONNECTIONS, held
            assert all(count >= CONNECTIONS // 4 for count in held), held
        finally:
            for connection in connections:
                connection.close()
            process.terminate()
            process.wait(timeout=30)
