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
tenth. Each server process then runs the hot statements once on its own engine, rolled back
(:func:`memory_service.warm.warm_statements`), after it built its app and before it
accepts a connection (:meth:`NoDelayConfig.load`): its first request compiles nothing. The
access log is off: a line per request written to the terminal, where ``/metrics`` already
counts every request by route and status.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, SupportsIndex

import uvicorn
import uvicorn._subprocess
from uvicorn.supervisors import Multiprocess

if TYPE_CHECKING:
    from memory_service.bootstrap import Container


class NoDelayConfig(uvicorn.Config):
    def load(self) -> None:
        """Build the app (in each server process), then warm its models (``--workers 1``:
        nothing ran before a fork) and its statements: uvicorn loads the app before its
        lifespan starts and before it serves the listening sockets."""
        super().load()
        container = _container_of(self.loaded_app)
        if container is not None:
            from memory_service.warm import warm_models, warm_statements

            # Loaded by the supervisor before the fork with several workers (then a no-op);
            # with one, here, before the first request instead of by it.
            warm_models(container.settings)
            warm_statements(container)

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock


def _container_of(app: Any) -> Container | None:
    """The container of the app uvicorn loaded, under the middleware uvicorn wraps it in."""
    from memory_service.bootstrap import Container

    for _ in range(8):
        container = getattr(getattr(app, "state", None), "container", None)
        if isinstance(container, Container):
            return container
        app = getattr(app, "app", None)
        if app is None:
            return None
    return None


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
        sockets: list[socket.socket] = [config.bind_socket()]
        if before_fork is not None:
            before_fork()
            fork_workers()
            if port != 0 and hasattr(socket, "SO_REUSEPORT"):
                sockets[0].close()
                sockets = ListenerPerProcess(config)
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


class ListenerPerProcess(list[socket.socket]):
    """Each forked server process's own listening socket, bound with ``SO_REUSEPORT``.

    With one listening socket shared by the workers, whichever process wakes first accepts
    every pending connection (asyncio accepts up to the backlog per wake-up, and Linux wakes
    the most recent waiter first): in ``benchmarks.scaling`` at load 0.5 the 8 keep-alive
    connections all landed on one of two workers (1.04 and 0.10 cores busy), and two workers
    served 1.30 times the notes of one. With a socket per process on the same port the kernel
    spreads connections over them by their addresses' hash. uvicorn hands this list to each forked
    worker, which binds its socket on first use (the supervisor binds none, so a worker that
    dies takes its socket with it and its replacement binds a new one). Port 0 (a port chosen
    by the kernel) keeps the shared socket: each process would get a different port."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__()
        self._config = config
        self._supervisor = os.getpid()

    def _bound(self) -> None:
        if os.getpid() != self._supervisor and not super().__len__():
            self.append(_reuse_port_socket(self._config.host, self._config.port))

    def __iter__(self) -> Iterator[socket.socket]:
        self._bound()
        return super().__iter__()

    def __len__(self) -> int:
        self._bound()
        return super().__len__()

    def __getitem__(self, index: SupportsIndex) -> socket.socket:  # type: ignore[override]
        self._bound()
        return super().__getitem__(index)


def _reuse_port_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock
