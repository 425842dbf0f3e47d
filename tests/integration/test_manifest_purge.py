"""Context manifests are kept for their retention, then the nightly purge removes them,
every tenant's, on the fake, SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import timedelta

from memory_service.core.clock import new_id
from memory_service.core.manifests import StoredManifest
from memory_service.services.context import purge_expired_manifests
from tests.integration.conftest import Store
from tests.integration.test_consolidation_store import maintenance_of

SUBJECT = "subject-1"


def _store_manifests(store: Store, tenant_id: str, *expires_in: timedelta) -> list[str]:
    now = store.clock.now()
    manifests = [
        StoredManifest(new_id(), tenant_id, SUBJECT, None, now, now + delta, {"items": []})
        for delta in expires_in
    ]
    with store.uow_factory(tenant_id) as uow:
        for manifest in manifests:
            uow.manifests.add(manifest)
        uow.commit()
    return [manifest.id for manifest in manifests]


def test_the_nightly_purge_removes_expired_manifests_of_every_tenant_and_keeps_the_rest(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    expired_a, kept_a = _store_manifests(store, tenant_id, timedelta(days=-1), timedelta(days=1))
    (expired_b,) = _store_manifests(store, other_tenant_id, timedelta(seconds=-1))
    maintenance = maintenance_of(store)

    assert set(maintenance.tenants_with_expired_manifests(now=store.clock.now())) >= {
        tenant_id,
        other_tenant_id,
    }
    purged = purge_expired_manifests(
        maintenance=maintenance, uow_factory=store.uow_factory, clock=store.clock
    )

    assert purged >= 2
    with store.uow_factory(tenant_id) as uow:
        assert uow.manifests.get(expired_a) is None
        assert uow.manifests.get(kept_a) is not None
    with store.uow_factory(other_tenant_id) as uow:
        assert uow.manifests.get(expired_b) is None
    assert tenant_id not in maintenance.tenants_with_expired_manifests(now=store.clock.now())
