"""Builders for the store tests: valid records with overridable fields."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.model import (
    DEFAULT_LEGAL_BASIS,
    DEFAULT_PURPOSE,
    AuditEvent,
    Durability,
    Memory,
    MemoryScope,
    Provenance,
    Session,
    SessionStatus,
    Source,
)


def make_memory(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> Memory:
    memory = Memory(
        id=new_id(),
        tenant_id=tenant_id,
        subject_id=subject_id,
        scope=MemoryScope.GLOBAL,
        session_id=None,
        text="Prefers aisle seats on long flights.",
        keywords=("seats", "flights"),
        purpose=DEFAULT_PURPOSE,
        source=Source.USER_STATED,
        durability=Durability.DURABLE,
        provenance=Provenance(actor="key-1", session_id=None, turn=3, tool_call_id="call-1"),
        legal_basis=DEFAULT_LEGAL_BASIS,
        created_at=at,
        updated_at=at,
    )
    return memory.with_changes(**changes)


def make_session(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> Session:
    session = Session(
        id=new_id(),
        tenant_id=tenant_id,
        subject_id=subject_id,
        purpose=DEFAULT_PURPOSE,
        status=SessionStatus.OPEN,
        opened_at=at,
    )
    return session.with_changes(**changes)


def make_event(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> AuditEvent:
    fields: dict[str, Any] = {
        "id": new_id(),
        "tenant_id": tenant_id,
        "kind": "memory.saved",
        "at": at,
        "actor": "key-1",
        "subject_id": subject_id,
        "details": {"count": 1},
    }
    return AuditEvent(**{**fields, **changes})
