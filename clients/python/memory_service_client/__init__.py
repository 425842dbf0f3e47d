"""The memory-service client: a typed async HTTP client (httpx and pydantic only).

Distribution ``memory-service-agent-client``; extras: ``[openai-agents]`` for
:mod:`memory_service_client.openai_agents`, ``[mcp]`` for :mod:`memory_service_client.mcp_server`.
"""

from memory_service_client._client import MemoryClient
from memory_service_client.errors import (
    AuthenticationError,
    ConfigurationError,
    Conflict,
    DependencyUnavailable,
    InvalidRequest,
    MemoryServiceError,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
)
from memory_service_client.models import (
    AppendedTurns,
    ClearedTurns,
    Context,
    History,
    NoteOutcome,
    PoppedItem,
    Reason,
    SessionInfo,
    StateUpdated,
)

__all__ = [
    "AppendedTurns",
    "AuthenticationError",
    "ClearedTurns",
    "ConfigurationError",
    "Conflict",
    "Context",
    "DependencyUnavailable",
    "History",
    "InvalidRequest",
    "MemoryClient",
    "MemoryServiceError",
    "NotFound",
    "NoteOutcome",
    "PayloadTooLarge",
    "PermissionDenied",
    "PoppedItem",
    "RateLimited",
    "Reason",
    "SessionInfo",
    "StateUpdated",
]
