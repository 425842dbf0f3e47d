"""The errors a call raises, one per error code the service answers.

    MemoryServiceError           any error answer (``code``, ``message``, ``status``)
    ├── AuthenticationError      401 unauthenticated: missing, bad or revoked key
    ├── PermissionDenied         403 forbidden: the key's role may not do this
    ├── NotFound                 404 not_found: absent, or another tenant's (same answer)
    ├── Conflict                 409 conflict: e.g. the session already ended
    ├── InvalidRequest           413/422 invalid_request: a malformed argument
    └── DependencyUnavailable    503 unavailable (or unreachable): retry later

The codes are the service's (``memory_service.core.errors``; a test keeps them equal). Messages
are the service's own: they never carry note text, keys or argument values.
"""

from __future__ import annotations

import httpx


class MemoryServiceError(Exception):
    code = "internal"

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, dict[str, str]]:
        """What a model reads instead of a crash: the code and the service's message."""
        return {"error": {"code": self.code, "message": self.message}}


class AuthenticationError(MemoryServiceError):
    code = "unauthenticated"


class PermissionDenied(MemoryServiceError):
    code = "forbidden"


class NotFound(MemoryServiceError):
    code = "not_found"


class Conflict(MemoryServiceError):
    code = "conflict"


class InvalidRequest(MemoryServiceError):
    code = "invalid_request"


class DependencyUnavailable(MemoryServiceError):
    code = "unavailable"


class ConfigurationError(ValueError):
    """A binding's settings are missing or wrong (raised before anything is served)."""


_BY_STATUS: dict[int, type[MemoryServiceError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: InvalidRequest,
    422: InvalidRequest,
    503: DependencyUnavailable,
}


def error_for(response: httpx.Response) -> MemoryServiceError:
    """The error of an error response; its message is the service's (never note text)."""
    try:
        message = str(response.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        message = f"HTTP {response.status_code}"
    kind = _BY_STATUS.get(response.status_code, MemoryServiceError)
    return kind(message, response.status_code)
