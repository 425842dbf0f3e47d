"""Retention: how long a memory is kept, by purpose and by source, and when it is purged.

A policy reads like ``{"default_days": 365, "purposes": {"support": 90},
"sources": {"model_inferred": 30}, "grace_days": 30}``. A new memory expires after the
SHORTEST period that applies to it (its purpose's, its source's, else the default): a
shorter rule is always a deliberate restriction, so it must never be lengthened by
another one. An expired memory stays (status ``expired``, never injected) for
``grace_days``, so a mistaken policy can still be corrected, and is then purged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType

from memory_service.core.model import Source

DEFAULT_DAYS = 365
DEFAULT_GRACE_DAYS = 30
MAX_DAYS = 36_500  # a hundred years: anything longer is a typo, not a policy

_PURPOSE = re.compile(r"^[a-z][a-z0-9_\-]{0,39}$")
_FIELDS = ("default_days", "purposes", "sources", "grace_days")


class RetentionPolicyError(ValueError):
    """The policy document is malformed; the message names the field, never a value."""


@dataclass(frozen=True)
class RetentionPolicy:
    default_days: int = DEFAULT_DAYS
    purposes: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    sources: Mapping[Source, int] = field(default_factory=lambda: MappingProxyType({}))
    grace_days: int = DEFAULT_GRACE_DAYS

    def retention_days(self, *, purpose: str, source: Source) -> int:
        """The shortest period among the rules that apply to this purpose and source."""
        candidates = [self.default_days]
        if purpose in self.purposes:
            candidates.append(self.purposes[purpose])
        if source in self.sources:
            candidates.append(self.sources[source])
        return min(candidates)

    def expires_at(self, *, purpose: str, source: Source, created_at: datetime) -> datetime:
        """When a memory created now stops being used (``expires_at`` of a new memory)."""
        return created_at + timedelta(days=self.retention_days(purpose=purpose, source=source))

    def purge_cutoff(self, now: datetime) -> datetime:
        """Memories whose ``expires_at`` is at or before this are past the grace period."""
        return now - timedelta(days=self.grace_days)

    def is_due_for_purge(self, expires_at: datetime | None, now: datetime) -> bool:
        return expires_at is not None and expires_at <= self.purge_cutoff(now)


DEFAULT_POLICY = RetentionPolicy()


def parse_policy(document: object) -> RetentionPolicy:
    """Build a policy from a parsed JSON/YAML mapping; missing fields take the defaults."""
    if document is None:
        return DEFAULT_POLICY
    if not isinstance(document, Mapping):
        raise RetentionPolicyError("the retention policy must be a mapping")
    unknown = [key for key in document if key not in _FIELDS]
    if unknown:
        raise RetentionPolicyError(
            f"{len(unknown)} unknown field(s) in the policy; allowed: {', '.join(_FIELDS)}"
        )
    purposes = {
        _purpose(name): _days(days, f"purposes.{name}")
        for name, days in _mapping(document.get("purposes"), "purposes").items()
    }
    sources = {
        _source(name): _days(days, f"sources.{name}")
        for name, days in _mapping(document.get("sources"), "sources").items()
    }
    return RetentionPolicy(
        default_days=_days(document.get("default_days", DEFAULT_DAYS), "default_days"),
        purposes=MappingProxyType(purposes),
        sources=MappingProxyType(sources),
        grace_days=_days(document.get("grace_days", DEFAULT_GRACE_DAYS), "grace_days", minimum=0),
    )


def _mapping(value: object, name: str) -> Mapping[str, object]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise RetentionPolicyError(f"{name} must map names to a number of days")
    return value


def _days(value: object, name: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_DAYS:
        raise RetentionPolicyError(
            f"{name} must be a whole number of days, {minimum} to {MAX_DAYS}"
        )
    return value


def _purpose(name: str) -> str:
    if not _PURPOSE.match(name):
        raise RetentionPolicyError(
            "purpose names must be lower-case slugs of at most 40 characters"
        )
    return name


def _source(name: str) -> Source:
    try:
        return Source(name)
    except ValueError:
        allowed = ", ".join(source.value for source in Source)
        raise RetentionPolicyError(f"sources must be among {allowed}") from None
