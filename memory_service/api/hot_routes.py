"""The two hot requests, saving a note and rendering the context, as plain Starlette routes.

FastAPI's own routes for them stay declared (``routes/sessions.py``, ``routes/subjects.py``):
they make the OpenAPI document and are the reference these are held to
(``tests/e2e/test_hot_routes.py``: the same status, headers and body for every request of a
corpus of good and bad ones). Put in front of them, these answer instead, with the same steps
in the same order and without FastAPI's per-request dependency solving:

1. the bearer key, read by FastAPI's own ``HTTPBearer`` and checked by the same
   :func:`~memory_service.api.deps.authenticate` (key cache, else the key store): 401;
2. for a note, the same notes rate limit (:func:`~memory_service.api.rate_limit.limit_notes`):
   429;
3. the path and query parameters, validated by FastAPI's own validator against the reference
   route's declarations (one source: the declarations in the route's signature): 422 with the
   same message;
4. the same answer function as the reference route (:func:`note_answer`,
   :func:`context_answer`): one hop to the thread pool for the service call;
5. the answer serialised by the same pydantic model, as FastAPI does (``dump_json``).

Errors are raised, not answered here: the application's exception handlers turn them into
``{"error": {"code", "message"}}`` as for every other route, and the middleware (body limit,
metrics labelled by the route template, unexpected errors) wraps these routes as the others.
``benchmarks/http_floor.py`` measures what this saves against the reference routes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.utils import request_params_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import Scope

from memory_service.api.deps import authenticate, bearer
from memory_service.api.rate_limit import limit_notes
from memory_service.api.routes import sessions, subjects
from memory_service.api.routes.sessions import note_answer
from memory_service.api.routes.subjects import context_answer
from memory_service.bootstrap import Container
from memory_service.core.scope import TenantScope

Endpoint = Callable[[Request], Awaitable[Response]]


class HotRoute(Route):
    """A Starlette route answering one method of a FastAPI route's path, in front of it.

    It takes exactly the reference route's methods (Starlette would add HEAD to a GET, which
    the reference answers 405) and names itself as the matched route in the scope, as FastAPI's
    routes do, so the metrics label it by the same template.
    """

    def __init__(self, reference: APIRoute, endpoint: Callable[[Request], Awaitable[Response]]):
        methods = set(reference.methods or ())
        super().__init__(reference.path, endpoint, methods=sorted(methods))
        self.methods = methods
        self.reference = reference

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match is not Match.NONE:
            child_scope["route"] = self
        return match, child_scope


def parameters(route: APIRoute, request: Request) -> dict[str, Any]:
    """The path and query parameters as the reference route declares and validates them."""
    values, errors = request_params_to_args(route.dependant.path_params, request.path_params)
    query, query_errors = request_params_to_args(route.dependant.query_params, request.query_params)
    if errors or query_errors:
        raise RequestValidationError([*errors, *query_errors])
    return values | query


async def caller(request: Request) -> tuple[Container, TenantScope]:
    container: Container = request.app.state.container
    return container, await authenticate(container, await bearer(request))


def json_answer(answer: BaseModel) -> Response:
    """What FastAPI sends for a response model: pydantic's own JSON bytes."""
    body = type(answer).__pydantic_serializer__.to_json(answer)
    return Response(body, media_type="application/json")


def save_note_route(reference: APIRoute) -> HotRoute:
    async def save_note(request: Request) -> Response:
        container, scope = await caller(request)
        await limit_notes(scope, container)
        values = parameters(reference, request)
        answer = await note_answer(
            container, scope, values["session_id"], await request.body(), dry_run=values["dry_run"]
        )
        return json_answer(answer)

    return HotRoute(reference, save_note)


def get_context_route(reference: APIRoute) -> HotRoute:
    async def get_context(request: Request) -> Response:
        container, scope = await caller(request)
        values = parameters(reference, request)
        answer = await run_in_threadpool(
            context_answer,
            container,
            scope,
            values["subject_id"],
            session_id=values["session_id"],
            purpose=values["purpose"],
            max_tokens=values["max_tokens"],
        )
        return json_answer(answer)

    return HotRoute(reference, get_context)


HOT_ROUTES: dict[tuple[str, str], Callable[[APIRoute], HotRoute]] = {
    ("POST", "/v1/sessions/{session_id}/notes"): save_note_route,
    ("GET", "/v1/subjects/{subject_id}/context"): get_context_route,
}


def install_hot_routes(app: FastAPI) -> None:
    """Put each hot route in front of its reference (which must exist: a renamed path fails
    here, at start, rather than leaving the hot path to FastAPI unnoticed).

    The references are looked up in their own routers (``include_router`` may copy or wrap
    them, depending on FastAPI's version); the hot routes go first in the application's."""
    references = {
        (method, route.path): route
        for route in (*sessions.router.routes, *subjects.router.routes)
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    }
    app.router.routes[:0] = [make(references[key]) for key, make in HOT_ROUTES.items()]
