"""Admin lifecycle: correct, delete, erase, export, history (admin keys, own tenant only)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from memory_service.api.deps import AdminScope, ContainerDep
from memory_service.api.routes.sessions import ERRORS

router = APIRouter(prefix="/v1/admin", tags=["admin"])

_NOT_BUILT = "admin lifecycle operations are not built yet"


@router.post("/memories/{memory_id}/correct", responses=ERRORS)
def correct_memory(memory_id: str, scope: AdminScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, _NOT_BUILT)


@router.delete("/memories/{memory_id}", responses=ERRORS)
def delete_memory(memory_id: str, scope: AdminScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, _NOT_BUILT)


@router.delete("/subjects/{subject_id}", responses=ERRORS)
def erase_subject(subject_id: str, scope: AdminScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, _NOT_BUILT)


@router.get("/subjects/{subject_id}/export", responses=ERRORS)
def export_subject(subject_id: str, scope: AdminScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, _NOT_BUILT)


@router.get("/subjects/{subject_id}/history", responses=ERRORS)
def subject_history(subject_id: str, scope: AdminScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, _NOT_BUILT)
