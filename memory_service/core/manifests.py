"""A stored context manifest: ids, reasons and token counts of one render, kept for audit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class StoredManifest:
    """``manifest`` is the JSON form of one render's manifest: it never holds memory text."""

    id: str
    tenant_id: str
    subject_id: str
    session_id: str | None
    created_at: datetime
    expires_at: datetime
    manifest: dict[str, Any]
