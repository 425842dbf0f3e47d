"""Stored context manifests: JSON of ids and counts, purged once expired.

A render does not write its manifest in its own transaction (renders are read only, see
``services/context.py``): :func:`write_manifests` stores them in batches afterwards, from
the queue of :mod:`memory_service.adapters.manifest_queue`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import groupby
from typing import Any

from sqlalchemy import Engine, delete, insert, select, tuple_
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.database import begin_writing
from memory_service.adapters.sql.failures import connection_failures_as_unavailable
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import ContextManifestRow, SessionHistoryRow, SubjectRow
from memory_service.core.manifests import StoredManifest
from memory_service.core.ports import Clock


class SqlManifestRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self._session = session
        self.tenant_id = tenant_id

    def add(self, manifest: StoredManifest) -> None:
        self.add_all([manifest])

    def add_all(self, manifests: Sequence[StoredManifest]) -> None:
        """One ``INSERT`` for all of them."""
        for manifest in manifests:
            require_own_tenant(manifest.tenant_id, self.tenant_id)
        if manifests:
            self._session.execute(insert(ContextManifestRow), [_values(m) for m in manifests])

    def get(self, manifest_id: str) -> StoredManifest | None:
        row = self._session.scalars(
            select(ContextManifestRow).where(
                ContextManifestRow.tenant_id == self.tenant_id,
                ContextManifestRow.id == manifest_id,
            )
        ).first()
        if row is None:
            return None
        return StoredManifest(
            id=row.id,
            tenant_id=row.tenant_id,
            subject_id=row.subject_id,
            session_id=row.session_id,
            created_at=row.created_at,
            expires_at=row.expires_at,
            manifest=dict(row.manifest),
        )

    def purge_expired(self, now: datetime) -> int:
        result = self._session.execute(
            delete(ContextManifestRow).where(
                ContextManifestRow.tenant_id == self.tenant_id,
                ContextManifestRow.expires_at <= now,
            )
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]


def _values(manifest: StoredManifest) -> dict[str, Any]:
    return {
        "id": manifest.id,
        "tenant_id": manifest.tenant_id,
        "subject_id": manifest.subject_id,
        "session_id": manifest.session_id,
        "created_at": manifest.created_at,
        "expires_at": manifest.expires_at,
        "manifest": manifest.manifest,
    }


def write_manifests(engine: Engine, manifests: Sequence[StoredManifest], *, clock: Clock) -> int:
    """Store a batch of renders' manifests in one transaction; returns how many were kept.

    The subjects' rows are share-locked first, so an erasure (which locks its subject for
    update) is ordered with the batch: the manifests of a subject erased before the batch
    are dropped, not stored after its erasure (manifests hold ids, but an erased subject
    leaves none). The notes a render carried from cut turns are added to the session's trim
    marks (``reinjected``), as the render itself did when it wrote in its own transaction.
    """
    ordered = sorted(manifests, key=lambda m: (m.tenant_id, m.subject_id))
    with connection_failures_as_unavailable(), Session(engine) as db:
        begin_writing(db.connection())
        subjects = sorted({(m.tenant_id, m.subject_id) for m in ordered})
        subject = (col(SubjectRow.tenant_id), col(SubjectRow.subject_id))
        erased = {
            (tenant, subject_id)
            for tenant, subject_id, key in db.execute(
                select(*subject, SubjectRow.data_key_id)
                .where(tuple_(*subject).in_(subjects))
                .order_by(*subject)
                .with_for_update(read=True)
            )
            if key is None
        }
        kept = [m for m in ordered if (m.tenant_id, m.subject_id) not in erased]
        for tenant, group in groupby(kept, key=lambda m: m.tenant_id):
            SqlManifestRepository(db, tenant).add_all(list(group))
        _mark_reinjected(db, kept, clock.now())
        db.commit()
    return len(kept)


def _mark_reinjected(db: Session, manifests: Sequence[StoredManifest], now: datetime) -> None:
    carried: dict[tuple[str, str], set[str]] = {}
    for manifest in manifests:
        reinjected = manifest.manifest.get("reinjected") or []
        if manifest.session_id is not None and reinjected:
            carried.setdefault((manifest.tenant_id, manifest.session_id), set()).update(reinjected)
    for key, ids in sorted(carried.items()):
        row = db.get(SessionHistoryRow, key)
        # Notes are carried only from cut turns, and a cut writes the row; none: erased since.
        if row is not None and not ids <= set(row.reinjected):
            row.reinjected = sorted(ids | set(row.reinjected))
            row.updated_at = now
    db.flush()
