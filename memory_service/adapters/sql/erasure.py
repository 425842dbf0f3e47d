"""Erasure of one subject within one tenant, and the receipts it leaves.

Bulk ``DELETE`` statements, each filtered by tenant and subject, in the caller's
transaction; the memories' term index rows go with them (``ON DELETE CASCADE``). The
subject's row stays as a tombstone whose wrapped data key is NULL: every ciphertext (and
term hash) of the subject still lying in WAL segments, backups or replicas is then noise.
The audit log is append-only everywhere else; redacting the details of an erased subject's
events is the one rewrite it allows.

On SQLite the erasure also scrubs the files: ``secure_delete`` zeroes the freed space of
deleted rows, and once committed a ``TRUNCATE`` checkpoint empties the write-ahead log that
still holds the pages as they were. (PostgreSQL keeps dead tuples until VACUUM; there, as
in every backup, what is left is ciphertext whose key no longer exists.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, delete, select, text, update
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import (
    AuditEventRow,
    ConsolidationOutboxRow,
    ContextManifestRow,
    ErasureReceiptRow,
    MemoryRow,
    SessionRow,
    SessionTurnRow,
)
from memory_service.core.erasure import ErasureReceipt, redact_details, zero_counts
from memory_service.core.ports import Clock

_BY_SESSION: tuple[tuple[str, Any], ...] = (
    ("session_turns", SessionTurnRow),
    ("consolidation_outbox", ConsolidationOutboxRow),
)
_BY_SUBJECT: tuple[tuple[str, Any], ...] = (
    ("memories", MemoryRow),
    ("context_manifests", ContextManifestRow),
    ("sessions", SessionRow),
)


class SqlErasureRepository:
    def __init__(
        self,
        session: Session,
        tenant_id: str,
        keys: SubjectKeys,
        keyring: Keyring,
        clock: Clock,
        after_commit: Callable[[Callable[[], None]], None],
    ) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._keyring = keyring
        self._clock = clock
        self._after_commit = after_commit

    def _delete(self, table: Any, condition: Any) -> int:
        """One bulk ``DELETE`` of this tenant's rows of ``table`` that match ``condition``."""
        statement = delete(table).where(col(table.tenant_id) == self._tenant_id, condition)
        return int(self._session.execute(statement).rowcount)  # type: ignore[attr-defined]

    def erase_subject(self, subject_id: str) -> dict[str, int]:
        tenant = self._tenant_id
        engine = self._session.get_bind()
        if engine.dialect.name == "sqlite":
            self._session.execute(text("PRAGMA secure_delete = ON"))
            assert isinstance(engine, Engine)
            self._after_commit(lambda: _checkpoint_sqlite(engine))
        # Lock the row first (if any): a consolidation holding it finishes before we delete,
        # and one that comes later finds the key gone. Never created here, never re-keyed.
        subject = self._keys.lock_row(subject_id)
        counts = zero_counts()
        sessions = select(SessionRow.id).where(
            SessionRow.tenant_id == tenant, SessionRow.subject_id == subject_id
        )
        # What hangs off the sessions first, the sessions last.
        for kind, by_session in _BY_SESSION:
            counts[kind] = self._delete(by_session, col(by_session.session_id).in_(sessions))
        for kind, by_subject in _BY_SUBJECT:
            counts[kind] = self._delete(by_subject, col(by_subject.subject_id) == subject_id)
        if subject is not None:
            counts["state"] = int(subject.state_ciphertext is not None)
            counts["data_key"] = int(subject.wrapped_data_key is not None)
            if subject.wrapped_data_key is not None:
                subject.erased_at = self._clock.now()
            subject.wrapped_data_key = None
            subject.state_ciphertext = None
            subject.state_updated_at = None
        counts["audit_events_redacted"] = self._redact_audit(subject_id)
        self._session.flush()
        self._keys.forget(subject_id)
        self._keyring.forget(tenant, subject_id)
        return counts

    def _redact_audit(self, subject_id: str) -> int:
        rows = self._session.execute(
            select(AuditEventRow.seq, AuditEventRow.details).where(
                AuditEventRow.tenant_id == self._tenant_id, AuditEventRow.subject_id == subject_id
            )
        ).all()
        changed = 0
        for seq, details in rows:
            redacted = redact_details(details or {})
            if redacted != (details or {}):
                self._session.execute(
                    update(AuditEventRow)
                    .where(AuditEventRow.seq == seq, AuditEventRow.tenant_id == self._tenant_id)
                    .values(details=redacted)
                )
                changed += 1
        return changed

    def add_receipt(self, receipt: ErasureReceipt) -> None:
        require_own_tenant(receipt.tenant_id, self._tenant_id)
        self._session.add(
            ErasureReceiptRow(
                id=receipt.id,
                tenant_id=receipt.tenant_id,
                subject_id=receipt.subject_id,
                requested_by=receipt.requested_by,
                at=receipt.at,
                counts=dict(receipt.counts),
            )
        )
        self._session.flush()

    def list_receipts(self, subject_id: str) -> list[ErasureReceipt]:
        statement = (
            select(ErasureReceiptRow)
            .where(
                ErasureReceiptRow.tenant_id == self._tenant_id,
                ErasureReceiptRow.subject_id == subject_id,
            )
            .order_by(ErasureReceiptRow.at)
        )
        return [
            ErasureReceipt(
                id=row.id,
                tenant_id=row.tenant_id,
                subject_id=row.subject_id,
                requested_by=row.requested_by,
                at=row.at,
                counts={kind: int(count) for kind, count in (row.counts or {}).items()},
            )
            for row in self._session.scalars(statement)
        ]


def _checkpoint_sqlite(engine: Engine) -> None:
    """Fold the WAL into the database and truncate it, so old page images are gone."""
    connection = engine.raw_connection()
    try:
        connection.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
