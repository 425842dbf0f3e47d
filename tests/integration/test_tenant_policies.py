"""The tenant policy store, the same promises on the fake, SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.tenants import SqlTenantPolicyStore
from memory_service.adapters.tables import TenantRow
from memory_service.core.model import Source
from memory_service.core.tenant_policy import DEFAULT_TENANT_POLICY, TenantPolicy, TenantPolicyStore
from tests.support.fakes import FixedClock
from tests.support.notes import FakeTenantPolicyStore

HELD = TenantPolicy(confirm_sources=frozenset({Source.MODEL_INFERRED}), agent_confirmation=False)


@pytest.fixture(params=["fake", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def policies(request: pytest.FixtureRequest) -> Iterator[TenantPolicyStore]:
    if request.param == "fake":
        yield FakeTenantPolicyStore()
        return
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    engine = create_engine_for(request.getfixturevalue(url_fixture))
    try:
        yield SqlTenantPolicyStore(engine, FixedClock())
    finally:
        engine.dispose()


def test_an_unknown_tenant_has_the_default_policy(
    policies: TenantPolicyStore, tenant_id: str
) -> None:
    assert policies.get(tenant_id) == DEFAULT_TENANT_POLICY


def test_a_policy_set_is_read_back_and_kept_per_tenant(
    policies: TenantPolicyStore, tenant_id: str, other_tenant_id: str
) -> None:
    policies.set(tenant_id, HELD)

    assert policies.get(tenant_id) == HELD
    assert policies.get(other_tenant_id) == DEFAULT_TENANT_POLICY
    policies.set(tenant_id, DEFAULT_TENANT_POLICY)
    assert policies.get(tenant_id) == DEFAULT_TENANT_POLICY


def test_sql_policy_changes_from_another_process_are_seen_after_the_cache_expires(
    shared_sqlite_url: str, tenant_id: str
) -> None:
    engine = create_engine_for(shared_sqlite_url)
    now = [0.0]
    server = SqlTenantPolicyStore(engine, FixedClock(), ttl_seconds=10, monotonic=lambda: now[0])
    cli = SqlTenantPolicyStore(engine, FixedClock())
    try:
        assert server.get(tenant_id) == DEFAULT_TENANT_POLICY
        cli.set(tenant_id, HELD)
        assert server.get(tenant_id) == DEFAULT_TENANT_POLICY  # still cached
        now[0] = 11.0
        assert server.get(tenant_id) == HELD
    finally:
        engine.dispose()


def test_sql_set_keeps_other_tenant_settings_in_the_json(
    shared_sqlite_url: str, tenant_id: str
) -> None:
    engine = create_engine_for(shared_sqlite_url)
    store = SqlTenantPolicyStore(engine, FixedClock())
    try:
        store.set(tenant_id, HELD)
        with engine.begin() as connection:
            connection.execute(
                TenantRow.__table__.update()  # type: ignore[attr-defined]
                .where(TenantRow.__table__.c.id == tenant_id)  # type: ignore[attr-defined]
                .values(policy={**HELD.to_dict(), "other": "kept"})
            )
        store.set(tenant_id, DEFAULT_TENANT_POLICY)
        with engine.connect() as connection:
            stored = connection.execute(
                select(TenantRow.policy).where(TenantRow.id == tenant_id)  # type: ignore[call-overload]
            ).scalar_one()
        assert stored == {**DEFAULT_TENANT_POLICY.to_dict(), "other": "kept"}
    finally:
        engine.dispose()
