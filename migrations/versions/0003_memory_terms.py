"""Memory terms: a blind index of the candidate terms of active global memories.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Mirrors ``MemoryTermRow`` in ``memory_service/adapters/tables.py``.

Backfill: the terms are keyed hashes under each subject's data key, which a migration does
not hold, so this revision creates the table empty. On a database that already holds
global memories, run ``memory-service reindex`` once after upgrading: until then
consolidation does not see the older memories as candidates (it adds new globals rather
than merging into them). New and changed memories are indexed as they are written.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memory_terms",
        sa.Column("memory_id", sa.String(36), nullable=False),
        sa.Column("term_hash", sa.String(32), nullable=False),
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("subject_id", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(
            ["memory_id"],
            ["memories.id"],
            name="fk_memory_terms_memory_id_memories",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("memory_id", "term_hash", name="pk_memory_terms"),
    )
    op.create_index(
        "ix_memory_terms_lookup",
        "memory_terms",
        ["term_hash", "tenant_id", "subject_id", "purpose", "memory_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_memory_terms_lookup", table_name="memory_terms")
    op.drop_table("memory_terms")
