"""Cross-tenant reads for scheduled jobs: ids only, never a ciphertext.

Each query joins the subject so rows of an erased subject (no data key) are never
offered; the jobs then reopen every row in a unit of work of its own tenant.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, Engine, Exists, and_, exists, func, or_, select
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.sql.failures import connection_failures_as_unavailable
from memory_service.adapters.tables import (
    ConsolidationOutboxRow,
    ContextManifestRow,
    MemoryRow,
    SessionRow,
    SessionTurnRow,
    SubjectRow,
)
from memory_service.core.model import MemoryStatus, SessionStatus
from memory_service.core.ports import DueMemory, DueSession, OutboxBacklog, OutboxEntry


def _subject_alive(tenant: ColumnElement[str], subject: ColumnElement[str]) -> Exists:
    return exists().where(
        col(SubjectRow.tenant_id) == tenant,
        col(SubjectRow.subject_id) == subject,
        col(SubjectRow.data_key_id).is_not(None),
    )


class SqlMaintenanceStore:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def due_sessions(self, *, idle_before: datetime, limit: int) -> list[DueSession]:
        session_tenant, session_id = col(SessionRow.tenant_id), col(SessionRow.id)
        recent_note = exists().where(
            col(MemoryRow.tenant_id) == session_tenant,
            col(MemoryRow.session_id) == session_id,
            col(MemoryRow.created_at) >= idle_before,
        )
        recent_turn = exists().where(
            col(SessionTurnRow.tenant_id) == session_tenant,
            col(SessionTurnRow.session_id) == session_id,
            col(SessionTurnRow.created_at) >= idle_before,
        )
        status = col(SessionRow.status)
        idle = and_(
            status == SessionStatus.OPEN.value,
            col(SessionRow.opened_at) < idle_before,
            ~recent_note,
            ~recent_turn,
        )
        statement = (
            select(session_tenant, session_id, status)
            .where(
                or_(status == SessionStatus.ENDED.value, idle),
                _subject_alive(session_tenant, col(SessionRow.subject_id)),
            )
            .order_by(col(SessionRow.opened_at))
            .limit(limit)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            return [
                DueSession(tenant, found, idle=state == SessionStatus.OPEN.value)
                for tenant, found, state in session.execute(statement)
            ]

    def outbox_backlog(self) -> OutboxBacklog:
        row = ConsolidationOutboxRow
        statement = select(func.count(), func.min(col(row.created_at))).where(
            col(row.dispatched_at).is_(None)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            pending, oldest = session.execute(statement).one()
        return OutboxBacklog(pending=int(pending), oldest_created_at=oldest)

    def pending_outbox(self, *, created_before: datetime, limit: int) -> list[OutboxEntry]:
        row = ConsolidationOutboxRow
        statement = (
            select(col(row.id), col(row.tenant_id), col(row.session_id))
            .where(col(row.dispatched_at).is_(None), col(row.created_at) < created_before)
            .order_by(col(row.created_at))
            .limit(limit)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            return [OutboxEntry(*values) for values in session.execute(statement)]

    def unconsolidated_outbox(
        self, *, dispatched_before: datetime, limit: int
    ) -> list[OutboxEntry]:
        """Driven by the sessions still ``ended`` (``ix_sessions_due``: the backlog, not the
        history), each joined to its entry (``ix_consolidation_outbox_session``). The outbox
        keeps every row, so a scan of its dispatch times would grow with the history; a
        session ends before its entry is dispatched, so the ``ended_at`` bound drops nothing."""
        row = ConsolidationOutboxRow
        session_tenant = col(SessionRow.tenant_id)
        statement = (
            select(col(row.id), col(row.tenant_id), col(row.session_id))
            .join(
                SessionRow,
                and_(
                    session_tenant == col(row.tenant_id), col(SessionRow.id) == col(row.session_id)
                ),
            )
            .where(
                col(SessionRow.status) == SessionStatus.ENDED.value,
                col(SessionRow.ended_at) < dispatched_before,
                col(row.dispatched_at) < dispatched_before,
                _subject_alive(session_tenant, col(SessionRow.subject_id)),
            )
            .order_by(col(row.dispatched_at))
            .limit(limit)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            return [OutboxEntry(*values) for values in session.execute(statement)]

    def tenants_with_expired_manifests(self, *, now: datetime) -> list[str]:
        tenant = col(ContextManifestRow.tenant_id)
        statement = (
            select(tenant)
            .where(col(ContextManifestRow.expires_at) <= now)
            .distinct()
            .order_by(tenant)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            return [str(tenant_id) for tenant_id in session.execute(statement).scalars()]

    def due_memories(self, *, now: datetime, limit: int) -> list[DueMemory]:
        statement = (
            select(col(MemoryRow.tenant_id), col(MemoryRow.id))
            .where(
                col(MemoryRow.status) == MemoryStatus.ACTIVE.value,
                col(MemoryRow.expires_at) <= now,
                _subject_alive(col(MemoryRow.tenant_id), col(MemoryRow.subject_id)),
            )
            .order_by(col(MemoryRow.expires_at))
            .limit(limit)
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            return [DueMemory(*values) for values in session.execute(statement)]
