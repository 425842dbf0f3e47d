"""What keeps every repository inside its tenant, besides the filter on each statement."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from memory_service.adapters.sql.upsert import insert_if_absent
from memory_service.adapters.tables import TenantRow


def require_own_tenant(record_tenant_id: str, tenant_id: str) -> None:
    """A record handed to a repository must be of the repository's tenant."""
    if record_tenant_id != tenant_id:
        raise ValueError("the record belongs to another tenant than this unit of work")


def insert_tenant_if_absent(session: Session, tenant_id: str, at: datetime) -> None:
    """The tenant's row with the default policy, unless it (or a concurrent insert) exists."""
    insert_if_absent(
        session,
        TenantRow.__table__,  # type: ignore[attr-defined]
        {"id": tenant_id, "name": tenant_id, "created_at": at, "policy": {}},
    )
