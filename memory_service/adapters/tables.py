"""The SQLModel tables: the only module that knows columns.

Memory text, keywords, subject state and session turns are stored only as ciphertext
(see :mod:`memory_service.adapters.crypto`); JSON columns hold ids, codes and counts.
Timestamps are timezone-aware UTC on both databases. Alembic creates the schema from
``migrations/versions``; nothing calls ``create_all``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlmodel import Field, SQLModel

ID = sa.String(36)
TENANT_ID = sa.String(128)
SUBJECT_ID = sa.String(128)
SHORT = sa.String(32)
NAME = sa.String(200)

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(sa.TypeDecorator[datetime]):
    """Aware UTC datetimes in and out, also on SQLite, which stores no offset."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are refused: pass timezone-aware UTC")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class TenantRow(SQLModel, table=True):
    __tablename__ = "tenants"

    id: str = Field(primary_key=True, sa_type=TENANT_ID)
    name: str = Field(sa_type=NAME)
    created_at: datetime = Field(sa_type=UtcDateTime)
    # Tenant-wide settings, e.g. {"confirm_sources": ["model_inferred"]}.
    policy: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)


class ApiKeyRow(SQLModel, table=True):
    __tablename__ = "api_keys"

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(foreign_key="tenants.id", index=True, sa_type=TENANT_ID)
    role: str = Field(sa_type=SHORT)
    # SHA-256 of a high-entropy key; the clear key is never stored.
    key_hash: str = Field(unique=True, sa_type=sa.String(64))
    prefix: str = Field(sa_type=sa.String(16))
    created_at: datetime = Field(sa_type=UtcDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


class SubjectRow(SQLModel, table=True):
    __tablename__ = "subjects"

    tenant_id: str = Field(primary_key=True, sa_type=TENANT_ID)
    subject_id: str = Field(primary_key=True, sa_type=SUBJECT_ID)
    # The id of the subject's data key in the key store (never the key itself, which lives
    # in another database); NULL once erased, and the key store has destroyed the key.
    data_key_id: str | None = Field(default=None, sa_type=sa.String(32))
    state_ciphertext: bytes | None = Field(default=None, sa_type=sa.LargeBinary)
    state_updated_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    created_at: datetime = Field(sa_type=UtcDateTime)
    erased_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


def _subject_fk() -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tenant_id", "subject_id"], ["subjects.tenant_id", "subjects.subject_id"]
    )


