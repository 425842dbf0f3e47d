"""Insert a row unless its key exists, without a race between concurrent transactions."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session


def insert_if_absent(session: Session, table: sa.Table, values: dict[str, Any]) -> None:
    """``INSERT ... ON CONFLICT DO NOTHING``: a concurrent creator waits, then finds the row."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    session.execute(insert(table).values(**values).on_conflict_do_nothing())
