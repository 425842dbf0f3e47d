"""Refuse oversized request bodies before any parsing, whatever Content-Length claims, and
bodies whose text cannot be stored (:mod:`memory_service.api.text_body`)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_service.api.errors import PAYLOAD_TOO_LARGE, STATUS_BY_ERROR, error_response
from memory_service.api.text_body import body_problem
from memory_service.core.errors import InvalidRequest


class BodyLimitMiddleware:
    """Reads the body up to ``max_bytes``, checks its text and replays it; past that answers 413."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        more_body = True
        while more_body:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body.extend(message.get("body", b""))
            more_body = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        problem = body_problem(bytes(body)) if body else None
        if problem is not None:
            await error_response(STATUS_BY_ERROR[InvalidRequest], InvalidRequest.code, problem)(
                scope, receive, send
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request body is larger than {self.max_bytes} bytes"
        await error_response(413, PAYLOAD_TOO_LARGE, message)(scope, receive, send)
