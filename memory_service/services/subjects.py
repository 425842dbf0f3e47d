"""A subject's state (written by the tenant's systems) and the admin listing of its memories."""

from __future__ import annotations

from memory_service.core.errors import InvalidRequest
from memory_service.core.model import (
    EventKind,
    Memory,
    MemoryScope,
    MemoryStatus,
    Role,
    SubjectState,
)
from memory_service.core.ports import Clock, IdentifierDetector, UnitOfWorkFactory
from memory_service.core.privacy.guard import PiiDetector, state_refusals
from memory_service.core.scope import TenantScope, validate_subject_id
from memory_service.core.state import validate_state

MAX_LISTED_MEMORIES = 1000


def put_state(
    scope: TenantScope,
    subject_id: object,
    state: object,
    *,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    pii: PiiDetector,
    identifiers: IdentifierDetector,
) -> SubjectState:
    """Replace the subject's state; the audit event records that it changed, not what it says.

    The state is rendered into every context, so it passes the same privacy guards as a
    note: a key or value holding personal data or a secret refuses the whole state with
    ``InvalidRequest`` naming the key paths and reason codes, never the values.
    """
    subject = validate_subject_id(subject_id)
    checked = validate_state(state)
    refusals = state_refusals(checked, pii=pii, identifiers=identifiers)
    if refusals:
        listed = "; ".join(
            f"{path}: {', '.join(code.value for code in codes)}" for path, codes in refusals
        )
        raise InvalidRequest(f"state refused by the privacy guards ({listed})")
    record = SubjectState(
        tenant_id=scope.tenant_id,
        subject_id=subject,
        state=checked,
        updated_at=clock.now(),
    )
    with uow_factory(scope.tenant_id) as uow:
        uow.subjects.put_state(record)
        uow.record(
            EventKind.STATE_REPLACED,
            at=record.updated_at,
            actor=scope.actor,
            subject_id=subject,
            top_level_keys=len(record.state),
        )
        uow.commit()
    return record


def list_memories(
    scope: TenantScope,
    subject_id: object,
    *,
    memory_scope: MemoryScope | None,
    status: MemoryStatus | None,
    uow_factory: UnitOfWorkFactory,
) -> list[Memory]:
    """Admin view of what is held: newest first, bounded so one call stays cheap."""
    scope.require(Role.ADMIN)
    subject = validate_subject_id(subject_id)
    with uow_factory(scope.tenant_id) as uow:
        return uow.memories.list_for_subject(
            subject,
            scope=memory_scope,
            statuses=None if status is None else (status,),
            limit=MAX_LISTED_MEMORIES,
        )
