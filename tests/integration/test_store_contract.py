"""The store contract, run against the in-memory fake, SQLite and PostgreSQL alike."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from memory_service.core.errors import NotFound
from memory_service.core.model import (
    EventKind,
    MemoryScope,
    MemoryStatus,
    Provenance,
    Role,
    SessionStatus,
    SubjectState,
)
from tests.integration.conftest import Store
from tests.integration.records import make_event, make_memory, make_session

SUBJECT = "cust-001"


def test_a_memory_round_trips_with_every_field(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    memory = make_memory(
        tenant_id,
        SUBJECT,
        now,
        scope=MemoryScope.SESSION,
        session_id="s-1",
        expires_at=now + timedelta(days=30),
        provenance=Provenance(actor="key-9", session_id="s-1", turn=2, derived_from=("a", "b")),
    )
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        assert uow.memories.get(memory.id) == memory
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == memory


def test_an_unknown_memory_is_none(store: Store, tenant_id: str) -> None:
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get("no-such-id") is None


def test_nothing_is_kept_without_commit(store: Store, tenant_id: str) -> None:
    memory = make_memory(tenant_id, SUBJECT, store.clock.now())
    session = make_session(tenant_id, SUBJECT, store.clock.now())
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.sessions.add(session)
        uow.audit.append(make_event(tenant_id, SUBJECT, store.clock.now()))
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) is None
        assert uow.sessions.get(session.id) is None
        assert uow.audit.list_for_subject(SUBJECT) == []


def test_after_commit_jobs_run_only_once_committed_and_see_the_data(
    store: Store, tenant_id: str
) -> None:
    memory = make_memory(tenant_id, SUBJECT, store.clock.now())
    seen: list[object] = []

    def read_back() -> None:
        with store.uow_factory(tenant_id) as reader:
            seen.append(reader.memories.get(memory.id))

    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.after_commit(read_back)
    assert seen == []

    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.after_commit(read_back)
        assert seen == []
        uow.commit()
    assert seen == [memory]


def test_an_exception_rolls_back(store: Store, tenant_id: str) -> None:
    memory = make_memory(tenant_id, SUBJECT, store.clock.now())
    with pytest.raises(RuntimeError), store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        raise RuntimeError("boom")
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) is None


def test_save_writes_back_status_supersession_and_text(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    memory = make_memory(tenant_id, SUBJECT, now)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.commit()
    later = now + timedelta(hours=1)
    changed = replace(
        memory,
        text="Prefers window seats.",
        keywords=("window",),
        status=MemoryStatus.SUPERSEDED,
        superseded_at=later,
        superseded_by="m-2",
        updated_at=later,
    )
    with store.uow_factory(tenant_id) as uow:
        uow.memories.save(changed)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == changed


def test_saving_an_unknown_memory_is_not_found(store: Store, tenant_id: str) -> None:
    with store.uow_factory(tenant_id) as uow, pytest.raises(NotFound):
        uow.memories.save(make_memory(tenant_id, SUBJECT, store.clock.now()))


def test_subject_listing_is_newest_first_and_filters(store: Store, tenant_id: str) -> None:
    start = store.clock.now()
    old = make_memory(tenant_id, SUBJECT, start, purpose="travel")
    mid = make_memory(tenant_id, SUBJECT, start + timedelta(minutes=1))
    new = make_memory(
        tenant_id, SUBJECT, start + timedelta(minutes=2), scope=MemoryScope.SESSION, session_id="s"
    )
    gone = make_memory(
        tenant_id,
        SUBJECT,
        start + timedelta(minutes=3),
        status=MemoryStatus.SUPERSEDED,
        expires_at=start + timedelta(minutes=5),
    )
    other_subject = make_memory(tenant_id, "cust-002", start)
    with store.uow_factory(tenant_id) as uow:
        for memory in (old, mid, new, gone, other_subject):
            uow.memories.add(memory)
        uow.commit()

    with store.uow_factory(tenant_id) as uow:
        listing = uow.memories.list_for_subject
        assert listing(SUBJECT) == [gone, new, mid, old]
        assert listing(SUBJECT, scope=MemoryScope.GLOBAL) == [gone, mid, old]
        assert listing(SUBJECT, statuses=[MemoryStatus.ACTIVE]) == [new, mid, old]
        assert listing(SUBJECT, statuses=[]) == []
        assert listing(SUBJECT, purposes=["travel"]) == [old]
        assert listing(SUBJECT, not_expired_at=start + timedelta(minutes=5)) == [new, mid, old]
        assert listing(SUBJECT, not_expired_at=start + timedelta(minutes=4)) == [
            gone,
            new,
            mid,
            old,
        ]
        assert listing(SUBJECT, limit=2) == [gone, new]
        assert listing(
            SUBJECT, scope=MemoryScope.GLOBAL, statuses=[MemoryStatus.ACTIVE], limit=1
        ) == [mid]


def test_ties_in_time_list_in_the_same_order_everywhere(store: Store, tenant_id: str) -> None:
    at = store.clock.now()
    memories = [make_memory(tenant_id, SUBJECT, at, session_id="s-tie") for _ in range(5)]
    with store.uow_factory(tenant_id) as uow:
        for memory in memories:
            uow.memories.add(memory)
        uow.commit()
    by_id = sorted(memories, key=lambda memory: memory.id)
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == by_id[::-1]
        assert uow.memories.list_for_session("s-tie") == by_id


def test_session_listing_is_oldest_first_and_only_that_session(
    store: Store, tenant_id: str
) -> None:
    start = store.clock.now()
    first = make_memory(tenant_id, SUBJECT, start, session_id="s-1")
    second = make_memory(tenant_id, SUBJECT, start + timedelta(seconds=1), session_id="s-1")
    elsewhere = make_memory(tenant_id, SUBJECT, start, session_id="s-2")
    with store.uow_factory(tenant_id) as uow:
        for memory in (second, elsewhere, first):
            uow.memories.add(memory)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.list_for_session("s-1") == [first, second]


def test_duplicates_are_found_by_normalised_text_among_active_memories(
    store: Store, tenant_id: str
) -> None:
    now = store.clock.now()
    active = make_memory(tenant_id, SUBJECT, now, text="Prefers aisle seats.")
    superseded = make_memory(
        tenant_id, SUBJECT, now, text="Likes tea.", status=MemoryStatus.SUPERSEDED
    )
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(active)
        uow.memories.add(superseded)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.find_active_duplicate(SUBJECT, "  PREFERS   aisle seats!") == active
        assert uow.memories.find_active_duplicate(SUBJECT, "Prefers window seats.") is None
        assert uow.memories.find_active_duplicate(SUBJECT, "likes tea") is None
        assert uow.memories.find_active_duplicate("cust-002", "Prefers aisle seats.") is None


def test_sessions_round_trip_and_save(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    session = make_session(tenant_id, SUBJECT, now, purpose="travel")
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.commit()
    ended = replace(session, status=SessionStatus.ENDED, ended_at=now + timedelta(minutes=9))
    with store.uow_factory(tenant_id) as uow:
        assert uow.sessions.get(session.id) == session
        uow.sessions.save(ended)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.sessions.get(session.id) == ended
        assert uow.sessions.get("no-such-session") is None
        with pytest.raises(NotFound):
            uow.sessions.save(make_session(tenant_id, SUBJECT, now))


def test_state_round_trips_and_is_replaced(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    first = SubjectState(tenant_id, SUBJECT, {"tier": "gold", "langs": ["fr", "en"]}, now)
    second = SubjectState(tenant_id, SUBJECT, {"tier": "silver"}, now + timedelta(days=1))
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.get_state(SUBJECT) is None
        uow.subjects.put_state(first)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.get_state(SUBJECT) == first
        uow.subjects.put_state(second)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.get_state(SUBJECT) == second


def test_locking_a_new_subject_works_and_keeps_nothing_else(store: Store, tenant_id: str) -> None:
    with store.uow_factory(tenant_id) as uow:
        uow.subjects.lock("cust-new")
        assert uow.subjects.get_state("cust-new") is None
        uow.commit()


def test_audit_is_listed_oldest_first_in_append_order_on_ties(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    later = make_event(tenant_id, SUBJECT, now + timedelta(seconds=1), kind=EventKind.NOTE_HELD)
    tied = [
        make_event(tenant_id, SUBJECT, now, kind=EventKind.NOTE_SAVED, memory_id=f"m{i}")
        for i in range(4)
    ]
    other = make_event(tenant_id, "cust-002", now)
    with store.uow_factory(tenant_id) as uow:
        for event in (later, *tied, other):
            uow.audit.append(event)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.audit.list_for_subject(SUBJECT) == [*tied, later]
        assert uow.audit.list_for_subject(SUBJECT, limit=2) == tied[:2]
        assert uow.audit.list_for_subject("cust-002") == [other]


def test_another_tenants_records_read_as_unknown(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    now = store.clock.now()
    session = make_session(tenant_id, SUBJECT, now)
    memory = make_memory(tenant_id, SUBJECT, now, session_id=session.id)
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.memories.add(memory)
        uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"tier": "gold"}, now))
        uow.audit.append(make_event(tenant_id, SUBJECT, now))
        uow.commit()

    with store.uow_factory(other_tenant_id) as uow:
        assert uow.memories.get(memory.id) is None
        assert uow.memories.find_active_duplicate(SUBJECT, memory.text) is None
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert uow.memories.list_for_session(session.id) == []
        assert uow.sessions.get(session.id) is None
        assert uow.subjects.get_state(SUBJECT) is None
        assert uow.audit.list_for_subject(SUBJECT) == []


@pytest.mark.parametrize("kind", ["memory", "session"])
def test_another_tenant_cannot_save_over_a_record(
    store: Store, tenant_id: str, other_tenant_id: str, kind: str
) -> None:
    now = store.clock.now()
    memory = make_memory(tenant_id, SUBJECT, now)
    session = make_session(tenant_id, SUBJECT, now)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.sessions.add(session)
        uow.commit()
    with store.uow_factory(other_tenant_id) as uow, pytest.raises(NotFound):
        if kind == "memory":
            uow.memories.save(replace(memory, tenant_id=other_tenant_id, text="taken"))
        else:
            uow.sessions.save(replace(session, tenant_id=other_tenant_id))
    with store.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == memory
        assert uow.sessions.get(session.id) == session


def test_a_unit_of_work_refuses_records_of_another_tenant(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    now = store.clock.now()
    with store.uow_factory(tenant_id) as uow:
        with pytest.raises(ValueError):
            uow.memories.add(make_memory(other_tenant_id, SUBJECT, now))
        with pytest.raises(ValueError):
            uow.sessions.add(make_session(other_tenant_id, SUBJECT, now))
        with pytest.raises(ValueError):
            uow.subjects.put_state(SubjectState(other_tenant_id, SUBJECT, {}, now))
        with pytest.raises(ValueError):
            uow.audit.append(make_event(other_tenant_id, SUBJECT, now))


def test_datetimes_come_back_aware_and_at_the_same_instant(store: Store, tenant_id: str) -> None:
    paris = timezone(timedelta(hours=2))
    local = datetime(2026, 6, 1, 12, 30, 15, 123456, tzinfo=paris)
    memory = make_memory(tenant_id, SUBJECT, local, expires_at=local + timedelta(days=1))
    session = make_session(tenant_id, SUBJECT, local)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.sessions.add(session)
        uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {}, local))
        uow.audit.append(make_event(tenant_id, SUBJECT, local))
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        stored = uow.memories.get(memory.id)
        opened = uow.sessions.get(session.id)
        state = uow.subjects.get_state(SUBJECT)
        events = uow.audit.list_for_subject(SUBJECT)
    assert stored is not None and opened is not None and state is not None
    times = [stored.created_at, opened.opened_at, state.updated_at, events[0].at]
    for value in times:
        assert value.tzinfo is not None
        assert value == local  # aware comparison: the same instant
    assert stored.expires_at == local + timedelta(days=1)


def test_keys_authenticate_until_revoked(store: Store, tenant_id: str) -> None:
    record, clear_key = store.keys.create(tenant_id, Role.ADMIN)
    assert clear_key.startswith("msk_")
    assert (record.tenant_id, record.role, record.is_active) == (tenant_id, Role.ADMIN, True)
    assert store.keys.authenticate(clear_key) == record
    assert store.keys.authenticate(clear_key + "x") is None
    assert store.keys.authenticate("not-a-key") is None
    assert store.keys.authenticate("") is None

    assert store.keys.revoke(tenant_id, record.id) is True
    assert store.keys.authenticate(clear_key) is None
    assert store.keys.revoke(tenant_id, record.id) is False
    assert store.keys.revoke(tenant_id, "no-such-key") is False


def test_each_key_is_distinct_and_a_second_key_creates_no_second_tenant(
    store: Store, tenant_id: str
) -> None:
    agent, agent_key = store.keys.create(tenant_id, Role.AGENT)
    admin, admin_key = store.keys.create(tenant_id, Role.ADMIN)
    assert agent_key != admin_key and agent.id != admin.id
    assert store.keys.authenticate(agent_key) == agent
    assert store.keys.authenticate(admin_key) == admin
