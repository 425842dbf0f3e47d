"""The admin console's pages: find a subject, its memories and history, correct, delete,
erase, export.

Every action calls the same service function as the API route it mirrors, with the same
scope (``key:<id>``), so it leaves the same audit events. A service error becomes an HTML
page with the code the API would answer; a refused correction lists its reason codes,
never the text.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from memory_service.api.console.auth import Admin, SignedIn, SignerDep, checked_form
from memory_service.api.console.rendering import render
from memory_service.api.console.session import SessionSigner
from memory_service.api.deps import ContainerDep
from memory_service.api.errors import status_for
from memory_service.bootstrap import Container
from memory_service.core.errors import InvalidRequest, MemoryServiceError
from memory_service.core.model import MemoryStatus
from memory_service.core.scope import validate_subject_id
from memory_service.services import admin, subjects
from memory_service.services.admin import CorrectionRefused

router = APIRouter(prefix="/admin", include_in_schema=False)

CORRECTION_REASONS = ("user_request", "inaccurate", "outdated", "incomplete")


def _page(
    template: str,
    admin_session: SignedIn | None,
    signer: SessionSigner,
    status_code: int = 200,
    **values: Any,
) -> HTMLResponse:
    if admin_session is not None:
        values.setdefault("csrf", signer.csrf_token(admin_session.session))
        values.setdefault("tenant_id", admin_session.scope.tenant_id)
    return render(template, status_code=status_code, **values)


def _error_page(
    admin_session: SignedIn,
    signer: SessionSigner,
    error: MemoryServiceError,
    subject_id: str | None = None,
) -> HTMLResponse:
    return _page(
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


# --- finding a subject ----------------------------------------------------------------


@router.get("/")
def home(admin_session: Admin, signer: SignerDep) -> HTMLResponse:
    return _page("home.html", admin_session, signer)


@router.get("/subjects", response_model=None)
def find_subject(admin_session: Admin, signer: SignerDep, subject_id: str = "") -> Response:
    try:
        subject = validate_subject_id(subject_id.strip())
    except InvalidRequest as exc:
        return _page("home.html", admin_session, signer, status_code=422, error=exc.message)
    return RedirectResponse(_subject_url(subject), status_code=303)


@router.get("/subjects/{subject_id}")
def subject_page(
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
    status: str = "",
    done: str = "",
) -> HTMLResponse:
    return _subject_page(subject_id, admin_session, signer, container, status=status, done=done)


def _subject_page(
    subject_id: str,
    admin_session: SignedIn,
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
            admin_session.scope,
            subject_id,
            memory_scope=None,
            status=wanted,
            uow_factory=container.uow_factory,
        )
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc)
    return _page(
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
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> HTMLResponse:
    try:
        events = admin.subject_history(admin_session.scope, subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc)
    return _page("history.html", admin_session, signer, subject_id=subject_id, events=events)


@router.get("/subjects/{subject_id}/export", response_model=None)
def export_download(
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    try:
        document = admin.export_subject(admin_session.scope, subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc)
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
    form = await checked_form(request, signer.csrf_token(admin_session.session))
    subject_id = str(form.get("subject_id", ""))
    try:
        corrected = admin.correct_memory(
            admin_session.scope,
            memory_id,
            form.get("text"),
            form.get("reason"),
            deps=container.admin,
        )
    except CorrectionRefused as refusal:
        return _subject_page(
            subject_id,
            admin_session,
            signer,
            container,
            refusal=refusal,
            refused_memory=memory_id,
            status_code=422,
        )
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc, subject_id=subject_id or None)
    return RedirectResponse(_subject_url(corrected.subject_id, done="corrected"), status_code=303)


@router.post("/memories/{memory_id}/delete", response_model=None)
async def delete(
    request: Request,
    memory_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    await checked_form(request, signer.csrf_token(admin_session.session))
    try:
        deleted = admin.delete_memory(admin_session.scope, memory_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc)
    return RedirectResponse(_subject_url(deleted.subject_id, done="deleted"), status_code=303)


# --- erasing a subject ----------------------------------------------------------------


@router.get("/subjects/{subject_id}/erase")
def erase_form(subject_id: str, admin_session: Admin, signer: SignerDep) -> HTMLResponse:
    return _page("erase.html", admin_session, signer, subject_id=subject_id)


@router.post("/subjects/{subject_id}/erase", response_model=None)
async def erase(
    request: Request,
    subject_id: str,
    admin_session: Admin,
    signer: SignerDep,
    container: ContainerDep,
) -> Response:
    form = await checked_form(request, signer.csrf_token(admin_session.session))
    if form.get("confirm") != subject_id:
        return _page(
            "erase.html",
            admin_session,
            signer,
            status_code=422,
            subject_id=subject_id,
            error="The id you typed does not match; nothing was erased.",
        )
    try:
        receipt = admin.erase_subject(admin_session.scope, subject_id, deps=container.admin)
    except MemoryServiceError as exc:
        return _error_page(admin_session, signer, exc)
    container.metrics.subject_erased(receipt.counts.get("memories", 0))
    document = json.dumps(receipt.to_dict(), indent=2, default=str)
    return _page(
        "receipt.html",
        admin_session,
        signer,
        subject_id=subject_id,
        receipt=receipt,
        receipt_json=document,
        receipt_href="data:application/json;base64," + base64.b64encode(document.encode()).decode(),
        receipt_filename=f"erasure-receipt-{receipt.id}.json",
    )
