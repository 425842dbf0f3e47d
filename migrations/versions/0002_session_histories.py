"""Session histories: where a session's turns were cut and which notes were re-injected.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

Mirrors ``SessionHistoryRow`` in ``memory_service/adapters/tables.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "session_histories",
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("session_id", sa.String(36), nullable=False),
        sa.Column("first_kept_turn", sa.Integer(), nullable=False),
        sa.Column("reinjected", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id", "session_id"],
            ["sessions.tenant_id", "sessions.id"],
            name="fk_session_histories_tenant_id_sessions",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", "session_id", name="pk_session_histories"),
    )


def downgrade() -> None:
    op.drop_table("session_histories")
