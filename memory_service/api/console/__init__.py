"""The admin console: server-rendered pages under ``/admin/`` for a tenant's admin keys.

``install_console(app, container)`` mounts it; it calls the same services as the ``/v1``
admin routes. See ``routes.py`` for the pages and ``session.py`` for the cookie and CSRF.
"""

from __future__ import annotations

from datetime import timedelta
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from memory_service.api.console import auth, pages
from memory_service.api.console.auth import ConsoleUnavailable, FormRejected, SignInRequired
from memory_service.api.console.rendering import render
from memory_service.api.console.session import SessionSigner, derive_signing_key
from memory_service.api.errors import RETRY_AFTER_SECONDS
from memory_service.bootstrap import Container
from memory_service.core.errors import DependencyUnavailable

__all__ = ["install_console"]


def install_console(app: FastAPI, container: Container) -> None:
    app.state.console_signer = SessionSigner(
        derive_signing_key(container.settings.master_key()),
        timedelta(minutes=container.settings.console_session_minutes),
    )
    app.include_router(auth.router)
    app.include_router(pages.router)
    static = files("memory_service.api.console") / "static"
    app.mount("/admin/static", StaticFiles(directory=str(static)), name="console-static")
    app.add_exception_handler(SignInRequired, _to_sign_in)
    app.add_exception_handler(FormRejected, _form_rejected)
    app.add_exception_handler(ConsoleUnavailable, _unavailable)


async def _to_sign_in(_: Request, __: Exception) -> Response:
    return RedirectResponse("/admin/login", status_code=303)


async def _form_rejected(_: Request, __: Exception) -> HTMLResponse:
    return render(
        "error.html",
        status_code=403,
        code="csrf_failed",
        message=(
            "This form did not come from a console page you opened, or it expired. "
            "Nothing was changed; reload the page and try again."
        ),
    )


async def _unavailable(_: Request, __: Exception) -> HTMLResponse:
    response = render(
        "error.html",
        status_code=503,
        code=DependencyUnavailable.code,
        message="The service cannot reach its database right now. Try again in a moment.",
    )
    response.headers["Retry-After"] = RETRY_AFTER_SECONDS
    return response
