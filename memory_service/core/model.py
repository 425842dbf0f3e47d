"""Domain model: memories, sessions, state and audit events as frozen dataclasses.

Every record carries its tenant. Text fields hold plaintext only in memory; the
store adapters encrypt them at rest, which the core never needs to know.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from memory_service.core.clock import new_id


class Role(StrEnum):
    AGENT = "agent"
    ADMIN = "admin"


class MemoryScope(StrEnum):
    SESSION = "session"
    GLOBAL = "global"


class Source(StrEnum):
    USER_STATED = "user_stated"
    SYSTEM_RECORD = "system_record"
    MODEL_INFERRED = "model_inferred"
    ADMIN_CORRECTION = "admin_correction"


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    # Held until the user confirms (tenant policy); never injected, never consolidated.
    PENDING_CONFIRMATION = "pending_confirmation"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    DELETED = "deleted"


class Durability(StrEnum):
    DURABLE = "durable"
    # "This time only": kept for the session, never promoted to global memory.
    SESSION = "session"


class SessionStatus(StrEnum):
    OPEN = "open"
    ENDED = "ended"
    CONSOLIDATED = "consolidated"


class NoteStatus(StrEnum):
    SAVED = "saved"
    REJECTED = "rejected"
    DUPLICATE = "duplicate"
    NEEDS_CONFIRMATION = "needs_confirmation"


class ReasonCode(StrEnum):
    INVALID = "invalid"
    PII = "pii"
    SECRET = "secret"
    SPECULATIVE = "speculative"
    EPHEMERAL = "ephemeral"
    NOT_ACTIONABLE = "not_actionable"
    INSTRUCTION = "instruction"
    # GDPR art. 9 special categories and criminal records: held for the user's confirmation
    # (or refused, by tenant policy), never stored on legitimate interest alone.
    SENSITIVE = "sensitive"


class Cardinality(StrEnum):
    """Whether an attribute holds one value (a newer one replaces it) or many."""

    SINGLE = "single"
    MULTI = "multi"


@dataclass(frozen=True)
class Attribute:
    """What a note is about (``home_city``, ``cuisine_liked``), named by the agent.

    Stored sealed with the text: a key such as ``medical_condition`` can be revealing.
    """

    key: str
    cardinality: Cardinality

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "cardinality": self.cardinality.value}


class EventKind(StrEnum):
    """Audit event kinds: the one vocabulary of the audit history's ``kind``."""

    CONSOLIDATION_RUN = "consolidation.run"
    CONSOLIDATION_DECISION = "consolidation.decision"
    NOTE_SAVED = "note.saved"
    NOTE_HELD = "note.held"
    NOTE_REJECTED = "note.rejected"
    NOTE_CONFIRMED = "note.confirmed"
    NOTE_CONFIRMED_DUPLICATE = "note.confirmed_duplicate"
    SESSION_OPENED = "session.opened"
    SESSION_ENDED = "session.ended"
    MEMORY_CREATED = "memory.created"
    MEMORY_CORRECTED = "memory.corrected"
    MEMORY_DELETED = "memory.deleted"
    MEMORY_EXPIRED = "memory.expired"
    MEMORY_PURGED = "memory.purged"
    SUBJECT_ERASED = "subject.erased"
    SUBJECT_EXPORTED = "subject.exported"
    SUBJECT_HISTORY_READ = "subject.history_read"
    STATE_REPLACED = "state.replaced"


DEFAULT_PURPOSE = "general"
DEFAULT_LEGAL_BASIS = "legitimate_interest"


@dataclass(frozen=True)
class Reason:
    """Why a note was refused. ``detail`` never repeats the note's text or a detected value."""

    code: ReasonCode
    detail: str


@dataclass(frozen=True)
class Provenance:
    """Where a memory came from: the call that wrote it and, once merged, its sources."""

    actor: str
    session_id: str | None = None
    turn: int | None = None
    tool_call_id: str | None = None
    derived_from: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "session_id": self.session_id,
            "turn": self.turn,
            "tool_call_id": self.tool_call_id,
            "derived_from": list(self.derived_from),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Provenance:
        return cls(
            actor=str(data.get("actor", "")),
            session_id=data.get("session_id"),
            turn=data.get("turn"),
            tool_call_id=data.get("tool_call_id"),
            derived_from=tuple(data.get("derived_from") or ()),
        )


