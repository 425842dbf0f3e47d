"""Sessions: open, save a note (the agent's tool), end."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status
from starlette.concurrency import run_in_threadpool

from memory_service.api.deps import AgentScope, ContainerDep
from memory_service.api.note_schemas import NoteResponse
from memory_service.api.path_ids import SessionId
from memory_service.api.rate_limit import limit_notes
from memory_service.api.schemas import ErrorBody, OpenSessionRequest, SessionResponse
from memory_service.bootstrap import Container
from memory_service.core.errors import InvalidRequest
from memory_service.core.scope import TenantScope
from memory_service.services import notes, sessions
from memory_service.tool import http_body_schema

router = APIRouter(prefix="/v1/sessions", tags=["sessions"])

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 413, 422, 503)
}


# OpenAPI links: a stateful client follows the ids an answer holds to the routes that take
# them: the opened session's id and subject, and a saved note's memory id.
def _links(operations: dict[str, str], parameters: dict[str, str]) -> dict[str, dict[str, object]]:
    return {
        name: {"operationId": operation, "parameters": parameters}
        for name, operation in operations.items()
    }


_SESSION_ID = {"session_id": "$response.body#/session_id"}
_SUBJECT_ID = {"subject_id": "$response.body#/subject_id"}
_MEMORY_ID = {"memory_id": "$response.body#/memory_id"}
_OPENED_SESSION_LINKS = {
    **_links(
        {
            "SaveNote": "save_note_v1_sessions__session_id__notes_post",
            "AppendTurns": "append_turns_v1_sessions__session_id__turns_post",
            "ReadTurns": "read_turns_v1_sessions__session_id__turns_get",
            "PopTurn": "pop_item_v1_sessions__session_id__turns_last_delete",
            "ClearTurns": "clear_turns_v1_sessions__session_id__turns_delete",
            "EndSession": "end_session_v1_sessions__session_id__end_post",
        },
        _SESSION_ID,
    ),
    **_links(
        {"GetSessionContext": "get_context_v1_subjects__subject_id__context_get"},
        _SUBJECT_ID | _SESSION_ID,
    ),
    **_links(
        {
            "PutState": "put_state_v1_subjects__subject_id__state_put",
            "ListMemories": "list_memories_v1_subjects__subject_id__memories_get",
            "ExportSubject": "export_subject_v1_admin_subjects__subject_id__export_get",
            "SubjectHistory": "subject_history_v1_admin_subjects__subject_id__history_get",
            "EraseSubject": "erase_subject_v1_admin_subjects__subject_id__delete",
        },
        _SUBJECT_ID,
    ),
}
_SAVED_NOTE_LINKS = {
    **_links(
        {"ConfirmNote": "confirm_note_v1_sessions__session_id__notes__memory_id__confirm_post"},
        {"session_id": "$request.path.session_id"} | _MEMORY_ID,
    ),
    **_links(
        {
            "CorrectMemory": "correct_memory_v1_admin_memories__memory_id__correct_post",
            "DeleteMemory": "delete_memory_v1_admin_memories__memory_id__delete",
        },
        _MEMORY_ID,
    ),
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses={
        **ERRORS,
        201: {"description": "The opened session", "links": _OPENED_SESSION_LINKS},
    },
)
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


NOTE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The save_memory_note tool's arguments (read by the service itself, "
        "so no validation message can echo note text).",
        "content": {"application/json": {"schema": http_body_schema()}},
    }
}


def tool_arguments(raw: bytes) -> object:
    """The raw JSON body. Wrong types inside the object are the guards' job (``invalid``)."""
    try:
        arguments = json.loads(raw)
    except (RecursionError, ValueError):  # UnicodeDecodeError is a ValueError
        raise InvalidRequest("the body must be a JSON object (UTF-8)") from None
    if not isinstance(arguments, dict):
        raise InvalidRequest("the body must be a JSON object")
    return arguments


async def note_answer(
    container: Container, scope: TenantScope, session_id: str, raw: bytes, *, dry_run: bool
) -> NoteResponse:
    """The note's outcome, counted; the service call in the thread pool (guards, database)."""
    result = await run_in_threadpool(
        notes.save_memory_note,
        scope,
        session_id,
        tool_arguments(raw),
        dry_run=dry_run,
        deps=container.notes,
    )
    container.metrics.note_answered(
        result.status.value, [reason.code.value for reason in result.reasons], dry_run=dry_run
    )
    return NoteResponse.of(result)


@router.post(
    "/{session_id}/notes",
    responses={
        **ERRORS,
        200: {"description": "The note's outcome", "links": _SAVED_NOTE_LINKS},
        429: {"model": ErrorBody},
    },
    openapi_extra=NOTE_BODY,
    dependencies=[Depends(limit_notes)],
)
async def save_note(
    session_id: SessionId,
    request: Request,
    scope: AgentScope,
    container: ContainerDep,
    dry_run: Annotated[bool, Query(description="Validate without storing anything")] = False,
) -> NoteResponse:
    """``save_memory_note``: ``saved``, ``rejected`` (with reasons), ``duplicate`` or
    ``needs_confirmation``; every status answers 200, a rejection is a result.

    Declared here for the OpenAPI document and as the reference; the requests are answered
    by the hot route in front of it (``api/hot_routes.py``), which calls :func:`note_answer`
    the same way."""
    return await note_answer(container, scope, session_id, await request.body(), dry_run=dry_run)


@router.post("/{session_id}/notes/{memory_id}/confirm", responses=ERRORS)
def confirm_note(
    session_id: SessionId, memory_id: str, scope: AgentScope, container: ContainerDep
) -> NoteResponse:
    """The user confirmed a held note: it becomes active (or ``duplicate`` if it now is)."""
    return NoteResponse.of(notes.confirm_note(scope, session_id, memory_id, deps=container.notes))


@router.post("/{session_id}/end", status_code=status.HTTP_202_ACCEPTED, responses=ERRORS)
def end_session(
    session_id: SessionId, scope: AgentScope, container: ContainerDep
) -> SessionResponse:
    """Ends the session; its consolidation is queued once the end is committed."""
    session = sessions.end_session(
        scope,
        session_id,
        uow_factory=container.uow_factory,
        clock=container.clock,
        tasks=container.tasks,
    )
    return SessionResponse.of(session)
