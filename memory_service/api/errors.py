"""Core errors to HTTP statuses and the ``{"error": {"code", "message"}}`` body, in one place.

Messages come from the core, which never puts note text, keys or values in them. Anything
unexpected becomes a generic 500 with a request id (see ``api/unexpected.py``).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from memory_service.api.unexpected import internal_error_body, log_unexpected
from memory_service.core.errors import (
    AuthenticationError,
    Conflict,
    DependencyUnavailable,
    InvalidRequest,
    MemoryServiceError,
    NotFound,
    PermissionDenied,
)

RETRY_AFTER_SECONDS = "5"

STATUS_BY_ERROR: dict[type[MemoryServiceError], int] = {
    AuthenticationError: 401,
    PermissionDenied: 403,
    NotFound: 404,
    Conflict: 409,
    InvalidRequest: 422,
    DependencyUnavailable: 503,
}

PAYLOAD_TOO_LARGE = "payload_too_large"
RATE_LIMITED = "rate_limited"

# Statuses the framework raises itself; the core's own errors carry their ``code``.
_CODE_BY_HTTP_STATUS = {
    400: "bad_request",
    401: AuthenticationError.code,
    403: PermissionDenied.code,
    404: NotFound.code,
    405: "method_not_allowed",
    413: PAYLOAD_TOO_LARGE,
    415: "unsupported_media_type",
    429: RATE_LIMITED,
    501: "not_implemented",
}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


def status_for(error: MemoryServiceError) -> int:
    for error_type in type(error).__mro__:
        if error_type in STATUS_BY_ERROR:
            return STATUS_BY_ERROR[error_type]
    return 500


async def _service_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, MemoryServiceError)
    status = status_for(exc)
    if status == 500:
        return JSONResponse(internal_error_body(log_unexpected(exc)), status_code=500)
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if status == 503:
        headers["Retry-After"] = RETRY_AFTER_SECONDS
    return error_response(status, exc.code, exc.message, headers or None)


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    """Name where the request is wrong and how, never what it contained.

    Only declared parameter names are quoted: an unknown field's name is the caller's
    data (a client could send note text as a key), so it is counted, not repeated.
    """
    assert isinstance(exc, RequestValidationError)
    problems = []
    unknown_fields = 0
    for problem in exc.errors():
        kind = str(problem.get("type", "invalid"))
        if kind == "extra_forbidden":
            unknown_fields += 1
            continue
        location = [str(part) for part in problem.get("loc", ())][:2]
        problems.append(f"{'.'.join(location)}: {kind}")
    if unknown_fields:
        problems.append(f"{unknown_fields} unknown field(s)")
    return error_response(
        STATUS_BY_ERROR[InvalidRequest],
        InvalidRequest.code,
        "; ".join(problems[:5]) or "invalid request",
    )


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _CODE_BY_HTTP_STATUS.get(exc.status_code, "error")
    message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    return error_response(exc.status_code, code, message, getattr(exc, "headers", None))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(MemoryServiceError, _service_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
