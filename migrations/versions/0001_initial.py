"""Initial schema: tenants, keys, subjects, sessions, memories, audit and later-issue tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Hand-checked against ``memory_service/adapters/tables.py``. Types are spelled out here
(not imported from the app) so this revision stays fixed when the app changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.String(36)
TENANT_ID = sa.String(128)
SUBJECT_ID = sa.String(128)
SHORT = sa.String(32)
NAME = sa.String(200)


def _time(name: str, *, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _subject_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tenant_id", "subject_id"],
        ["subjects.tenant_id", "subjects.subject_id"],
        name=f"fk_{table}_tenant_id_subjects",
    )


def upgrade() -> None:
    op.create_table(
        "tenants",
        sa.Column("id", TENANT_ID, nullable=False),
        sa.Column("name", NAME, nullable=False),
        _time("created_at"),
        sa.Column("policy", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tenants"),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("role", SHORT, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        _time("created_at"),
        _time("revoked_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["tenant_id"], ["tenants.id"], name="fk_api_keys_tenant_id_tenants"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_api_keys"),
        sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
    )
    op.create_index("ix_api_keys_tenant_id", "api_keys", ["tenant_id"])

    op.create_table(
        "subjects",
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=False),
        sa.Column("wrapped_data_key", sa.LargeBinary(), nullable=True),
        sa.Column("state_ciphertext", sa.LargeBinary(), nullable=True),
        _time("state_updated_at", nullable=True),
        _time("created_at"),
        _time("erased_at", nullable=True),
        sa.PrimaryKeyConstraint("tenant_id", "subject_id", name="pk_subjects"),
    )

    op.create_table(
        "sessions",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=False),
        sa.Column("purpose", sa.String(64), nullable=False),
        sa.Column("status", SHORT, nullable=False),
        _time("opened_at"),
        _time("ended_at", nullable=True),
        _time("consolidated_at", nullable=True),
        _subject_fk("sessions"),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
        sa.UniqueConstraint("tenant_id", "id", name="uq_sessions_tenant_id_id"),
    )
    op.create_index("ix_sessions_subject", "sessions", ["tenant_id", "subject_id"])
    op.create_index("ix_sessions_due", "sessions", ["status", "ended_at"])

    op.create_table(
        "session_turns",
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("session_id", ID, nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("role", SHORT, nullable=False),
        sa.Column("content_ciphertext", sa.LargeBinary(), nullable=False),
        _time("created_at"),
        sa.ForeignKeyConstraint(
            ["tenant_id", "session_id"],
            ["sessions.tenant_id", "sessions.id"],
            name="fk_session_turns_tenant_id_sessions",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", "session_id", "turn", name="pk_session_turns"),
    )

    op.create_table(
        "memories",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=False),
        sa.Column("scope", SHORT, nullable=False),
        sa.Column("session_id", ID, nullable=True),
        sa.Column("ciphertext", sa.LargeBinary(), nullable=False),
        sa.Column("text_fingerprint", sa.String(64), nullable=False),
        sa.Column("purpose", sa.String(64), nullable=False),
        sa.Column("source", SHORT, nullable=False),
        sa.Column("durability", SHORT, nullable=False),
        sa.Column("provenance", sa.JSON(), nullable=False),
        sa.Column("legal_basis", sa.String(64), nullable=False),
        _time("created_at"),
        _time("updated_at"),
        _time("expires_at", nullable=True),
        sa.Column("status", SHORT, nullable=False),
        _time("superseded_at", nullable=True),
        sa.Column("superseded_by", ID, nullable=True),
        _subject_fk("memories"),
        sa.PrimaryKeyConstraint("id", name="pk_memories"),
    )
    op.create_index(
        "ix_memories_subject_recent",
        "memories",
        ["tenant_id", "subject_id", "status", "scope", "updated_at"],
    )
    op.create_index(
        "ix_memories_fingerprint", "memories", ["tenant_id", "subject_id", "text_fingerprint"]
    )
    op.create_index("ix_memories_session", "memories", ["tenant_id", "session_id"])
    op.create_index("ix_memories_expiry", "memories", ["status", "expires_at"])

    op.create_table(
        "audit_events",
        sa.Column(
            "seq",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            nullable=False,
            autoincrement=True,
        ),
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=True),
        sa.Column("kind", sa.String(64), nullable=False),
        _time("at"),
        sa.Column("actor", NAME, nullable=False),
        sa.Column("memory_id", ID, nullable=True),
        sa.Column("session_id", ID, nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_audit_events"),
        sa.UniqueConstraint("id", name="uq_audit_events_id"),
    )
    op.create_index("ix_audit_events_subject", "audit_events", ["tenant_id", "subject_id", "at"])

    op.create_table(
        "context_manifests",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=False),
        sa.Column("session_id", ID, nullable=True),
        _time("created_at"),
        _time("expires_at"),
        sa.Column("manifest", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_context_manifests"),
    )
    op.create_index(
        "ix_context_manifests_subject",
        "context_manifests",
        ["tenant_id", "subject_id", "created_at"],
    )
    op.create_index("ix_context_manifests_expiry", "context_manifests", ["expires_at"])

    op.create_table(
        "erasure_receipts",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("subject_id", SUBJECT_ID, nullable=False),
        sa.Column("requested_by", NAME, nullable=False),
        _time("at"),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_erasure_receipts"),
    )
    op.create_index("ix_erasure_receipts_subject", "erasure_receipts", ["tenant_id", "subject_id"])

    op.create_table(
        "consolidation_outbox",
        sa.Column("id", ID, nullable=False),
        sa.Column("tenant_id", TENANT_ID, nullable=False),
        sa.Column("session_id", ID, nullable=False),
        _time("created_at"),
        _time("dispatched_at", nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_consolidation_outbox"),
    )
    op.create_index(
        "ix_consolidation_outbox_pending", "consolidation_outbox", ["dispatched_at", "created_at"]
    )


def downgrade() -> None:
    # Children before parents; a table's indexes go with it.
    for table in (
        "consolidation_outbox",
        "erasure_receipts",
        "context_manifests",
        "audit_events",
        "memories",
        "session_turns",
        "sessions",
        "subjects",
        "api_keys",
        "tenants",
    ):
        op.drop_table(table)
