"""The errors a call raises, one per error code the service answers.

    MemoryServiceError           any error answer (``code``, ``message``, ``status``)
    ├── AuthenticationError      401 unauthenticated: missing, bad or revoked key
    ├── PermissionDenied         403 forbidden: the key's role may not do this
    ├── NotFound                 404 not_found: absent, or another tenant's (same answer)
    ├── Conflict                 409 conflict: e.g. the session already ended
    ├── InvalidRequest           422 invalid_request: a malformed argument
    │   └── PayloadTooLarge      413 payload_too_large: the request body is over the limit
    ├── RateLimited              429 rate_limited: too many calls; retry later
    └── DependencyUnavailable    503 unavailable (or unreachable): retry later

An answer is mapped by the ``code`` in its body; the HTTP status decides only when the body
has none (a proxy's page). An unknown code keeps the service's code on the error.

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


class PayloadTooLarge(InvalidRequest):
    code = "payload_too_large"


class RateLimited(MemoryServiceError):
    code = "rate_limited"


class DependencyUnavailable(MemoryServiceError):
    code = "unavailable"


class ConfigurationError(ValueError):
    """A binding's settings are missing or wrong (raised before anything is served)."""


_KINDS: tuple[type[MemoryServiceError], ...] = (
    AuthenticationError,
    PermissionDenied,
    NotFound,
    Conflict,
    InvalidRequest,
    PayloadTooLarge,
    RateLimited,
    DependencyUnavailable,
)
_BY_CODE: dict[str, type[MemoryServiceError]] = {kind.code: kind for kind in _KINDS}
_BY_STATUS: dict[int, type[MemoryServiceError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: InvalidRequest,
    429: RateLimited,
    503: DependencyUnavailable,
}


def error_for(response: httpx.Response) -> MemoryServiceError:
    """The error of an error response; its message is the service's (never note text)."""
    code: str | None = None
    try:
        body = response.json()["error"]
        message = str(body["message"])
        code = str(body["code"])
    except (ValueError, KeyError, TypeError):
        message = f"HTTP {response.status_code}"
    kind = _BY_CODE.get(code or "") or _BY_STATUS.get(response.status_code, MemoryServiceError)
    error = kind(message, response.status_code)
    if code is not None and code not in _BY_CODE:
        error.code = code  # a code this client does not know yet: the caller still sees it
    return error
