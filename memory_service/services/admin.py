"""The admin lifecycle: erase a subject, delete or correct a memory, export, history.

Every operation needs an admin scope, stays inside the caller's tenant (another tenant's
memory is not found, another tenant's subject is simply not held) and leaves an audit event
naming the acting key, with ids, counts and codes only. A correction passes the same guards
as ``save_memory_note``; a refused one stores nothing and says why by reason code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.erasure import ErasureReceipt
from memory_service.core.errors import Conflict, InvalidRequest, NotFound
from memory_service.core.export import build_export
from memory_service.core.guards import PiiDetector, validate_note
from memory_service.core.model import (
    AuditEvent,
    Durability,
    EventKind,
    Memory,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Reason,
    Role,
    Source,
)
from memory_service.core.ports import (
    Clock,
    IdentifierDetector,
    SubjectCache,
    UnitOfWork,
    UnitOfWorkFactory,
)
from memory_service.core.retention import DEFAULT_POLICY, RetentionPolicy
from memory_service.core.scope import TenantScope, validate_subject_id

MEMORY_ID_SHAPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-]{0,63}$")
REASON_SHAPE = re.compile(r"^[a-z][a-z0-9_\-]{0,39}$")
CORRECTABLE = (MemoryStatus.ACTIVE, MemoryStatus.PENDING_CONFIRMATION)


@dataclass(frozen=True)
class AdminDeps:
    uow_factory: UnitOfWorkFactory
    clock: Clock
    pii: PiiDetector
    cache: SubjectCache
    identifiers: IdentifierDetector
    retention: RetentionPolicy = field(default=DEFAULT_POLICY)
    # Whether a correction's text meets the learned privacy backstop as a note does.
    privacy_backstop: bool = False


class CorrectionRefused(InvalidRequest):
    """The corrected text failed a guard; ``reasons`` say which, never repeating the text."""

    code = "correction_refused"

    def __init__(self, reasons: tuple[Reason, ...]) -> None:
        listed = "; ".join(f"{reason.code.value}: {reason.detail}" for reason in reasons)
        super().__init__(f"the correction was refused ({listed})")
        self.reasons = reasons


def validate_memory_id(memory_id: object) -> str:
    if not isinstance(memory_id, str) or not MEMORY_ID_SHAPE.match(memory_id):
        raise InvalidRequest("memory id is malformed")
    return memory_id


def validate_reason(reason: object) -> str:
    """A reason is a code (``user_request``, ``inaccurate``...), so the audit may keep it."""
    if not isinstance(reason, str) or not REASON_SHAPE.match(reason):
        raise InvalidRequest(
            "reason must be a lower-case code of at most 40 characters, e.g. user_request"
        )
    return reason


def erase_subject(
    scope: TenantScope,
    subject_id: object,
    *,
    deps: AdminDeps,
) -> ErasureReceipt:
    """Erase everything held about the subject and keep a receipt of it.

    Safe to repeat: a second run finds nothing and leaves a receipt of zero counts. The
    cache is purged only once the erasure is committed; if that fails the caller retries
    the (idempotent) erasure, which purges again.
    """
    scope.require(Role.ADMIN)
    subject = validate_subject_id(subject_id)
    with deps.uow_factory(scope.tenant_id) as uow:
        counts = uow.erasure.erase_subject(subject)
        receipt = ErasureReceipt(
            id=new_id(),
            tenant_id=scope.tenant_id,
            subject_id=subject,
            requested_by=scope.actor,
            at=deps.clock.now(),
            counts=counts,
        )
        uow.erasure.add_receipt(receipt)
        details: dict[str, Any] = {"receipt_id": receipt.id, **counts}
        _record(uow, scope, EventKind.SUBJECT_ERASED, receipt.at, subject, **details)
        uow.after_commit(lambda: _purge_cache(deps.cache, scope.tenant_id, subject))
        uow.commit()
    return receipt


def _purge_cache(cache: SubjectCache, tenant_id: str, subject_id: str) -> None:
    cache.purge_subject(tenant_id, subject_id)


def delete_memory(scope: TenantScope, memory_id: object, *, deps: AdminDeps) -> Memory:
    """Mark the memory deleted and overwrite its text, so nothing readable stays.

    Deleting a deleted memory changes nothing and answers the same.
    """
    scope.require(Role.ADMIN)
    wanted = validate_memory_id(memory_id)
    with deps.uow_factory(scope.tenant_id) as uow:
        memory = _get_memory(uow, wanted)
        if memory.status is MemoryStatus.DELETED:
            return memory
        now = deps.clock.now()
        deleted = memory.destroy(at=now)
        uow.memories.save(deleted)
        _record(uow, scope, EventKind.MEMORY_DELETED, now, memory.subject_id, memory_id=memory.id)
        # The old ciphertext must not stay readable in the WAL or a dead row.
        uow.erasure.scrub_after_commit("memories", "memory_terms")
        uow.commit()
    return deleted


def correct_memory(
    scope: TenantScope,
    memory_id: object,
    text: object,
    reason: object,
    *,
    deps: AdminDeps,
) -> Memory:
    """Supersede the memory by a new global one of source ``admin_correction``.

    The new text is checked like a note (outside the transaction: the PII detector is the
    slow part), then the memory is reloaded and must not have changed meanwhile.
    """
    scope.require(Role.ADMIN)
    wanted = validate_memory_id(memory_id)
    code = validate_reason(reason)
    with deps.uow_factory(scope.tenant_id) as uow:
        original = _get_memory(uow, wanted)
    _require_correctable(original)
    validation = validate_note(
        {"text": text, "keywords": list(original.keywords), "purpose": original.purpose},
        pii=deps.pii,
        identifiers=deps.identifiers,
        backstop=deps.privacy_backstop,
    )
    if not validation.accepted or validation.draft is None:
        raise CorrectionRefused(validation.reasons)
    draft = validation.draft
    now = deps.clock.now()
    corrected = Memory(
        id=new_id(),
        tenant_id=scope.tenant_id,
        subject_id=original.subject_id,
        scope=MemoryScope.GLOBAL,
        session_id=None,
        text=draft.text,
        keywords=draft.keywords,
        purpose=original.purpose,
        source=Source.ADMIN_CORRECTION,
        durability=Durability.DURABLE,
        provenance=Provenance(actor=scope.actor, derived_from=(original.id,)),
        legal_basis=original.legal_basis,
        created_at=now,
        updated_at=now,
        expires_at=deps.retention.expires_at(
            purpose=original.purpose, source=Source.ADMIN_CORRECTION, created_at=now
        ),
    )
    with deps.uow_factory(scope.tenant_id) as uow:
        uow.subjects.lock(original.subject_id)
        current = _get_memory(uow, wanted)
        if current.updated_at != original.updated_at or current.status is not original.status:
            raise Conflict("the memory changed while the correction was checked; retry")
        uow.memories.add(corrected)
        uow.memories.save(current.supersede(by=corrected.id, at=now))
        subject = original.subject_id
        _record(
            uow,
            scope,
            EventKind.MEMORY_CORRECTED,
            now,
            subject,
            memory_id=original.id,
            superseded_by=corrected.id,
            reason=code,
        )
        _record(
            uow,
            scope,
            EventKind.MEMORY_CREATED,
            now,
            subject,
            memory_id=corrected.id,
            corrects=original.id,
        )
        uow.commit()
    return corrected


def export_subject(scope: TenantScope, subject_id: object, *, deps: AdminDeps) -> dict[str, Any]:
    """Everything held about the subject as one JSON-ready document (see ``core.export``)."""
    scope.require(Role.ADMIN)
    subject = validate_subject_id(subject_id)
    with deps.uow_factory(scope.tenant_id) as uow:
        memories = uow.memories.list_for_subject(subject)
        document = build_export(
            subject,
            memories=memories,
            state=uow.subjects.get_state(subject),
            sessions=uow.sessions.list_for_subject(subject),
            receipts=uow.erasure.list_receipts(subject),
            events=uow.audit.list_for_subject(subject),
        )
        _record(
            uow,
            scope,
            EventKind.SUBJECT_EXPORTED,
            deps.clock.now(),
            subject,
            memories=len(memories),
        )
        uow.commit()
    return document


def subject_history(scope: TenantScope, subject_id: object, *, deps: AdminDeps) -> list[AuditEvent]:
    """The subject's audit events, oldest first; reading them is itself recorded."""
    scope.require(Role.ADMIN)
    subject = validate_subject_id(subject_id)
    with deps.uow_factory(scope.tenant_id) as uow:
        events = uow.audit.list_for_subject(subject)
        _record(
            uow,
            scope,
            EventKind.SUBJECT_HISTORY_READ,
            deps.clock.now(),
            subject,
            events=len(events),
        )
        uow.commit()
    return events


def _get_memory(uow: UnitOfWork, memory_id: str) -> Memory:
    memory = uow.memories.get(memory_id)
    if memory is None:
        raise NotFound("no such memory")
    return memory


def _require_correctable(memory: Memory) -> None:
    if memory.status not in CORRECTABLE:
        raise Conflict(f"a {memory.status.value} memory cannot be corrected")


def _record(
    uow: UnitOfWork,
    scope: TenantScope,
    kind: EventKind,
    at: datetime,
    subject_id: str,
    *,
    memory_id: str | None = None,
    **details: Any,
) -> None:
    uow.record(
        kind, at=at, actor=scope.actor, subject_id=subject_id, memory_id=memory_id, **details
    )
