"""Free loopback ports for the servers tests and benchmarks start themselves."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port the OS just handed out on 127.0.0.1, so parallel runs never pick the same one."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
