"""The real app served by uvicorn on a loopback port, in a thread, for HTTP client tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from tests.support.loopback import free_port


@contextmanager
def serve(container: Container) -> Iterator[str]:
    """Yields the base URL while the server runs; stops it afterwards."""
    port = free_port()
    config = uvicorn.Config(
        create_app(container), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
