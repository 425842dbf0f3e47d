"""The cross-tenant purge of memories past retention and grace: ids in the audit, rows gone.

One short transaction per batch: select the due ids (through the ``(status, expires_at)``
index), delete those rows (their term index rows go with them, ``ON DELETE CASCADE``)
and write one ``memory.purged`` event each, then commit. The text leaves with its row;
its ciphertext was unreadable without the subject key anyway.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.orm import Session

from memory_service.adapters.sql.convert import audit_values
from memory_service.adapters.sql.failures import connection_failures_as_unavailable
from memory_service.adapters.tables import AuditEventRow, MemoryRow
from memory_service.core.model import AuditEvent, EventKind, MemoryStatus

_ALL_STATUSES = [status.value for status in MemoryStatus]


class SqlRetentionStore:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def purge_expired(self, cutoff: datetime, *, limit: int, at: datetime, actor: str) -> int:
        due = (
            select(MemoryRow.id, MemoryRow.tenant_id, MemoryRow.subject_id)
            .where(
                # Naming every status lets the (status, expires_at) index serve the range.
                MemoryRow.status.in_(_ALL_STATUSES),  # type: ignore[attr-defined]
                MemoryRow.expires_at <= cutoff,  # type: ignore[operator]
            )
            .order_by(MemoryRow.expires_at)
            .limit(limit)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            rows = session.execute(due).all()
            if not rows:
                return 0
            session.execute(
                delete(MemoryRow).where(MemoryRow.id.in_([row.id for row in rows]))  # type: ignore[attr-defined]
            )
            session.execute(
                insert(AuditEventRow),
                [
                    audit_values(
                        AuditEvent.new(
                            EventKind.MEMORY_PURGED,
                            tenant_id=row.tenant_id,
                            at=at,
                            actor=actor,
                            subject_id=row.subject_id,
                            memory_id=row.id,
                        )
                    )
                    for row in rows
                ],
            )
            session.commit()
            return len(rows)
