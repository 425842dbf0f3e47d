"""Builders for the store tests: valid records with overridable fields.

Memories and sessions come from :mod:`tests.factories`; these take the tenant, subject and
time first because every store test names them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.model import AuditEvent, EventKind, Memory, Session
from tests import factories


def make_memory(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> Memory:
    return factories.make_memory(at=at, tenant_id=tenant_id, subject_id=subject_id, **changes)


def make_session(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> Session:
    return factories.make_session(at=at, tenant_id=tenant_id, subject_id=subject_id, **changes)


def make_event(tenant_id: str, subject_id: str, at: datetime, **changes: Any) -> AuditEvent:
    fields: dict[str, Any] = {
        "id": new_id(),
        "tenant_id": tenant_id,
        "kind": EventKind.NOTE_SAVED,
        "at": at,
        "actor": "key-1",
        "subject_id": subject_id,
        "details": {"count": 1},
    }
    return AuditEvent(**{**fields, **changes})
