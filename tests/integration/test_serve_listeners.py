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
from pathlib import Path

import pytest

from tests.support.serve_workers import serving

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
    with serving(tmp_path, workers=2) as served:
        # A burst, as a pool of clients opens it: every connection is pending before any
        # request, so a shared socket's first waker would take them all.
        address = ("127.0.0.1", served.port)
        connections = [socket.create_connection(address) for _ in range(CONNECTIONS)]
        try:
            for connection in connections:
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            for connection in connections:
                assert connection.recv(64).startswith(b"HTTP/1.1 200")
            inodes = _established_inodes(served.port)
            held = [_held_by(child, inodes) for child, _ in served.children()]
            assert sum(held) == CONNECTIONS, held
            assert all(count >= CONNECTIONS // 4 for count in held), held
        finally:
            for connection in connections:
                connection.close()
