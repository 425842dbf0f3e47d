"""One tenant's consolidation outbox rows (written beside the session's end)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.tables import ConsolidationOutboxRow
from memory_service.core.clock import new_id


class SqlConsolidationOutbox:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self._session = session
        self._tenant_id = tenant_id

    def add(self, session_id: str, at: datetime) -> str:
        entry_id = new_id()
        self._session.add(
            ConsolidationOutboxRow(
                id=entry_id, tenant_id=self._tenant_id, session_id=session_id, created_at=at
            )
        )
        self._session.flush()
        return entry_id

    def record_attempt(self, entry_id: str, *, dispatched_at: datetime | None) -> None:
        """A successful send moves ``dispatched_at`` to its time: the relay's redelivery
        horizon counts from the last dispatch. An entry of another tenant, or one erased
        meanwhile, is left alone."""
        row = self._session.scalars(
            select(ConsolidationOutboxRow).where(
                col(ConsolidationOutboxRow.tenant_id) == self._tenant_id,
                col(ConsolidationOutboxRow.id) == entry_id,
            )
        ).first()
        if row is None:
            return
        row.attempts += 1
        if dispatched_at is not None:
            row.dispatched_at = dispatched_at
        self._session.flush()
