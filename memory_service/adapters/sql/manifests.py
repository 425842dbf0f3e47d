"""One tenant's stored context manifests: JSON of ids and counts, purged once expired."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import ContextManifestRow
from memory_service.core.manifests import StoredManifest


class SqlManifestRepository:
    def __init__(self, session: Session, tenant_id: str) -> None:
        self._session = session
        self._tenant_id = tenant_id

    def add(self, manifest: StoredManifest) -> None:
        require_own_tenant(manifest.tenant_id, self._tenant_id)
        self._session.add(
            ContextManifestRow(
                id=manifest.id,
                tenant_id=self._tenant_id,
                subject_id=manifest.subject_id,
                session_id=manifest.session_id,
                created_at=manifest.created_at,
                expires_at=manifest.expires_at,
                manifest=manifest.manifest,
            )
        )
        self._session.flush()

    def get(self, manifest_id: str) -> StoredManifest | None:
        row = self._session.scalars(
            select(ContextManifestRow).where(
                ContextManifestRow.tenant_id == self._tenant_id,
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
                ContextManifestRow.tenant_id == self._tenant_id,
                ContextManifestRow.expires_at <= now,
            )
        )
        return int(result.rowcount or 0)  # type: ignore[attr-defined]
