"""A session's conversation history, as agent runtimes keep it (e.g. the Agents SDK Session).

Append items, read the kept ones, pop the newest, clear. Only the last N turns are kept; the
notes saved in cut turns come back once in the next context.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from memory_service.api.deps import AgentScope, ContainerDep
from memory_service.api.path_ids import SessionId
from memory_service.api.routes.sessions import ERRORS
from memory_service.api.schemas import (
    AppendTurnsRequest,
    AppendTurnsResponse,
    ClearedTurnsResponse,
    PoppedItemResponse,
    TurnsResponse,
)
from memory_service.services import history

router = APIRouter(prefix="/v1/sessions", tags=["history"])

MAX_LIMIT = 10_000


@router.post("/{session_id}/turns", status_code=status.HTTP_201_CREATED, responses=ERRORS)
def append_turns(
    session_id: SessionId, body: AppendTurnsRequest, scope: AgentScope, container: ContainerDep
) -> AppendTurnsResponse:
    result = history.append(scope, session_id, body.items, deps=container.history)
    return AppendTurnsResponse(
        turns=result.turns, cut=result.cut, first_kept_turn=result.first_kept_turn
    )


@router.get("/{session_id}/turns", responses=ERRORS)
def read_turns(
    session_id: SessionId,
    scope: AgentScope,
    container: ContainerDep,
    limit: Annotated[int | None, Query(ge=0, le=MAX_LIMIT)] = None,
) -> TurnsResponse:
    """The kept items oldest first; with ``limit``, only the latest ``limit`` of them."""
    view = history.read(scope, session_id, limit=limit, deps=container.history)
    return TurnsResponse(
        items=view.items, first_kept_turn=view.first_kept_turn, last_turn=view.last_turn
    )


@router.delete("/{session_id}/turns/last", responses=ERRORS)
def pop_item(
    session_id: SessionId, scope: AgentScope, container: ContainerDep
) -> PoppedItemResponse:
    return PoppedItemResponse(item=history.pop(scope, session_id, deps=container.history))


@router.delete("/{session_id}/turns", responses=ERRORS)
def clear_turns(
    session_id: SessionId, scope: AgentScope, container: ContainerDep
) -> ClearedTurnsResponse:
    return ClearedTurnsResponse(
        deleted_turns=history.clear(scope, session_id, deps=container.history)
    )
