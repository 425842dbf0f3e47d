"""Tenant note policies in ``tenants.policy``, cached briefly per process.

Every note save needs its tenant's policy; reading it in a transaction of its own would
cost a round trip (and, on SQLite, the write lock) per note. So a policy is kept for
``ttl_seconds``: a change made through this store is seen at once in this process, and a
change made elsewhere (the CLI, another server) within ``ttl_seconds``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from memory_service.adapters.sql.failures import connection_failures_as_unavailable
from memory_service.adapters.sql.tenancy import insert_tenant_if_absent
from memory_service.adapters.tables import TenantRow
from memory_service.core.ports import Clock
from memory_service.core.tenant_policy import (
    DEFAULT_TENANT_POLICY,
    TenantPolicy,
    merge_into,
    parse_tenant_policy,
)

DEFAULT_TTL_SECONDS = 10.0


class SqlTenantPolicyStore:
    def __init__(
        self,
        engine: Engine,
        clock: Clock,
        *,
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._engine = engine
        self._clock = clock
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._cache: dict[str, tuple[float, TenantPolicy]] = {}
        self._lock = threading.Lock()

    def get(self, tenant_id: str) -> TenantPolicy:
        now = self._monotonic()
        with self._lock:
            cached = self._cache.get(tenant_id)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            document = session.scalars(
                select(TenantRow.policy).where(TenantRow.id == tenant_id)
            ).first()
        policy = DEFAULT_TENANT_POLICY if document is None else parse_tenant_policy(document)
        with self._lock:
            self._cache[tenant_id] = (now, policy)
        return policy

    def set(self, tenant_id: str, policy: TenantPolicy) -> None:
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            insert_tenant_if_absent(session, tenant_id, self._clock.now())
            row = session.get(TenantRow, tenant_id, with_for_update=True)
            assert row is not None  # inserted above, or by a concurrent transaction
            session.execute(
                update(TenantRow)
                .where(TenantRow.id == tenant_id)
                .values(policy=merge_into(row.policy, policy))
            )
            session.commit()
        with self._lock:
            self._cache[tenant_id] = (self._monotonic(), policy)