@dataclass(frozen=True)
class Memory:
    id: str
    tenant_id: str
    subject_id: str
    scope: MemoryScope
    session_id: str | None
    text: str
    keywords: tuple[str, ...]
    purpose: str
    source: Source
    durability: Durability
    provenance: Provenance
    legal_basis: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None
    status: MemoryStatus = MemoryStatus.ACTIVE
    superseded_at: datetime | None = None
    superseded_by: str | None = None
    attribute: Attribute | None = None

    @property
    def is_hypothesis(self) -> bool:
        """Model-inferred memories are kept as hypotheses, never rendered as facts."""
        return self.source is Source.MODEL_INFERRED

    def supersede(self, *, by: str, at: datetime) -> Memory:
        """This memory no longer holds: ``by`` names the active memory that replaced it."""
        return replace(
            self,
            status=MemoryStatus.SUPERSEDED,
            superseded_at=at,
            superseded_by=by,
            updated_at=max(self.updated_at, at),
        )

    def expire(self, *, at: datetime) -> Memory:
        """Its time is up: no longer rendered, kept until retention purges it."""
        return replace(self, status=MemoryStatus.EXPIRED, expires_at=at, updated_at=at)

    def activate(self, *, legal_basis: str, at: datetime) -> Memory:
        """A held note the user confirmed: active, on the basis the confirmation gives."""
        return replace(self, status=MemoryStatus.ACTIVE, legal_basis=legal_basis, updated_at=at)

    def confirm(self, by: Memory) -> Memory:
        """A stated fact confirms this hypothesis: it takes the fact's source and legal
        basis (and wording), and keeps its id, so what cited it stays valid."""
        return replace(
            self,
            text=by.text,
            keywords=by.keywords,
            attribute=by.attribute or self.attribute,
            source=by.source,
            legal_basis=by.legal_basis,
            updated_at=max(self.updated_at, by.updated_at),
        )

    def destroy(self, *, at: datetime) -> Memory:
        """Deleted, its text overwritten: nothing readable stays in the store."""
        return replace(
            self, text="", keywords=(), attribute=None, status=MemoryStatus.DELETED, updated_at=at
        )

    def reword(
        self, *, text: str, keywords: tuple[str, ...], attribute: Attribute | None
    ) -> Memory:
        """The same memory in a newer wording (a merge keeps the newest text)."""
        return replace(self, text=text, keywords=keywords, attribute=attribute)

    def absorb(
        self, *, derived_from: tuple[str, ...], updated_at: datetime, expires_at: datetime | None
    ) -> Memory:
        """Notes merged into this memory: their ids join its sources, its times move on."""
        return replace(
            self,
            provenance=replace(self.provenance, derived_from=derived_from),
            updated_at=updated_at,
            expires_at=expires_at,
        )

    def promote(
        self,
        *,
        new_id: str,
        derived_from: tuple[str, ...],
        at: datetime,
        updated_at: datetime,
        expires_at: datetime | None,
    ) -> Memory:
        """A new global memory founded by this session note: durable and active, its
        provenance the note's call, its sources the notes it consolidates."""
        call = self.provenance
        return replace(
            self,
            id=new_id,
            scope=MemoryScope.GLOBAL,
            session_id=None,
            durability=Durability.DURABLE,
            provenance=Provenance(
                actor=call.actor,
                session_id=self.session_id,
                turn=call.turn,
                tool_call_id=call.tool_call_id,
                derived_from=derived_from,
            ),
            created_at=at,
            updated_at=updated_at,
            expires_at=expires_at,
            status=MemoryStatus.ACTIVE,
            superseded_at=None,
            superseded_by=None,
        )


@dataclass(frozen=True)
class Session:
    id: str
    tenant_id: str
    subject_id: str
    purpose: str
    status: SessionStatus
    opened_at: datetime
    ended_at: datetime | None = None
    consolidated_at: datetime | None = None

    def end(self, *, at: datetime) -> Session:
        return replace(self, status=SessionStatus.ENDED, ended_at=at)

    def mark_consolidated(self, *, at: datetime) -> Session:
        """Its notes are in the subject's global memories (or were dropped)."""
        return replace(self, status=SessionStatus.CONSOLIDATED, consolidated_at=at)


@dataclass(frozen=True)
class SubjectState:
    """The tenant-written profile of a subject, rendered as YAML front matter."""

    tenant_id: str
    subject_id: str
    state: dict[str, Any]
    updated_at: datetime


@dataclass(frozen=True)
class AuditEvent:
    """One append-only history entry. ``details`` holds ids, codes and counts, never text."""

    id: str
    tenant_id: str
    kind: EventKind
    at: datetime
    actor: str
    subject_id: str | None = None
    memory_id: str | None = None
    session_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        kind: EventKind,
        /,
        *,
        tenant_id: str,
        at: datetime,
        actor: str,
        subject_id: str | None = None,
        memory_id: str | None = None,
        session_id: str | None = None,
        **details: Any,
    ) -> AuditEvent:
        """A fresh event with its own id: the one way the services write history."""
        return cls(
            id=new_id(),
            tenant_id=tenant_id,
            kind=kind,
            at=at,
            actor=actor,
            subject_id=subject_id,
            memory_id=memory_id,
            session_id=session_id,
            details=details,
        )


@dataclass(frozen=True)
class ApiKey:
    """A stored key: only its hash is kept; the clear key is shown once at creation."""

    id: str
    tenant_id: str
    role: Role
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
