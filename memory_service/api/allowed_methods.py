"""``OPTIONS`` and ``405 Allow`` answers that name every method of a path, not one route's.

Starlette routes a path by trying each route in turn: a method no route of the path takes
gets the 405 of the first route whose path matched, so ``Allow`` named only that route's
methods (``OPTIONS /v1/sessions/{id}/turns`` answered ``Allow: POST``, though the path
also takes GET and DELETE). Here the methods of every route matching the path are
collected: a 405 carries them all, and ``OPTIONS`` on a known path answers 204 with
them (plus OPTIONS itself) without a key, since it tells no more than ``/openapi.json``.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.routing import BaseRoute, Match, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_STATIC_METHODS = frozenset({"GET", "HEAD"})
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(routes: Iterable[BaseRoute], scope: Scope) -> set[str]:
    """The methods the routes take at the path of ``scope`` (empty for an unknown path).

    Each method is asked of the routes as the router asks (a full match is a route that
    takes the path and the method), so routers nested by the framework answer too.
    A static files mount matches any method but serves only GET and HEAD.
    """
    methods: set[str] = set()
    for route in routes:
        if isinstance(route, Mount) and isinstance(route.app, StaticFiles):
            if route.matches(scope)[0] is not Match.NONE:
                methods.update(_STATIC_METHODS)
            continue
        methods.update(
            method
            for method in _METHODS
            if route.matches({**scope, "method": method})[0] is Match.FULL
        )
    return methods


def allow_header(methods: Iterable[str]) -> str:
    return ", ".join(sorted(methods))


class AllowedMethodsMiddleware:
    """Answers ``OPTIONS`` for known paths and puts the path's methods in every 405's ``Allow``."""

    def __init__(self, app: ASGIApp, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        # The application's own list: routes added after the middleware are seen too.
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS":
            methods = allowed_methods(self.routes, scope)
            if methods:
                await _answer_options(send, methods | {"OPTIONS"})
                return
        # Routing rewrites the scope (a mount moves the root path): look up the path as sent.
        as_sent = dict(scope)

        async def send_with_allow(message: Message) -> None:
            # Only a 405 pays for the lookup: other answers pass untouched.
            if message["type"] == "http.response.start" and message["status"] == 405:
                allow = allow_header(allowed_methods(self.routes, as_sent)).encode("latin-1")
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                message = {**message, "headers": [*kept, (b"allow", allow)]}
            await send(message)

        await self.app(scope, receive, send_with_allow)


async def _answer_options(send: Send, methods: set[str]) -> None:
    headers = [(b"allow", allow_header(methods).encode("latin-1")), (b"content-length", b"0")]
    await send({"type": "http.response.start", "status": 204, "headers": headers})
    await send({"type": "http.response.body", "body": b""})
