"""The store methods of the admin lifecycle, identical on the fake, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from memory_service.adapters.sql.retention import SqlRetentionStore
from memory_service.core.clock import new_id
from memory_service.core.erasure import ERASED_KINDS, ErasureReceipt, zero_counts
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import MemoryScope, MemoryStatus, SubjectState
from memory_service.core.ports import RetentionStore
from memory_service.core.trimming import Turn
from tests.integration.conftest import Store
from tests.integration.records import make_event, make_memory, make_session
from tests.support.fakes import InMemoryRetentionStore, InMemoryUnitOfWorkFactory

SUBJECT = "cust-erase-1"
OTHER = "cust-keep"


def _retention_store(store: Store) -> RetentionStore:
    if store.engine is None:
        assert isinstance(store.uow_factory, InMemoryUnitOfWorkFactory)
        return InMemoryRetentionStore(store.uow_factory.store)
    return SqlRetentionStore(store.engine)


def _seed(store: Store, tenant_id: str, subject: str) -> None:
    now = store.clock.now()
    first = make_session(tenant_id, subject, now)
    second = make_session(tenant_id, subject, now + timedelta(minutes=5))
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(second)
        uow.sessions.add(first)
        uow.memories.add(
            make_memory(tenant_id, subject, now, scope=MemoryScope.SESSION, session_id=first.id)
        )
        uow.memories.add(make_memory(tenant_id, subject, now, status=MemoryStatus.SUPERSEDED))
        uow.memories.add(make_memory(tenant_id, subject, now, status=MemoryStatus.DELETED))
        uow.outbox.add(first.id, now)
        uow.turns.put(first, Turn(0, "user", "Book the usual seat.", now))
        uow.turns.put(second, Turn(0, "user", "And a taxi.", now))
        uow.manifests.add(
            StoredManifest(new_id(), tenant_id, subject, first.id, now, now, {"memories": []})
        )
        uow.subjects.put_state(SubjectState(tenant_id, subject, {"plan": "pro"}, now))
        uow.audit.append(make_event(tenant_id, subject, now, details={"codes": ["pii"], "n": 2}))
        uow.audit.append(make_event(tenant_id, subject, now, details={"n": 1}))
        uow.commit()


def test_sessions_of_a_subject_are_listed_oldest_first(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    later = make_session(tenant_id, SUBJECT, now + timedelta(hours=1))
    earlier = make_session(tenant_id, SUBJECT, now)
    elsewhere = make_session(tenant_id, OTHER, now)
    with store.uow_factory(tenant_id) as uow:
        for session in (later, earlier, elsewhere):
            uow.sessions.add(session)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert [s.id for s in uow.sessions.list_for_subject(SUBJECT)] == [earlier.id, later.id]


def test_erasure_counts_and_removes_only_the_subjects_rows(store: Store, tenant_id: str) -> None:
    _seed(store, tenant_id, SUBJECT)
    _seed(store, tenant_id, OTHER)
    with store.uow_factory(tenant_id) as uow:
        counts = uow.erasure.erase_subject(SUBJECT)
        uow.commit()

    expected = zero_counts() | {
        "memories": 3,
        "sessions": 2,
        "consolidation_outbox": 1,
        "session_turns": 2,
        "context_manifests": 1,
        "state": 1,
        "data_key": 1,
        "audit_events_redacted": 1,
    }
    assert counts == expected
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert uow.sessions.list_for_subject(SUBJECT) == []
        assert uow.subjects.get_state(SUBJECT) is None
        assert [e.details for e in uow.audit.list_for_subject(SUBJECT)] == [{"n": 2}, {"n": 1}]
        assert len(uow.memories.list_for_subject(OTHER)) == 3
        assert len(uow.sessions.list_for_subject(OTHER)) == 2
        assert uow.subjects.get_state(OTHER) is not None
        assert uow.audit.list_for_subject(OTHER)[0].details == {"codes": ["pii"], "n": 2}


def test_erasing_again_or_erasing_the_unknown_counts_nothing(store: Store, tenant_id: str) -> None:
    _seed(store, tenant_id, SUBJECT)
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.erasure.erase_subject(SUBJECT) == zero_counts()
        assert uow.erasure.erase_subject("never-seen") == zero_counts()


def test_an_uncommitted_erasure_deletes_no_row(store: Store, tenant_id: str) -> None:
    """The rows stay until the erasure commits. On the SQL stores the key store has already
    destroyed the key (it commits first, failing closed): the rows no longer open, and a
    retried erasure deletes them."""
    _seed(store, tenant_id, SUBJECT)
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
    if store.engine is None:
        with store.uow_factory(tenant_id) as uow:
            assert len(uow.memories.list_for_subject(SUBJECT)) == 3
            assert uow.subjects.get_state(SUBJECT) is not None
        return
    with store.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT count(*) FROM memories WHERE tenant_id = :t AND subject_id = :s"),
            {"t": tenant_id, "s": SUBJECT},
        ).scalar_one()
    assert rows == 3
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert uow.subjects.get_state(SUBJECT) is None


def test_an_erased_subject_can_start_over_with_new_data(store: Store, tenant_id: str) -> None:
    _seed(store, tenant_id, SUBJECT)
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()
    fresh = make_memory(tenant_id, SUBJECT, store.clock.now(), text="Prefers tea.")
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(fresh)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == [fresh]


def test_receipts_round_trip_oldest_first(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    counts = dict.fromkeys(ERASED_KINDS, 1)
    later = ErasureReceipt("r-2", tenant_id, SUBJECT, "key:b", now + timedelta(hours=1), counts)
    earlier = ErasureReceipt("r-1", tenant_id, SUBJECT, "key:a", now, zero_counts())
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.add_receipt(later)
        uow.erasure.add_receipt(earlier)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.erasure.list_receipts(SUBJECT) == [earlier, later]
        assert uow.erasure.list_receipts(OTHER) == []


def test_another_tenant_sees_no_receipts_and_erases_nothing(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    _seed(store, tenant_id, SUBJECT)
    receipt = ErasureReceipt("r-9", tenant_id, SUBJECT, "key:a", store.clock.now(), zero_counts())
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.add_receipt(receipt)
        uow.commit()
    with store.uow_factory(other_tenant_id) as uow:
        assert uow.erasure.list_receipts(SUBJECT) == []
        assert uow.erasure.erase_subject(SUBJECT) == zero_counts()
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert len(uow.memories.list_for_subject(SUBJECT)) == 3


def test_the_purge_deletes_what_expired_before_the_cutoff_and_audits_it(
    store: Store, tenant_id: str
) -> None:
    # Far in the past, so memories of other tests in the shared database are never due.
    cutoff = datetime(2001, 1, 1, tzinfo=UTC)
    now = store.clock.now()
    due = [
        make_memory(tenant_id, SUBJECT, now, expires_at=cutoff - timedelta(days=i), status=status)
        for i, status in enumerate(
            [MemoryStatus.EXPIRED, MemoryStatus.ACTIVE, MemoryStatus.EXPIRED]
        )
    ]
    kept = make_memory(tenant_id, SUBJECT, now, expires_at=cutoff + timedelta(seconds=1))
    with store.uow_factory(tenant_id) as uow:
        for memory in [*due, kept]:
            uow.memories.add(memory)
        uow.commit()

    retention = _retention_store(store)
    first = retention.purge_expired(cutoff, limit=2, at=now, actor="system:retention")
    second = retention.purge_expired(cutoff, limit=2, at=now, actor="system:retention")

    assert (first, second) == (2, 1)
    with store.uow_factory(tenant_id) as uow:
        assert [m.id for m in uow.memories.list_for_subject(SUBJECT)] == [kept.id]
        purged = [e for e in uow.audit.list_for_subject(SUBJECT) if e.kind == "memory.purged"]
    assert sorted(e.memory_id or "" for e in purged) == sorted(m.id for m in due)
    assert all(e.details == {} and e.actor == "system:retention" for e in purged)
