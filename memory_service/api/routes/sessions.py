"""Sessions: open, save a note (the agent's tool), end."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from memory_service.api.deps import AgentScope, ContainerDep
from memory_service.api.schemas import ErrorBody, OpenSessionRequest, SessionResponse
from memory_service.services import sessions

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 413, 422, 503)
}


@router.post("", status_code=status.HTTP_201_CREATED, responses=ERRORS)
def open_session(
    body: OpenSessionRequest, scope: AgentScope, container: ContainerDep
) -> SessionResponse:
    session = sessions.open_session(
        scope,
        body.subject_id,
        body.purpose,
        uow_factory=container.uow_factory,
        clock=container.clock,
    )
    return SessionResponse.of(session)


@router.post("/{session_id}/notes", responses=ERRORS)
def save_note(session_id: str, scope: AgentScope, container: ContainerDep) -> None:
    raise HTTPException(status.HTTP_501_NOT_IMPLEMENTED, "save_memory_note is not built yet")


@router.post("/{session_id}/end", status_code=status.HTTP_202_ACCEPTED, responses=ERRORS)
def end_session(session_id: str, scope: AgentScope, container: ContainerDep) -> SessionResponse:
    """Ends the session; its consolidation is queued once the end is committed."""
    session = sessions.end_session(
        scope,
        session_id,
        uow_factory=container.uow_factory,
        clock=container.clock,
        tasks=container.tasks,
    )
    return SessionResponse.of(session)