class SessionRow(SQLModel, table=True):
    __tablename__ = "sessions"
    __table_args__ = (
        _subject_fk(),
        sa.UniqueConstraint("tenant_id", "id"),
        sa.Index("ix_sessions_subject", "tenant_id", "subject_id"),
        sa.Index("ix_sessions_due", "status", "ended_at"),
    )

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str = Field(sa_type=SUBJECT_ID)
    purpose: str = Field(sa_type=sa.String(64))
    status: str = Field(sa_type=SHORT)
    opened_at: datetime = Field(sa_type=UtcDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    consolidated_at: datetime | None = Field(default=None, sa_type=UtcDateTime)


class MemoryRow(SQLModel, table=True):
    __tablename__ = "memories"
    __table_args__ = (
        _subject_fk(),
        sa.Index(
            "ix_memories_subject_recent", "tenant_id", "subject_id", "status", "scope", "updated_at"
        ),
        sa.Index("ix_memories_fingerprint", "tenant_id", "subject_id", "text_fingerprint"),
        sa.Index("ix_memories_session", "tenant_id", "session_id"),
        sa.Index("ix_memories_expiry", "status", "expires_at"),
    )

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str = Field(sa_type=SUBJECT_ID)
    scope: str = Field(sa_type=SHORT)
    session_id: str | None = Field(default=None, sa_type=ID)
    # Text and keywords together, AES-GCM with the subject's data key.
    ciphertext: bytes = Field(sa_type=sa.LargeBinary)
    text_fingerprint: str = Field(sa_type=sa.String(64))
    purpose: str = Field(sa_type=sa.String(64))
    source: str = Field(sa_type=SHORT)
    durability: str = Field(sa_type=SHORT)
    # Ids only (actor, session, turn, tool call, derived_from): never text.
    provenance: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    legal_basis: str = Field(sa_type=sa.String(64))
    created_at: datetime = Field(sa_type=UtcDateTime)
    updated_at: datetime = Field(sa_type=UtcDateTime)
    expires_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    status: str = Field(sa_type=SHORT)
    superseded_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    superseded_by: str | None = Field(default=None, sa_type=ID)
    # The text's embedding (model name and float16 values), sealed like the text; active
    # global memories only: consolidation's nearest neighbours by meaning.
    vector_ciphertext: bytes | None = Field(default=None, sa_type=sa.LargeBinary)


class MemoryTermRow(SQLModel, table=True):
    """A blind index of the candidate terms of active global memories, for consolidation.

    One row per (memory, term), the term as a keyed hash derived from the subject's data key
    (:meth:`~memory_service.adapters.crypto.SubjectCipher.term_hash`): without that key the
    table tells which memories of a subject share a word, never which word.
    """

    __tablename__ = "memory_terms"
    __table_args__ = (
        sa.ForeignKeyConstraint(["memory_id"], ["memories.id"], ondelete="CASCADE"),
        # The hash first: it is keyed per subject, so as selective as the subject, and a
        # "term_hash IN (...)" on a leading column is an index condition in every plan, even
        # before the planner has statistics. The rest lets the index alone answer a lookup.
        sa.Index(
            "ix_memory_terms_lookup",
            "term_hash",
            "tenant_id",
            "subject_id",
            "purpose",
            "memory_id",
        ),
    )

    memory_id: str = Field(primary_key=True, sa_type=ID)
    term_hash: str = Field(primary_key=True, sa_type=sa.String(32))
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str = Field(sa_type=SUBJECT_ID)
    # The memory's purpose, kept here so a lookup never joins the memories.
    purpose: str = Field(sa_type=sa.String(64))


class AuditEventRow(SQLModel, table=True):
    __tablename__ = "audit_events"
    __table_args__ = (sa.Index("ix_audit_events_subject", "tenant_id", "subject_id", "at"),)

    # Insertion order breaks ties between events stamped with the same time.
    seq: int | None = Field(
        default=None,
        primary_key=True,
        sa_type=sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
    )
    id: str = Field(unique=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str | None = Field(default=None, sa_type=SUBJECT_ID)
    kind: str = Field(sa_type=sa.String(64))
    at: datetime = Field(sa_type=UtcDateTime)
    actor: str = Field(sa_type=NAME)
    memory_id: str | None = Field(default=None, sa_type=ID)
    session_id: str | None = Field(default=None, sa_type=ID)
    details: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)


class SessionTurnRow(SQLModel, table=True):
    __tablename__ = "session_turns"
    __table_args__ = (
        sa.ForeignKeyConstraint(
            ["tenant_id", "session_id"], ["sessions.tenant_id", "sessions.id"], ondelete="CASCADE"
        ),
    )

    tenant_id: str = Field(primary_key=True, sa_type=TENANT_ID)
    session_id: str = Field(primary_key=True, sa_type=ID)
    turn: int = Field(primary_key=True, sa_type=sa.Integer)
    role: str = Field(sa_type=SHORT)
    content_ciphertext: bytes = Field(sa_type=sa.LargeBinary)
    created_at: datetime = Field(sa_type=UtcDateTime)


class SessionHistoryRow(SQLModel, table=True):
    """Where a session's history was cut, and which notes of cut turns were re-injected."""

    __tablename__ = "session_histories"
    __table_args__ = (
        sa.ForeignKeyConstraint(
            ["tenant_id", "session_id"], ["sessions.tenant_id", "sessions.id"], ondelete="CASCADE"
        ),
    )

    tenant_id: str = Field(primary_key=True, sa_type=TENANT_ID)
    session_id: str = Field(primary_key=True, sa_type=ID)
    first_kept_turn: int = Field(sa_type=sa.Integer)
    # Memory ids only.
    reinjected: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    updated_at: datetime = Field(sa_type=UtcDateTime)


class ContextManifestRow(SQLModel, table=True):
    __tablename__ = "context_manifests"
    __table_args__ = (
        sa.Index("ix_context_manifests_subject", "tenant_id", "subject_id", "created_at"),
        sa.Index("ix_context_manifests_expiry", "expires_at"),
    )

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str = Field(sa_type=SUBJECT_ID)
    session_id: str | None = Field(default=None, sa_type=ID)
    created_at: datetime = Field(sa_type=UtcDateTime)
    expires_at: datetime = Field(sa_type=UtcDateTime)
    # Ids, reasons and token counts of what went in and what was left out; no text.
    manifest: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)


class ErasureReceiptRow(SQLModel, table=True):
    __tablename__ = "erasure_receipts"
    __table_args__ = (sa.Index("ix_erasure_receipts_subject", "tenant_id", "subject_id"),)

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    subject_id: str = Field(sa_type=SUBJECT_ID)
    requested_by: str = Field(sa_type=NAME)
    at: datetime = Field(sa_type=UtcDateTime)
    counts: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)


class ConsolidationOutboxRow(SQLModel, table=True):
    __tablename__ = "consolidation_outbox"
    __table_args__ = (
        sa.Index("ix_consolidation_outbox_pending", "dispatched_at", "created_at"),
        # The relay's redelivery query joins the ended sessions to their entries.
        sa.Index("ix_consolidation_outbox_session", "tenant_id", "session_id"),
    )

    id: str = Field(primary_key=True, sa_type=ID)
    tenant_id: str = Field(sa_type=TENANT_ID)
    session_id: str = Field(sa_type=ID)
    created_at: datetime = Field(sa_type=UtcDateTime)
    dispatched_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    attempts: int = Field(default=0, sa_type=sa.Integer)
