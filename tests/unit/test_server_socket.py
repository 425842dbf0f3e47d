"""The API's listening socket turns Nagle's algorithm off for every accepted connection."""

from __future__ import annotations

import socket

from memory_service.api.server import NoDelayConfig


def test_connections_accepted_on_the_shared_socket_send_without_delay() -> None:
    config = NoDelayConfig("memory_service.api.asgi:create_default_app", port=0, workers=2)
    listener = config.bind_socket()
    try:
        listener.listen()
        with socket.create_connection(listener.getsockname()[:2], timeout=5):
            accepted, _ = listener.accept()
            with accepted:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        listener.close()
