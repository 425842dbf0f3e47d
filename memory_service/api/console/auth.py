"""Signing in and out of the console, and what every page needs: the signed-in admin and
checked forms.

The session cookie is issued here (see ``session.py`` for what it holds); every request
checks it and that its key is still an active admin key, and every form post checks its
CSRF token before anything is done.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from memory_service.api.console.rendering import render
from memory_service.api.console.session import (
    COOKIE_PATH,
    LOGIN_COOKIE,
    LOGIN_NONCE_SECONDS,
    SESSION_COOKIE,
    ConsoleSession,
    SessionSigner,
)
from memory_service.api.deps import ContainerDep
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope

router = APIRouter(prefix="/admin", include_in_schema=False)

_MAX_KEY_LENGTH = 200


class SignInRequired(Exception):
    """No valid console session: the handler answers with a redirect to the sign-in page."""


class FormRejected(Exception):
    """A form without a valid CSRF token: answered 403, nothing done."""


class ConsoleUnavailable(Exception):
    """The key store cannot be reached: answered with a 503 page (and ``Retry-After``)."""


def get_signer(request: Request) -> SessionSigner:
    signer: SessionSigner = request.app.state.console_signer
    return signer


SignerDep = Annotated[SessionSigner, Depends(get_signer)]


@dataclass(frozen=True)
class SignedIn:
    """The console session and the admin scope it acts with (``key:<id>``, as the API)."""

    session: ConsoleSession
    scope: TenantScope


def current_session(request: Request, container: ContainerDep, signer: SignerDep) -> SignedIn:
    """The signed-in admin; the key must still be active, so revoking it signs them out."""
    session = signer.read(request.cookies.get(SESSION_COOKIE), container.clock.now())
    if session is None:
        raise SignInRequired
    try:
        key = container.keys.active(session.tenant_id, session.key_id)
    except DependencyUnavailable as exc:
        raise ConsoleUnavailable from exc
    if key is None or key.role is not Role.ADMIN:
        raise SignInRequired
    return SignedIn(
        session, TenantScope(tenant_id=key.tenant_id, role=key.role, actor=f"key:{key.id}")
    )


Admin = Annotated[SignedIn, Depends(current_session)]


async def checked_form(request: Request, expected_token: str) -> FormData:
    form = await request.form()
    if not SessionSigner.matches(expected_token, form.get("csrf")):
        raise FormRejected
    return form


@router.get("/login")
def login_form(request: Request, signer: SignerDep) -> HTMLResponse:
    return _login_page(request, signer)


def _login_page(
    request: Request, signer: SignerDep, *, error: str | None = None, status_code: int = 200
) -> HTMLResponse:
    nonce = secrets.token_urlsafe(16)
    response = render(
        "login.html",
        status_code=status_code,
        csrf=signer.login_token(nonce),
        error=error,
    )
    _set_cookie(request, response, LOGIN_COOKIE, nonce, LOGIN_NONCE_SECONDS)
    return response


@router.post("/login", response_model=None)
async def login(request: Request, container: ContainerDep, signer: SignerDep) -> Response:
    nonce = request.cookies.get(LOGIN_COOKIE, "")
    try:
        form = await checked_form(request, signer.login_token(nonce) if nonce else "")
    except FormRejected:
        return _login_page(
            request, signer, error="The form expired; sign in again.", status_code=403
        )
    clear_key = form.get("key")
    key = None
    if isinstance(clear_key, str) and 0 < len(clear_key) <= _MAX_KEY_LENGTH:
        try:
            key = container.keys.authenticate(clear_key.strip())
        except DependencyUnavailable as exc:
            raise ConsoleUnavailable from exc
    if key is None or key.role is not Role.ADMIN:
        # One answer for unknown, revoked and agent keys: the page tells no key's standing.
        return _login_page(
            request, signer, error="That is not an active admin key.", status_code=401
        )
    _, cookie = signer.issue(key.id, key.tenant_id, container.clock.now())
    response = RedirectResponse("/admin/", status_code=303)
    _set_cookie(request, response, SESSION_COOKIE, cookie, int(signer.lifetime.total_seconds()))
    response.delete_cookie(LOGIN_COOKIE, path=COOKIE_PATH)
    return response


@router.post("/logout")
async def logout(request: Request, admin_session: Admin, signer: SignerDep) -> RedirectResponse:
    await checked_form(request, signer.csrf_token(admin_session.session))
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
    return response


def _set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=COOKIE_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
