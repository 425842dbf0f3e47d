"""Data keys move out of the memory database into the key store.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Each subject's wrapped data key is copied into the key store (``KEYSTORE_URL``, or
``keys.db`` beside a SQLite database) under a fresh key id, the subject keeps only that
id, and the ``wrapped_data_key`` column is emptied and dropped, so a backup of the data
taken from now on holds no key. The key store commits first: a failure after it leaves
orphan keys there (destroyed with their subject's erasure), never a subject without its
key. On PostgreSQL the dropped column's old values stay in dead tuples until the table
is rewritten: run ``VACUUM FULL subjects`` once after this upgrade (see README).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.config import ConfigurationError, sqlite_keystore_url

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_subjects = sa.table(
    "subjects",
    sa.column("tenant_id", sa.String),
    sa.column("subject_id", sa.String),
    sa.column("wrapped_data_key", sa.LargeBinary),
    sa.column("data_key_id", sa.String),
)


def _key_store() -> SqlDataKeyStore:
    url = (
        context.config.attributes.get("keystore_url")
        or os.environ.get("KEYSTORE_URL")
        or sqlite_keystore_url(str(op.get_bind().engine.url))
    )
    if not url:
        raise ConfigurationError("KEYSTORE_URL is required to move the data keys out")
    return SqlDataKeyStore.open(url, data_url=str(op.get_bind().engine.url))


def upgrade() -> None:
    with op.batch_alter_table("subjects") as batch:
        batch.add_column(sa.Column("data_key_id", sa.String(32), nullable=True))
    bind = op.get_bind()
    keyed = bind.execute(
        sa.select(
            _subjects.c.tenant_id, _subjects.c.subject_id, _subjects.c.wrapped_data_key
        ).where(_subjects.c.wrapped_data_key.is_not(None))
    ).all()
    if keyed:
        store = _key_store()
        try:
            for tenant_id, subject_id, wrapped in keyed:
                key_id = secrets.token_hex(16)
                store.add_key(tenant_id, subject_id, key_id, bytes(wrapped))
                bind.execute(
                    _subjects.update()
                    .where(_subjects.c.tenant_id == tenant_id, _subjects.c.subject_id == subject_id)
                    .values(data_key_id=key_id)
                )
        finally:
            store.engine.dispose()
    bind.execute(_subjects.update().values(wrapped_data_key=None))
    with op.batch_alter_table("subjects") as batch:
        batch.drop_column("wrapped_data_key")


def downgrade() -> None:
    with op.batch_alter_table("subjects") as batch:
        batch.add_column(sa.Column("wrapped_data_key", sa.LargeBinary, nullable=True))
    bind = op.get_bind()
    keyed = bind.execute(
        sa.select(_subjects.c.tenant_id, _subjects.c.subject_id, _subjects.c.data_key_id).where(
            _subjects.c.data_key_id.is_not(None)
        )
    ).all()
    if keyed:
        store = _key_store()
        try:
            for tenant_id, subject_id, key_id in keyed:
                bind.execute(
                    _subjects.update()
                    .where(_subjects.c.tenant_id == tenant_id, _subjects.c.subject_id == subject_id)
                    .values(wrapped_data_key=store.wrapped_key(tenant_id, subject_id, key_id))
                )
        finally:
            store.engine.dispose()
    with op.batch_alter_table("subjects") as batch:
        batch.drop_column("data_key_id")
