"""Outbox entries by session: the relay's redelivery query joins the ended sessions to them.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

Mirrors ``ix_consolidation_outbox_session`` in ``memory_service/adapters/tables.py``. The
outbox keeps a row per ended session for good, so without this index the join scans the
whole history every minute; with it, the cost follows the sessions still ``ended``. The
erasure's delete of a subject's outbox rows (by session) uses it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_consolidation_outbox_session", "consolidation_outbox", ["tenant_id", "session_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_consolidation_outbox_session", table_name="consolidation_outbox")
