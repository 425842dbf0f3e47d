"""Erasure of a subject: the receipt it leaves and what survives in the audit history.

An erasure removes every row that holds the subject's data and destroys the subject's data
key, so copies of ciphertext left in WAL, backups or replicas cannot be opened either. The
audit history survives as ids, kinds and times; :func:`redact_details` keeps only counts,
flags and ids in an event's details, dropping anything that could derive from text (reason
codes, entity types, model names, ...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# What an erasure counts, in the order a receipt lists them.
ERASED_KINDS = (
    "memories",
    "sessions",
    "session_turns",
    "context_manifests",
    "consolidation_outbox",
    "state",
    "data_key",
    "audit_events_redacted",
)

_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@dataclass(frozen=True)
class ErasureReceipt:
    """Proof that an erasure ran: who asked, when, and how many rows of each kind went.

    A second erasure of the same subject leaves a receipt of zero counts, as does the
    erasure of a subject the tenant never had: the answer does not reveal existence.
    """

    id: str
    tenant_id: str
    subject_id: str
    requested_by: str
    at: datetime
    counts: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subject_id": self.subject_id,
            "requested_by": self.requested_by,
            "erased_at": self.at.isoformat(),
            "counts": {kind: int(self.counts.get(kind, 0)) for kind in ERASED_KINDS},
        }


def zero_counts() -> dict[str, int]:
    return dict.fromkeys(ERASED_KINDS, 0)


def _is_id(value: object) -> bool:
    return isinstance(value, str) and bool(_ID.match(value))


def _keeps(value: object) -> bool:
    if value is None or isinstance(value, bool | int | float):
        return True
    if _is_id(value):
        return True
    return isinstance(value, list | tuple) and all(_is_id(item) for item in value)


def redact_details(details: Mapping[str, Any]) -> dict[str, Any]:
    """Counts, flags and ids only. Idempotent: redacting twice changes nothing more."""
    return {key: value for key, value in details.items() if _keeps(value)}
