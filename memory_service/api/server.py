"""Serve the ASGI app with uvicorn, Nagle's algorithm off on every connection.

With more than one worker process, uvicorn binds the shared listening socket itself, as a
plain ``socket.socket(AF_INET)`` whose protocol number is 0, and asyncio turns Nagle's
algorithm off only for sockets whose protocol is TCP. Each response goes out as two writes
(headers, then body), so the second one waited for the client's delayed ACK: about 40 ms on
every request, found by the load run (``benchmarks/load.py``). Accepted sockets inherit
``TCP_NODELAY`` from the listening socket, so setting it there covers every connection.
"""

from __future__ import annotations

import socket

import uvicorn
from uvicorn.supervisors import Multiprocess


class NoDelayConfig(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock


def run_server(factory: str, *, host: str, port: int, workers: int) -> None:
    """What ``uvicorn.run(factory, factory=True, ...)`` does, with :class:`NoDelayConfig`."""
    config = NoDelayConfig(factory, factory=True, host=host, port=port, workers=workers)
    if config.workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        uvicorn.Server(config=config).run()
