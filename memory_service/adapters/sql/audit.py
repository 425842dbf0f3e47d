"""One tenant's append-only audit history: there is no update or delete here."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from memory_service.adapters.sql.convert import audit_from_row, audit_values
from memory_service.adapters.sql.pending import PendingInserts
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import AuditEventRow
from memory_service.core.model import AuditEvent


class SqlAuditLog:
    def __init__(self, session: Session, tenant_id: str, pending: PendingInserts) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._pending = pending

    def append(self, event: AuditEvent) -> None:
        self.append_all([event])

    def append_all(self, events: Sequence[AuditEvent]) -> None:
        """Queued, then sent with the unit of work's next statement or its commit, as one
        multi-row ``INSERT`` in the given order, so ``seq`` follows it."""
        for event in events:
            require_own_tenant(event.tenant_id, self._tenant_id)
        self._pending.add(AuditEventRow.__table__, [audit_values(e) for e in events])  # type: ignore[attr-defined]

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
