"""The outermost guard: an unexpected exception becomes a generic 500 and goes no further.

Starlette's own error middleware re-raises after answering, and the server then logs the
exception with its message and causes, which can quote note text or driver parameters.
This middleware answers and swallows instead, logging only the type, frames and a request id.
"""

from __future__ import annotations

import json
import logging
import traceback
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_service.core.errors import MemoryServiceError

log = logging.getLogger("memory_service.api")


def log_unexpected(exc: BaseException) -> str:
    """Log an unexpected error by type and frames only; return the request id to quote."""
    request_id = uuid.uuid4().hex
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("unexpected %s (request %s)\n%s", type(exc).__name__, request_id, frames)
    return request_id


def internal_error_body(request_id: str) -> dict[str, dict[str, str]]:
    return {
        "error": {
            "code": MemoryServiceError.code,
            "message": f"internal error; quote request id {request_id} to the operator",
        }
    }


class UnexpectedErrorMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        response_started = False

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # the last line of defence: nothing may escape with a message
            request_id = log_unexpected(exc)
            if response_started:
                return
            payload = json.dumps(internal_error_body(request_id)).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(payload)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
