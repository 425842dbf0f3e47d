"""create_app(): the FastAPI application around one wired Container."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from memory_service import __version__
from memory_service.api.allowed_methods import AllowedMethodsMiddleware
from memory_service.api.body_limit import BodyLimitMiddleware
from memory_service.api.console import install_console
from memory_service.api.errors import install_error_handlers
from memory_service.api.hot_routes import install_hot_routes
from memory_service.api.metrics import RequestMetricsMiddleware
from memory_service.api.metrics import router as metrics_router
from memory_service.api.routes import admin, health, sessions, subjects, turns
from memory_service.api.unexpected import UnexpectedErrorMiddleware
from memory_service.bootstrap import Container


def create_app(container: Container) -> FastAPI:
    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        # A graceful stop writes the renders' manifests still queued (adapters/manifest_queue.py);
        # the queue's own atexit hook is the backstop when no lifespan runs.
        if container.manifests is not None:
            container.manifests.flush()

    app = FastAPI(
        lifespan=lifespan,
        title="memory-service",
        version=__version__,
        description=(
            "Long-term memory for LLM agents: guarded writes, consolidation, injection and "
            "erasure, scoped to a tenant and a subject. All /v1 calls take a bearer API key."
        ),
    )
    app.state.container = container
    install_error_handlers(app)
    for router in (
        sessions.router,
        turns.router,
        subjects.router,
        admin.router,
        health.router,
        metrics_router,
    ):
        app.include_router(router)
    install_console(app, container)
    install_hot_routes(app)  # in front of their FastAPI routes, which make the document
    app.add_middleware(AllowedMethodsMiddleware, routes=app.router.routes)
    app.add_middleware(BodyLimitMiddleware, max_bytes=container.settings.max_body_bytes)
    app.add_middleware(RequestMetricsMiddleware, metrics=container.metrics)
    app.add_middleware(UnexpectedErrorMiddleware)  # added last: the outermost of ours
    return app
