"""``GET /metrics`` in the Prometheus text format, and request latency by route template.

The route label is the matched route's template (``/v1/sessions/{session_id}/notes``), never
the raw path, so ids never become label values; a request that matched no route counts as
``unmatched``. ``MEMORY_SERVICE_METRICS_TOKEN`` makes the scrape require that bearer token.
"""

from __future__ import annotations

import hmac
import time

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_service.adapters.prometheus_metrics import OutboxCollector
from memory_service.api.deps import ContainerDep
from memory_service.core.errors import AuthenticationError
from memory_service.core.ports import Metrics

router = APIRouter(tags=["health"])

# Anything else is counted as "other", so made-up methods cannot add label values.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request, container: ContainerDep) -> Response:
    token = container.settings.metrics_token
    if token is not None:
        presented = request.headers.get("authorization", "")
        if not hmac.compare_digest(presented.encode(), f"Bearer {token}".encode()):
            raise AuthenticationError("a valid bearer token is required for /metrics")
    body = container.metrics.exposition(OutboxCollector(container.maintenance, container.clock))
    return Response(body, media_type=CONTENT_TYPE_LATEST)


class RequestMetricsMiddleware:
    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # what the client gets if nothing answers

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            route = getattr(scope.get("route"), "path", None)
            method = scope["method"]
            self.metrics.request_served(
                method if method in _METHODS else "other",
                route if isinstance(route, str) else "unmatched",
                status,
                time.perf_counter() - started,
            )
