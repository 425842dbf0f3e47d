"""Errors the core and services raise; ``api/errors.py`` maps each to one HTTP status.

    MemoryServiceError
    ├── AuthenticationError      401 unauthenticated: missing, bad or revoked key
    ├── PermissionDenied         403 forbidden: the key's role may not do this
    ├── NotFound                 404 not_found: absent, or another tenant's (same answer)
    ├── Conflict                 409 conflict: e.g. the session already ended
    ├── InvalidRequest           422 invalid_request: a malformed argument
    └── DependencyUnavailable    503 unavailable: database, broker or LLM down; retry later

Messages are safe to show to the caller: they never contain note text, keys or values.
"""

from __future__ import annotations


class MemoryServiceError(Exception):
    code = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
