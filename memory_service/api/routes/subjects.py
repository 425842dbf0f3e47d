"""A subject's context (agent), state (agent) and memories (admin)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from memory_service.api.deps import AdminScope, AgentScope, ContainerDep
from memory_service.api.path_ids import SubjectId
from memory_service.api.routes.sessions import ERRORS
from memory_service.api.schemas import (
    PURPOSE_PATTERN,
    ContextResponse,
    MemoryList,
    MemoryOut,
    PutStateRequest,
    StateResponse,
)
from memory_service.bootstrap import Container
from memory_service.core.model import MemoryScope, MemoryStatus
from memory_service.core.purpose import PURPOSE_MAX_LENGTH
from memory_service.core.scope import SESSION_ID_MAX_LENGTH, TenantScope
from memory_service.services import context, subjects

router = APIRouter(prefix="/v1/subjects", tags=["subjects"])


def context_answer(
    container: Container,
    scope: TenantScope,
    subject_id: str,
    *,
    session_id: str | None,
    purpose: str | None,
    max_tokens: int | None,
) -> ContextResponse:
    """The rendered context, counted (blocking: the database and the tokenizer)."""
    result = context.render_context(
        scope,
        subject_id,
        session_id=session_id,
        purpose=purpose,
        budget_tokens=max_tokens,
        deps=container.context,
    )
    container.metrics.context_rendered(int(result.manifest.get("total_tokens", 0)))
    return ContextResponse(text=result.text, manifest=result.manifest)


@router.get("/{subject_id}/context", responses=ERRORS)
def get_context(
    subject_id: SubjectId,
    scope: AgentScope,
    container: ContainerDep,
    session_id: Annotated[str | None, Query(min_length=1, max_length=SESSION_ID_MAX_LENGTH)] = None,
    purpose: Annotated[
        str | None, Query(max_length=PURPOSE_MAX_LENGTH, pattern=PURPOSE_PATTERN)
    ] = None,
    max_tokens: Annotated[
        int | None,
        Query(description="Token budget of the whole text", ge=1, le=context.MAX_BUDGET_TOKENS),
    ] = None,
) -> ContextResponse:
    """The text to put before the model's instructions, and the manifest of how it was chosen.

    Declared here for the OpenAPI document and as the reference; the requests are answered
    by the hot route in front of it (``api/hot_routes.py``), which calls
    :func:`context_answer` the same way."""
    return context_answer(
        container,
        scope,
        subject_id,
        session_id=session_id,
        purpose=purpose,
        max_tokens=max_tokens,
    )


@router.put("/{subject_id}/state", responses=ERRORS)
def put_state(
    subject_id: SubjectId, body: PutStateRequest, scope: AgentScope, container: ContainerDep
) -> StateResponse:
    record = subjects.put_state(
        scope,
        subject_id,
        body.state,
        uow_factory=container.uow_factory,
        clock=container.clock,
        pii=container.pii,
        identifiers=container.identifiers,
    )
    return StateResponse(subject_id=record.subject_id, updated_at=record.updated_at)


@router.get("/{subject_id}/memories", responses=ERRORS)
def list_memories(
    subject_id: SubjectId,
    scope: AdminScope,
    container: ContainerDep,
    memory_scope: Annotated[MemoryScope | None, Query(alias="scope")] = None,
    memory_status: Annotated[MemoryStatus | None, Query(alias="status")] = None,
) -> MemoryList:
    """Newest first, at most 1,000. Another tenant's subject lists as empty, like an unknown one."""
    found = subjects.list_memories(
        scope,
        subject_id,
        memory_scope=memory_scope,
        status=memory_status,
        uow_factory=container.uow_factory,
    )
    return MemoryList(memories=[MemoryOut.of(memory) for memory in found])
