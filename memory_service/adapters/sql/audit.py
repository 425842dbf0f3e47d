"""One tenant's append-only audit history: there is no update or delete here."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from memory_service.adapters.sql.convert import audit_from_row, audit_row
from memory_service.adapters.tables import AuditEventRow
from memory_service.core.model import AuditEvent


class SqlAuditLog:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self._session = session
        self._tenant_id = tenant_id

    def append(self, event: AuditEvent) -> None:
        if event.tenant_id != self._tenant_id:
            raise ValueError("the record belongs to another tenant than this unit of work")
        self._session.add(audit_row(event))
        self._session.flush()

    def list_for_subject(self, subject_id: str, *, limit: int | None = None) -> list[AuditEvent]:
        statement = (
            select(AuditEventRow)
            .where(
                AuditEventRow.tenant_id == self._tenant_id, AuditEventRow.subject_id == subject_id
            )
            .order_by(AuditEventRow.at, AuditEventRow.seq)
        )
        if limit is not None:
            statement = statement.limit(limit)
        return [audit_from_row(row) for row in self._session.scalars(statement)]
