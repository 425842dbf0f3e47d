"""What Redis may hold about a subject, and its purge on erasure.

Anything cached per subject lives under :func:`subject_namespace`
(``memory-service:<tenant>:<subject>:...``), so an erasure finds it with one ``SCAN`` and
deletes it. Celery messages carry ids only (tenant and session), never text, and a task
for an erased subject finds nothing to do, so the broker's queues need no purge.
"""

from __future__ import annotations

from typing import Any

import redis

from memory_service.core.errors import DependencyUnavailable

NAMESPACE = "memory-service"
_SCAN_COUNT = 500


def subject_namespace(tenant_id: str, subject_id: str) -> str:
    """The key prefix every per-subject Redis entry must start with."""
    return f"{NAMESPACE}:{tenant_id}:{subject_id}:"


def _glob_escape(value: str) -> str:
    return "".join(f"\\{ch}" if ch in "*?[]\\" else ch for ch in value)


class RedisSubjectCache:
    def __init__(self, client: Any) -> None:
        self._client = client

    @classmethod
    def from_url(cls, url: str) -> RedisSubjectCache:
        return cls(redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5))

    def purge_subject(self, tenant_id: str, subject_id: str) -> int:
        prefix = subject_namespace(tenant_id, subject_id)
        pattern = _glob_escape(prefix) + "*"
        deleted = 0
        try:
            batch: list[Any] = []
            for key in self._client.scan_iter(match=pattern, count=_SCAN_COUNT):
                batch.append(key)
                if len(batch) >= _SCAN_COUNT:
                    deleted += int(self._client.delete(*batch))
                    batch = []
            if batch:
                deleted += int(self._client.delete(*batch))
        except redis.RedisError as exc:
            raise DependencyUnavailable("the cache is unavailable; retry the erasure") from exc
        return deleted


class NoSubjectCache:
    """Without Redis nothing is cached outside the database."""

    def purge_subject(self, tenant_id: str, subject_id: str) -> int:
        return 0
