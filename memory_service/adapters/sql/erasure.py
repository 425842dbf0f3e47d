"""Erasure of one subject within one tenant, and the receipts it leaves.

Bulk ``DELETE`` statements, each filtered by tenant and subject, in the caller's
transaction; the memories' term index rows go with them (``ON DELETE CASCADE``). First,
under the subject's lock, the key store destroys the subject's data keys and keeps the
erasure (committed at once, in its own database): every ciphertext (and term hash) of the
subject still lying in WAL segments, backups or replicas is noise from then on, even if
this transaction then fails (a retry finishes the deletes). The subject's row stays as a
tombstone whose key id is NULL.
The audit log is append-only everywhere else; redacting the details of an erased subject's
events is the one rewrite it allows.

Once committed, the erasure (and a memory's delete, :meth:`scrub_after_commit`) also
scrubs the live files. On SQLite ``secure_delete`` (on for every connection) has zeroed the
freed space of deleted rows, and a ``TRUNCATE`` checkpoint empties the write-ahead log that
still holds the pages as they were. On PostgreSQL a ``VACUUM`` of the touched tables drops
the dead tuples; it may leave a deleted tuple's bytes in a page's free space until the
page is rewritten, and the WAL keeps them until recycled: there, as in every backup, what
is left is ciphertext whose key no longer exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import ColumnElement, Engine, delete, select, update
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import scrub_sqlite_wal
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

# The tables an erasure deletes from by tenant and session or subject.
_ErasedRow = SessionTurnRow | ConsolidationOutboxRow | MemoryRow | ContextManifestRow | SessionRow

if TYPE_CHECKING:
    from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory

_BY_SESSION: tuple[tuple[str, type[SessionTurnRow] | type[ConsolidationOutboxRow]], ...] = (
    ("session_turns", SessionTurnRow),
    ("consolidation_outbox", ConsolidationOutboxRow),
)
_BY_SUBJECT: tuple[
    tuple[str, type[MemoryRow] | type[ContextManifestRow] | type[SessionRow]], ...
] = (
    ("memories", MemoryRow),
    ("context_manifests", ContextManifestRow),
    ("sessions", SessionRow),
)
# Every table an erasure deletes from or rewrites (memory_terms by cascade).
_TOUCHED = (
    *(str(row.__tablename__) for _, row in (*_BY_SESSION, *_BY_SUBJECT)),
    "memory_terms",
    "session_histories",
    "subjects",
    "audit_events",
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

    def _delete(self, table: type[_ErasedRow], condition: ColumnElement[bool]) -> int:
        """One bulk ``DELETE`` of this tenant's rows of ``table`` that match ``condition``."""
        statement = delete(table).where(col(table.tenant_id) == self._tenant_id, condition)
        return int(self._session.execute(statement).rowcount)  # type: ignore[attr-defined]

    def scrub_after_commit(self, *tables: str) -> None:
        """Once committed, take what this transaction deleted or overwrote in ``tables``
        out of the live files (see the module docstring)."""
        engine = self._session.get_bind()
        assert isinstance(engine, Engine)
        if engine.dialect.name == "sqlite":
            self._after_commit(lambda: scrub_sqlite_wal(engine))
        else:
            self._after_commit(lambda: _vacuum(engine, tables))

    def erase_subject(self, subject_id: str) -> dict[str, int]:
        tenant = self._tenant_id
        self.scrub_after_commit(*_TOUCHED)
        # Lock the row first (if any): a consolidation holding it finishes before we delete,
        # and one that comes later finds the key gone. Never created here, never re-keyed.
        subject = self._keys.lock_row(subject_id)
        self._keyring.store.destroy_keys(tenant, subject_id, at=self._clock.now())
        self._after_commit(self._keyring.store.scrub)
        self._keys.forget(subject_id)
        self._keyring.forget(tenant, subject_id)
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
            counts["data_key"] = int(subject.data_key_id is not None)
            if subject.data_key_id is not None:
                subject.erased_at = self._clock.now()
            subject.data_key_id = None
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


def _vacuum(engine: Engine, tables: tuple[str, ...]) -> None:
    """``VACUUM`` runs outside a transaction; the names are this module's constants."""
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
            f"VACUUM {', '.join(tables)}"
        )


def replay_erasures(uow_factory: SqlUnitOfWorkFactory, keyring: Keyring) -> int:
    """After restoring the data from a backup: erase again every subject the key store
    has an erasure of and whose restored rows name a key it no longer holds.

    A subject erased and then started anew keeps its new key and is left alone. Returns
    how many subjects were erased again. Safe to repeat.
    """
    replayed = 0
    for erasure in {(e.tenant_id, e.subject_id) for e in keyring.store.erasures()}:
        tenant_id, subject_id = erasure
        with uow_factory(tenant_id) as uow:
            row = uow.subject_keys.row(subject_id)
            if row is None or row.data_key_id is None:
                continue
            if keyring.cipher_for(tenant_id, subject_id, row.data_key_id) is not None:
                continue  # a new lifecycle after the erasure
            uow.erasure.erase_subject(subject_id)
            uow.commit()
            replayed += 1
    return replayed
