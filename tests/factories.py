"""Valid domain records with overridable fields, shared by every test layer.

Each factory returns a record that passes the core's checks as it is, so a test names only
the fields it is about. Ids are fresh each call; times default to :data:`AT`.
"""

from __future__ import annotations

import secrets
import string
from datetime import UTC, datetime
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.model import (
    DEFAULT_LEGAL_BASIS,
    DEFAULT_PURPOSE,
    Durability,
    Memory,
    MemoryScope,
    Provenance,
    Role,
    Session,
    SessionStatus,
    Source,
)
from memory_service.core.scope import TenantScope

TENANT = "tenant-a"
SUBJECT = "subject-1"
SESSION = "session-1"
AT = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def make_memory(
    text: str = "Prefers aisle seats on long flights.", *, at: datetime = AT, **fields: Any
) -> Memory:
    """An active, durable, user-stated global memory, created and last updated ``at``.

    A ``scope=MemoryScope.SESSION`` memory belongs to :data:`SESSION` unless ``session_id``
    is given.
    """
    values: dict[str, Any] = {
        "id": new_id(),
        "tenant_id": TENANT,
        "subject_id": SUBJECT,
        "scope": MemoryScope.GLOBAL,
        "session_id": None,
        "text": text,
        "keywords": ("seats", "flights"),
        "purpose": DEFAULT_PURPOSE,
        "source": Source.USER_STATED,
        "durability": Durability.DURABLE,
        "provenance": Provenance(actor="key-1", session_id=None, turn=3, tool_call_id="call-1"),
        "legal_basis": DEFAULT_LEGAL_BASIS,
        "created_at": at,
        "updated_at": at,
    }
    values.update(fields)
    if values["scope"] is MemoryScope.SESSION and "session_id" not in fields:
        values["session_id"] = SESSION
    return Memory(**values)


def make_memory_for(
    scope: TenantScope,
    subject: str,
    text: str,
    keywords: tuple[str, ...] = (),
    *,
    at: datetime = AT,
    session_id: str | None = None,
    **fields: Any,
) -> Memory:
    """A memory ``scope``'s actor wrote about ``subject``, as ``save_memory_note`` records it: a
    session note when ``session_id`` is given, else a global memory."""
    return make_memory(
        text,
        at=at,
        tenant_id=scope.tenant_id,
        subject_id=subject,
        scope=MemoryScope.SESSION if session_id else MemoryScope.GLOBAL,
        session_id=session_id,
        keywords=keywords,
        provenance=Provenance(actor=scope.actor, session_id=session_id),
        **fields,
    )


def make_session(*, at: datetime = AT, **fields: Any) -> Session:
    """An open session of :data:`SUBJECT`, opened ``at``, with a fresh id."""
    values: dict[str, Any] = {
        "id": new_id(),
        "tenant_id": TENANT,
        "subject_id": SUBJECT,
        "purpose": DEFAULT_PURPOSE,
        "status": SessionStatus.OPEN,
        "opened_at": at,
    }
    values.update(fields)
    return Session(**values)


def make_scope(
    tenant_id: str = TENANT, *, role: Role = Role.AGENT, actor: str = "key:test"
) -> TenantScope:
    """The scope an authenticated call acts for."""
    return TenantScope(tenant_id=tenant_id, role=role, actor=actor)


def random_subject_id(prefix: str = "subject") -> str:
    """A fresh opaque subject id: letters and single digits alternating. A random hex id is
    sometimes a run of seven or more digits (``subject-20720708``) and a letters-only one
    reads as a name; the service refuses both shapes, so tests built on them failed now and
    then."""
    return f"{prefix}-" + "".join(
        secrets.choice(string.ascii_lowercase) + secrets.choice(string.digits) for _ in range(6)
    )
