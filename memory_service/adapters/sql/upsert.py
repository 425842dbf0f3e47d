"""Insert a row unless its key exists, without a race between concurrent transactions."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session


def dialect_insert(session: Session, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    """The dialect's ``INSERT`` (both take ``ON CONFLICT``)."""
    dialect = session.get_bind().dialect.name
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


def insert_if_absent(session: Session, table: sa.Table, values: dict[str, Any]) -> None:
    """``INSERT ... ON CONFLICT DO NOTHING``: a concurrent creator waits, then finds the row."""
    session.execute(dialect_insert(session, table).values(**values).on_conflict_do_nothing())
