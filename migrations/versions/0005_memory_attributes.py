"""Memory attributes and vectors: consolidation decides by what a note is about.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

A note's attribute (``home_city``, single or multi) travels inside the memory's existing
ciphertext with its text and keywords, so it needs no column (rows written before carry
none). This revision adds ``memories.vector_ciphertext``: the embedding of an active global
memory's text, sealed with the subject's key like the text, read by consolidation to find
candidates by meaning. Rows written before have none until ``memory-service reindex``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("memories") as batch:
        batch.add_column(sa.Column("vector_ciphertext", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("memories") as batch:
        batch.drop_column("vector_ciphertext")
