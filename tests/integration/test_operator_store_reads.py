"""Contract of the two reads the console and the metrics add, on the fake, SQLite and
PostgreSQL: ``KeyStore.active`` (is this key still good, by id) and
``MaintenanceStore.outbox_backlog`` (how much waits in the outbox, and since when)."""

from __future__ import annotations

from datetime import timedelta

from memory_service.core.model import Role
from tests.integration.conftest import Store
from tests.integration.test_outbox_redelivery_store import maintenance_of


def test_a_key_is_active_for_its_tenant_until_revoked(store: Store, tenant_id: str) -> None:
    record, _ = store.keys.create(tenant_id, Role.ADMIN)
    assert store.keys.active(tenant_id, record.id) == record
    assert store.keys.active("t-someone-else", record.id) is None
    assert store.keys.active(tenant_id, "no-such-key") is None
    assert store.keys.revoke(tenant_id, record.id)
    assert store.keys.active(tenant_id, record.id) is None


def test_the_backlog_counts_unsent_entries_and_dates_the_oldest(
    store: Store, tenant_id: str
) -> None:
    maintenance = maintenance_of(store)
    before = maintenance.outbox_backlog()
    oldest = store.clock.now() - timedelta(days=3650)  # older than anything another test left
    with store.uow_factory(tenant_id) as uow:
        uow.outbox.add("session-a", oldest)
        uow.outbox.add("session-b", oldest + timedelta(minutes=5))
        sent = uow.outbox.add("session-c", oldest)
        uow.outbox.record_attempt(sent, dispatched_at=store.clock.now())
        uow.commit()

    after = maintenance.outbox_backlog()

    assert after.pending == before.pending + 2
    assert after.oldest_created_at == oldest
