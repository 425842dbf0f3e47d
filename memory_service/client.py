"""The client lives in its own distribution, ``memory-service-agent-client`` (``clients/python``).

This module re-exports it for code that imported it from here, and adds what only the server
package can build: :func:`in_process`, a client of ``create_app(container)`` through httpx's ASGI
transport (the same HTTP semantics, no socket).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memory_service_client import (
    AppendedTurns,
    Context,
    History,
    MemoryClient,
    NoteOutcome,
    SessionInfo,
)

if TYPE_CHECKING:
    from memory_service.bootstrap import Container

__all__ = [
    "AppendedTurns",
    "Context",
    "History",
    "MemoryClient",
    "NoteOutcome",
    "SessionInfo",
    "in_process",
]


def in_process(container: Container, api_key: str, **options: Any) -> MemoryClient:
    """A client of ``create_app(container)`` in this process."""
    from memory_service.api.app import create_app

    return MemoryClient.over_asgi(create_app(container), api_key, **options)
