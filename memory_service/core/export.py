"""The export of a subject: everything held about it, as one JSON-ready document.

Memories come with their provenance and their own audit history; the document also holds
the state, the sessions, the erasure receipts and the subject's audit events. A subject the
tenant does not hold (never seen, erased, or another tenant's) exports as the same empty
document, so an export never reveals whether a subject exists elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memory_service.core.erasure import ErasureReceipt
from memory_service.core.model import AuditEvent, Memory, Session, SubjectState

EXPORT_FORMAT = "memory-service.subject-export/v1"


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def memory_record(memory: Memory, history: Sequence[AuditEvent] = ()) -> dict[str, Any]:
    return {
        "id": memory.id,
        "scope": memory.scope.value,
        "session_id": memory.session_id,
        "text": memory.text,
        "keywords": list(memory.keywords),
        "attribute": memory.attribute.to_dict() if memory.attribute else None,
        "purpose": memory.purpose,
        "source": memory.source.value,
        "durability": memory.durability.value,
        "provenance": memory.provenance.to_dict(),
        "legal_basis": memory.legal_basis,
        "created_at": _time(memory.created_at),
        "updated_at": _time(memory.updated_at),
        "expires_at": _time(memory.expires_at),
        "status": memory.status.value,
        "superseded_at": _time(memory.superseded_at),
        "superseded_by": memory.superseded_by,
        "history": [event_record(event) for event in history],
    }


def session_record(session: Session) -> dict[str, Any]:
    return {
        "id": session.id,
        "purpose": session.purpose,
        "status": session.status.value,
        "opened_at": _time(session.opened_at),
        "ended_at": _time(session.ended_at),
        "consolidated_at": _time(session.consolidated_at),
    }


def event_record(event: AuditEvent) -> dict[str, Any]:
    return {
        "id": event.id,
        "kind": event.kind,
        "at": _time(event.at),
        "actor": event.actor,
        "memory_id": event.memory_id,
        "session_id": event.session_id,
        "details": dict(event.details),
    }


def build_export(
    subject_id: str,
    *,
    memories: Sequence[Memory],
    state: SubjectState | None,
    sessions: Sequence[Session],
    receipts: Sequence[ErasureReceipt],
    events: Sequence[AuditEvent],
) -> dict[str, Any]:
    by_memory: dict[str, list[AuditEvent]] = {}
    for event in events:
        if event.memory_id is not None:
            by_memory.setdefault(event.memory_id, []).append(event)
    return {
        "format": EXPORT_FORMAT,
        "subject_id": subject_id,
        "memories": [memory_record(memory, by_memory.get(memory.id, ())) for memory in memories],
        "state": None if state is None else state.state,
        "state_updated_at": None if state is None else _time(state.updated_at),
        "sessions": [session_record(session) for session in sessions],
        "erasure_receipts": [receipt.to_dict() for receipt in receipts],
        "audit_events": [event_record(event) for event in events],
    }
