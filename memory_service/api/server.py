"""Serve the ASGI app with uvicorn, Nagle's algorithm off on every connection.

With more than one worker process, uvicorn binds the shared listening socket itself, as a
plain ``socket.socket(AF_INET)`` whose protocol number is 0, and asyncio turns Nagle's
algorithm off only for sockets whose protocol is TCP. Each response goes out as two writes
(headers, then body), so the second one waited for the client's delayed ACK: about 40 ms on
every request, found by the load run (``benchmarks/load.py``). Accepted sockets inherit
``TCP_NODELAY`` from the listening socket, so setting it there covers every connection.

With more than one worker the models are loaded once, in the supervising process, and the
workers are forked from it (uvicorn itself spawns fresh interpreters, which would each load
them again): they share the models' pages, and each worker's first request is as fast as its
tenth. The access log is off: a line per request written to the terminal, where ``/metrics``
already counts every request by route and status.
"""

from __future__ import annotations

import multiprocessing
import socket
from collections.abc import Callable

import uvicorn
import uvicorn._subprocess
from uvicorn.supervisors import Multiprocess


class NoDelayConfig(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock


def run_server(
    factory: str,
    *,
    host: str,
    port: int,
    workers: int,
    before_fork: Callable[[], None] | None = None,
) -> None:
    """What ``uvicorn.run(factory, factory=True, ...)`` does, with :class:`NoDelayConfig`;
    with several workers, ``before_fork`` runs in the supervisor, then the workers fork."""
    config = NoDelayConfig(
        factory, factory=True, host=host, port=port, workers=workers, access_log=False
    )
    if config.workers > 1:
        sockets = [config.bind_socket()]
        if before_fork is not None:
            before_fork()
            fork_workers()
        Multiprocess(config, sockets=sockets).run()
    else:
        uvicorn.Server(config=config).run()


def fork_workers() -> None:
    """Make uvicorn's supervisor fork its workers (it spawns them by default).

    uvicorn names its multiprocessing context ``uvicorn._subprocess.spawn`` and reads it each
    time it starts a worker (at start, and again to replace one that died). Nothing in the
    supervisor holds a thread or a connection before then, so a fork is safe.
    """
    if hasattr(uvicorn._subprocess, "spawn"):
        uvicorn._subprocess.spawn = multiprocessing.get_context("fork")  # type: ignore[assignment]
