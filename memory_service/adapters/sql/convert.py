"""Rows to ``core.model`` records and back; the only place both vocabularies meet.

Memory text, keywords and attribute travel together in one ciphertext bound to the
memory's row;
everything else is stored as plain columns holding ids, codes and times.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Row

from memory_service.adapters.crypto import SubjectCipher
from memory_service.adapters.tables import ApiKeyRow, AuditEventRow, MemoryRow, SessionRow
from memory_service.core.model import (
    ApiKey,
    Attribute,
    AuditEvent,
    Cardinality,
    Durability,
    EventKind,
    Memory,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Role,
    Session,
    SessionStatus,
    Source,
)

MEMORY_KIND = "memory"
STATE_KIND = "state"


def seal_memory_text(memory: Memory, cipher: SubjectCipher) -> bytes:
    sealed: dict[str, Any] = {"text": memory.text, "keywords": list(memory.keywords)}
    if memory.attribute is not None:
        sealed["attribute"] = memory.attribute.to_dict()
    payload = json.dumps(sealed)
    return cipher.encrypt(payload.encode(), kind=MEMORY_KIND, row_id=memory.id)


def sealed_columns(memory: Memory, cipher: SubjectCipher) -> dict[str, Any]:
    """The columns that carry the text: sealed with the keywords, and fingerprinted."""
    return {
        "ciphertext": seal_memory_text(memory, cipher),
        "text_fingerprint": cipher.fingerprint(memory.text),
    }


def memory_columns(memory: Memory, cipher: SubjectCipher) -> dict[str, Any]:
    """Every column a memory writes, the text sealed and fingerprinted."""
    return {**plain_columns(memory), **sealed_columns(memory, cipher)}


def plain_columns(memory: Memory) -> dict[str, Any]:
    """The columns a memory writes besides its text: ids, codes and times."""
    return {
        "scope": memory.scope.value,
        "session_id": memory.session_id,
        "purpose": memory.purpose,
        "source": memory.source.value,
        "durability": memory.durability.value,
        "provenance": memory.provenance.to_dict(),
        "legal_basis": memory.legal_basis,
        "created_at": memory.created_at,
        "updated_at": memory.updated_at,
        "expires_at": memory.expires_at,
        "status": memory.status.value,
        "superseded_at": memory.superseded_at,
        "superseded_by": memory.superseded_by,
    }


def memory_from_row(row: MemoryRow | Row[Any], cipher: SubjectCipher) -> Memory:
    """The memory of an entity or of a plain row holding at least the render's columns
    (``sql/context_reads.READ_COLUMNS``)."""
    payload = json.loads(cipher.decrypt(row.ciphertext, kind=MEMORY_KIND, row_id=row.id))
    attribute = payload.get("attribute")
    return Memory(
        id=row.id,
        tenant_id=row.tenant_id,
        subject_id=row.subject_id,
        scope=MemoryScope(row.scope),
        session_id=row.session_id,
        text=payload["text"],
        keywords=tuple(payload["keywords"]),
        purpose=row.purpose,
        source=Source(row.source),
        durability=Durability(row.durability),
        provenance=Provenance.from_dict(row.provenance),
        legal_basis=row.legal_basis,
        created_at=row.created_at,
        updated_at=row.updated_at,
        expires_at=row.expires_at,
        status=MemoryStatus(row.status),
        superseded_at=row.superseded_at,
        superseded_by=row.superseded_by,
        attribute=(
            Attribute(attribute["key"], Cardinality(attribute["cardinality"]))
            if attribute
            else None
        ),
    )


def session_columns(session: Session) -> dict[str, Any]:
    return {
        "purpose": session.purpose,
        "status": session.status.value,
        "opened_at": session.opened_at,
        "ended_at": session.ended_at,
        "consolidated_at": session.consolidated_at,
    }


def session_from_row(row: SessionRow | Row[Any]) -> Session:
    return Session(
        id=row.id,
        tenant_id=row.tenant_id,
        subject_id=row.subject_id,
        purpose=row.purpose,
        status=SessionStatus(row.status),
        opened_at=row.opened_at,
        ended_at=row.ended_at,
        consolidated_at=row.consolidated_at,
    )


def audit_values(event: AuditEvent) -> dict[str, Any]:
    """An audit event as the row's column values (``seq`` is the database's)."""
    return {
        "id": event.id,
        "tenant_id": event.tenant_id,
        "subject_id": event.subject_id,
        "kind": event.kind,
        "at": event.at,
        "actor": event.actor,
        "memory_id": event.memory_id,
        "session_id": event.session_id,
        "details": dict(event.details),
    }


def audit_from_row(row: AuditEventRow) -> AuditEvent:
    return AuditEvent(
        id=row.id,
        tenant_id=row.tenant_id,
        kind=EventKind(row.kind),
        at=row.at,
        actor=row.actor,
        subject_id=row.subject_id,
        memory_id=row.memory_id,
        session_id=row.session_id,
        details=dict(row.details or {}),
    )


def api_key_from_row(row: ApiKeyRow) -> ApiKey:
    return ApiKey(
        id=row.id,
        tenant_id=row.tenant_id,
        role=Role(row.role),
        created_at=row.created_at,
        revoked_at=row.revoked_at,
    )
