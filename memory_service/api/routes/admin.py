"""Admin lifecycle: correct, delete, erase, export, history (admin keys, own tenant only).

Another tenant's memory answers 404 exactly like an unknown id; another tenant's subject
is simply not held here: its erasure leaves a receipt of zero counts and its export is
empty, the same answers an unknown subject gets.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from memory_service.api.admin_schemas import (
    AuditEventOut,
    CorrectionResponse,
    CorrectMemoryRequest,
    DeletedMemoryResponse,
    ErasureReceiptResponse,
    HistoryResponse,
)
from memory_service.api.deps import AdminScope, ContainerDep
from memory_service.api.path_ids import MemoryId, SubjectId
from memory_service.api.routes.sessions import ERRORS
from memory_service.api.schemas import MemoryOut
from memory_service.services import admin

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.post("/memories/{memory_id}/correct", responses=ERRORS)
def correct_memory(
    memory_id: MemoryId, body: CorrectMemoryRequest, scope: AdminScope, container: ContainerDep
) -> CorrectionResponse:
    """A new global memory supersedes this one; refused (422) if the text fails a guard."""
    corrected = admin.correct_memory(scope, memory_id, body.text, body.reason, deps=container.admin)
    return CorrectionResponse(memory=MemoryOut.of(corrected), superseded=memory_id)


@router.delete("/memories/{memory_id}", responses=ERRORS)
def delete_memory(
    memory_id: MemoryId, scope: AdminScope, container: ContainerDep
) -> DeletedMemoryResponse:
    """Status ``deleted``, text overwritten. Repeating it answers the same."""
    return DeletedMemoryResponse.of(admin.delete_memory(scope, memory_id, deps=container.admin))


@router.delete("/subjects/{subject_id}", responses=ERRORS)
def erase_subject(
    subject_id: SubjectId, scope: AdminScope, container: ContainerDep
) -> ErasureReceiptResponse:
    """Erase everything held about the subject; the receipt is kept. Safe to repeat."""
    receipt = admin.erase_subject(scope, subject_id, deps=container.admin)
    container.metrics.subject_erased(receipt.counts.get("memories", 0))
    return ErasureReceiptResponse.of(receipt)


@router.get("/subjects/{subject_id}/export", responses=ERRORS)
def export_subject(
    subject_id: SubjectId, scope: AdminScope, container: ContainerDep
) -> dict[str, Any]:
    """Memories with provenance and history, state, sessions, erasure receipts, audit events."""
    return admin.export_subject(scope, subject_id, deps=container.admin)


@router.get("/subjects/{subject_id}/history", responses=ERRORS)
def subject_history(
    subject_id: SubjectId, scope: AdminScope, container: ContainerDep
) -> HistoryResponse:
    """The subject's audit events, oldest first: ids, kinds, times and counts, never text."""
    events = admin.subject_history(scope, subject_id, deps=container.admin)
    return HistoryResponse(
        subject_id=subject_id, events=[AuditEventOut.of(event) for event in events]
    )
