"""Context manifests: what one render put in, left out and why, and the stored copy for audit.

A manifest holds ids, kinds, sources, versions, reasons and token counts, never text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class ItemKind(StrEnum):
    STATE = "state"
    SESSION = "session"
    GLOBAL = "global"
    HYPOTHESIS = "hypothesis"
    POLICY = "policy"


class DropReason(StrEnum):
    OTHER_TENANT = "other_tenant"
    OTHER_SUBJECT = "other_subject"
    # A session-scope note of another session (or of any session when the call names none).
    OTHER_SESSION = "other_session"
    OTHER_PURPOSE = "other_purpose"
    EXPIRED = "expired"
    INACTIVE = "inactive"
    SOURCE_NOT_ACCEPTED = "source_not_accepted"
    # The same memory id offered twice (e.g. in both candidate lists); the first one counts.
    DUPLICATE = "duplicate"
    OVER_CAP = "over_cap"
    OVER_BUDGET = "over_budget"


@dataclass(frozen=True, slots=True)
class ManifestItem:
    """One rendered item: ``tokens`` is the count of its own rendered line(s)."""

    item_id: str
    kind: ItemKind
    source: str
    trust: str
    version: str
    tokens: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.item_id,
            "kind": self.kind.value,
            "source": self.source,
            "trust": self.trust,
            "version": self.version,
            "tokens": self.tokens,
        }


@dataclass(frozen=True, slots=True)
class DroppedItem:
    item_id: str
    kind: ItemKind
    reason: DropReason

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.item_id, "kind": self.kind.value, "reason": self.reason.value}


@dataclass(frozen=True)
class Manifest:
    """What went into one render, what was left out and why. Ids and counts, never text."""

    tenant_id: str
    subject_id: str
    session_id: str | None
    purpose: str
    rendered_at: datetime
    policy_version: str
    max_global: int
    token_budget: int | None
    total_tokens: int
    items: tuple[ManifestItem, ...]
    dropped: tuple[DroppedItem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "tenant_id": self.tenant_id,
            "subject_id": self.subject_id,
            "session_id": self.session_id,
            "purpose": self.purpose,
            "rendered_at": self.rendered_at.isoformat(),
            "policy_version": self.policy_version,
            "max_global": self.max_global,
            "token_budget": self.token_budget,
            "total_tokens": self.total_tokens,
            "items": [item.to_dict() for item in self.items],
            "dropped": [item.to_dict() for item in self.dropped],
        }


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
