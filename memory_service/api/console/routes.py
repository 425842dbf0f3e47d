"""The admin console's pages: sign in, find a subject, correct, delete, erase, export.

Every action calls the same service function as the API route it mirrors, with the same
scope (``key:<id>``), so it leaves the same audit events. Forms post back to the console
with a CSRF token; a service error becomes an HTML page with the code the API would answer,
and a refused correction lists its reason codes, never the text.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
from typing import Annotated, Any
from urllib.parse import quote

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
from memory_service.api.errors import status_for
from memory_service.bootstrap import Container
from memory_service.core.errors import InvalidRequest, MemoryServiceError
from memory_service.core.model import MemoryStatus, Role
from memory_service.core.scope import TenantScope, validate_subject_id
from memory_service.services import admin, subjects
from memory_service.services.admin import CorrectionRefused

router = APIRouter(prefix="/admin", include_in_schema=False)

CORRECTION_REASONS = ("user_request", "inaccurate", "outdated", "incomplete")
_MAX_KEY_LENGTH = 200


class SignInRequired(Exception):
    """No valid console session: the handler answers with a redirect to the sign-in page."""


class FormRejected(Exception):
    """A form without a valid CSRF token: answered 403, nothing done."""


def get_signer(request: Request) -> SessionSigner:
    signer: SessionSigner = request.app.state.console_signer
    return signer


SignerDep = Annotated[SessionSigner, Depends(get_signer)]


def current_session(
    request: Request, container: ContainerDep, signer: SignerDep
) -> tuple[ConsoleSession, TenantScope]:
    """The signed-in admin; the key must still be active, so revoking it signs them out."""
    session = signer.read(request.cookies.get(SESSION_COOKIE), container.clock.now())
    if session is None:
        raise SignInRequired
    key = container.keys.active(session.tenant_id, session.key_id)
    if key is None or key.role is not Role.ADMIN:
        raise SignInRequired
    return session, TenantScope(tenant_id=key.tenant_id, role=key.role, actor=f"key:{key.id}")


Admin = Annotated[tuple[ConsoleSession, TenantScope], Depends(current_session)]


async def checked_form(request: Request, expected_token: str) -> FormData:
    form = await request.form()
    if not SessionSigner.matches(expected_token, form.get("csrf")):
        raise FormRejected
    return form


def _page(
    request: Request,
    template: str,
    admin_session: tuple[ConsoleSession, TenantScope] | None,
    signer: SessionSigner,
    status_code: int = 200,
    **values: Any,
) -> HTMLResponse:
    if admin_session is not None:
        session, scope = admin_session
        values.setdefault("csrf", signer.csrf_token(session))
        values.setdefault("tenant_id", scope.tenant_id)
    return render(template, status_code=status_code, **values)


def _error_page(
    request: Request,
    admin_session: tuple[ConsoleSession, TenantScope],
    signer: SessionSigner,
    error: MemoryServiceError,
    subject_id: str | None = None,
) -> HTMLResponse:
    return _page(
        request,
        "error.html",
        admin_session,
        signer,
        status_code=status_for(error),
        code=error.code,
        message=error.message,
        subject_id=subject_id,
    )


def _subject_url(subject_id: str, **query: str) -> str:
    url = f"/admin/subjects/{quote(subject_id, safe='')}"
    if query:
        url += "?" + "&".join(f"{name}={quote(value, safe='')}" for name, value in query.items())
    return url


# --- signing in and out ---------------------------------------------------------------


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
        key = container.keys.authenticate(clear_key.strip())
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
    await checked_form(request, signer.csrf_token(admin_session[0]))
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


# --- finding a subject ----------------------------------------------------------------


@router.get("/")
def home(request: Request, admin_session: Admin, signer: SignerDep) -> HTMLResponse:
    return _page(request, "home.html", admin_session, signer)


@router.get("/subjects", response_model=None)
def find_subject(
    request: Request, admin_session: Admin, signer: SignerDep, subject_id: str = ""
) -> Response:
    try:
        subject = validate_subject_id(subject_id.strip())
    except InvalidRequest as exc:
        return _page(
            request, "home.html", admin_session, signer, status_code=422, error=exc.message
        )
    return RedirectResponse(_subject_url(subject), status_code=303)


@router.get("/subjects/{subject_id}")
def subject_page(
    request: Request,
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
    status: str = "",
    done: str = "",
) -> HTMLResponse:
    return _subject_page(
        request, subject_id, admin_session, signer, container, status=status, done=done
    )


def _subject_page(
    request: Request,
    subject_id: str,
    admin_session: tuple[ConsoleSession, TenantScope],
    signer: SessionSigner,
    container: Container,
    *,
    status: str = "",
    done: str = "",
    refusal: CorrectionRefused | None = None,
    refused_memory: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    wanted = MemoryStatus(status) if status in MemoryStatus._value2member_map_ else None
    try:
        memories = subjects.list_memories(
            admin_session[1],
            subject_id,
            memory_scope=None,
            status=wanted,
            uow_factory=container.uow_factory,
        )
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc)
    return _page(
        request,
        "subject.html",
        admin_session,
        signer,
        status_code=status_code,
        subject_id=subject_id,
        memories=memories,
        statuses=[member.value for member in MemoryStatus],
        status=wanted.value if wanted else "",
        correctable={member.value for member in admin.CORRECTABLE},
        reasons=CORRECTION_REASONS,
        done=_DONE_MESSAGES.get(done),
        refusal=refusal,
        refused_memory=refused_memory,
        limit=subjects.MAX_LISTED_MEMORIES,
    )


_DONE_MESSAGES = {
    "corrected": "The memory was corrected: the new one supersedes it, both stay in the history.",
    "deleted": "The memory was deleted: its text is gone, the event stays in the history.",
}


@router.get("/subjects/{subject_id}/history")
def history_page(
    request: Request,
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> HTMLResponse:
    try:
        events = admin.subject_history(admin_session[1], subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc)
    return _page(
        request, "history.html", admin_session, signer, subject_id=subject_id, events=events
    )


@router.get("/subjects/{subject_id}/export", response_model=None)
def export_download(
    request: Request,
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    try:
        document = admin.export_subject(admin_session[1], subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc)
    return Response(
        json.dumps(document, indent=2, default=str),
        media_type="application/json",
        headers={"Content-Disposition": _attachment(f"export-{subject_id}.json")},
    )


def _attachment(filename: str) -> str:
    # Subject ids are letters, digits and . _ : - already; the colon is not a safe file name.
    return f'attachment; filename="{re.sub(r"[^A-Za-z0-9._-]", "_", filename)}"'


# --- correcting and deleting a memory -------------------------------------------------


@router.post("/memories/{memory_id}/correct", response_model=None)
async def correct(
    request: Request,
    memory_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    form = await checked_form(request, signer.csrf_token(admin_session[0]))
    subject_id = str(form.get("subject_id", ""))
    try:
        corrected = admin.correct_memory(
            admin_session[1],
            memory_id,
            form.get("text"),
            form.get("reason"),
            deps=container.admin,
        )
    except CorrectionRefused as refusal:
        return _subject_page(
            request,
            subject_id,
            admin_session,
            signer,
            container,
            refusal=refusal,
            refused_memory=memory_id,
            status_code=422,
        )
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc, subject_id=subject_id or None)
    return RedirectResponse(_subject_url(corrected.subject_id, done="corrected"), status_code=303)


@router.post("/memories/{memory_id}/delete", response_model=None)
async def delete(
    request: Request,
    memory_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    await checked_form(request, signer.csrf_token(admin_session[0]))
    try:
        deleted = admin.delete_memory(admin_session[1], memory_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc)
    return RedirectResponse(_subject_url(deleted.subject_id, done="deleted"), status_code=303)


# --- erasing a subject ----------------------------------------------------------------


@router.get("/subjects/{subject_id}/erase")
def erase_form(
    request: Request, subject_id: str, admin_session: Admin, signer: SignerDep
) -> HTMLResponse:
    return _page(request, "erase.html", admin_session, signer, subject_id=subject_id)


@router.post("/subjects/{subject_id}/erase", response_model=None)
async def erase(
    request: Request,
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    form = await checked_form(request, signer.csrf_token(admin_session[0]))
    if form.get("confirm") != subject_id:
        return _page(
            request,
            "erase.html",
            admin_session,
            signer,
            status_code=422,
            subject_id=subject_id,
            error="The id you typed does not match; nothing was erased.",
        )
    try:
        receipt = admin.erase_subject(admin_session[1], subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(request, admin_session, signer, exc)
    container.metrics.subject_erased(receipt.counts.get("memories", 0))
    document = json.dumps(receipt.to_dict(), indent=2, default=str)
    return _page(
        request,
        "receipt.html",
        admin_session,
        signer,
        subject_id=subject_id,
        receipt=receipt,
        receipt_json=document,
        receipt_href="data:application/json;base64," + base64.b64encode(document.encode()).decode(),
        receipt_filename=f"erasure-receipt-{receipt.id}.json",
    )
