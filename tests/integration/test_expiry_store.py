"""Status changes never re-encrypt, and expiry is a bulk change of statuses.

``memories.save`` writes the ciphertext and fingerprint only when the text or keywords
changed, and reuses the row the unit of work already holds. ``memories.expire`` marks the
still-active, due memories among the given ids expired with one statement and returns what
it changed, for one bulk audit insert (``audit.append_all``); nothing is decrypted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import Engine, event, text

from memory_service.adapters.crypto import Keyring
from memory_service.core.model import MemoryScope, MemoryStatus
from memory_service.core.ports import ExpiredMemory
from memory_service.services import consolidation
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_event, make_memory
from tests.integration.test_consolidation_store import maintenance_of
from tests.support.fakes import FixedClock

SUBJECT = "cust-expiry-1"


def _stored(engine: Engine, memory_id: str) -> tuple[bytes, str]:
    with engine.connect() as connection:
        sealed, fingerprint = connection.execute(
            text("SELECT ciphertext, text_fingerprint FROM memories WHERE id = :m"),
            {"m": memory_id},
        ).one()
    return bytes(sealed), fingerprint


def _sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = f"{request.param}_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


SHARED = ["shared_sqlite", pytest.param("shared_pg", marks=pytest.mark.postgres)]
sql = pytest.fixture(params=SHARED)(_sql)
# The sweep reads across tenants: it gets a database of its own.
private_sql = pytest.fixture(params=["sqlite", pytest.param("pg", marks=pytest.mark.postgres)])(
    _sql
)


def test_a_status_change_keeps_the_ciphertext_and_issues_no_select(
    sql: Store, tenant_id: str
) -> None:
    assert sql.engine is not None
    memory = make_memory(tenant_id, SUBJECT, sql.clock.now())
    with sql.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.commit()
    before = _stored(sql.engine, memory.id)

    statements: list[str] = []

    def record(*args: object) -> None:
        statements.append(str(args[2]).lstrip().split()[0].upper())

    with sql.uow_factory(tenant_id) as uow:
        loaded = uow.memories.get(memory.id)
        assert loaded is not None
        event.listen(sql.engine, "before_cursor_execute", record)
        try:
            uow.memories.save(replace(loaded, status=MemoryStatus.EXPIRED))
        finally:
            event.remove(sql.engine, "before_cursor_execute", record)
        uow.commit()

    assert "SELECT" not in statements and "UPDATE" in statements
    assert _stored(sql.engine, memory.id) == before
    with sql.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == replace(memory, status=MemoryStatus.EXPIRED)


def test_a_text_or_keyword_change_is_sealed_again(sql: Store, tenant_id: str) -> None:
    assert sql.engine is not None
    memory = make_memory(tenant_id, SUBJECT, sql.clock.now(), keywords=("tea",))
    with sql.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.commit()
    before = _stored(sql.engine, memory.id)
    for changed in (
        replace(memory, keywords=("coffee",)),
        replace(memory, text="Prefers window seats.", keywords=("coffee",)),
    ):
        with sql.uow_factory(tenant_id) as uow:
            uow.memories.save(changed)
            uow.commit()
        with sql.uow_factory(tenant_id) as uow:
            assert uow.memories.get(memory.id) == changed
    after = _stored(sql.engine, memory.id)
    assert after[0] != before[0] and after[1] != before[1]


def test_a_save_without_a_get_writes_the_given_text(sql: Store, tenant_id: str) -> None:
    memory = make_memory(tenant_id, SUBJECT, sql.clock.now())
    changed = replace(memory, text="Prefers the night train.", status=MemoryStatus.EXPIRED)
    with sql.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.memories.save(changed)  # the row is in the session, its text is not the one given
        uow.commit()
    with sql.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory.id) == changed


def test_expire_changes_only_the_active_and_due_of_this_tenant(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    now = store.clock.now()
    past = now - timedelta(days=1)
    due = make_memory(
        tenant_id, SUBJECT, now, expires_at=past, scope=MemoryScope.SESSION, session_id="s-1"
    )
    exactly_now = make_memory(tenant_id, SUBJECT, now, expires_at=now)
    future = make_memory(tenant_id, SUBJECT, now, expires_at=now + timedelta(days=1))
    forever = make_memory(tenant_id, SUBJECT, now)
    deleted = make_memory(tenant_id, SUBJECT, now, expires_at=past, status=MemoryStatus.DELETED)
    foreign = make_memory(other_tenant_id, SUBJECT, now, expires_at=past)
    mine = [due, exactly_now, future, forever, deleted]
    with store.uow_factory(tenant_id) as uow:
        for memory in mine:
            uow.memories.add(memory)
        uow.commit()
    with store.uow_factory(other_tenant_id) as uow:
        uow.memories.add(foreign)
        uow.commit()

    with store.uow_factory(tenant_id) as uow:
        expired = uow.memories.expire([m.id for m in [*mine, foreign]], now=now)
        uow.commit()

    assert sorted(expired, key=lambda e: e.memory_id) == sorted(
        [
            ExpiredMemory(due.id, SUBJECT, "s-1", past),
            ExpiredMemory(exactly_now.id, SUBJECT, None, now),
        ],
        key=lambda e: e.memory_id,
    )
    with store.uow_factory(tenant_id) as uow:
        statuses = {m.id: m.status for m in uow.memories.list_for_subject(SUBJECT)}
        assert uow.memories.expire([due.id], now=now) == []  # a repeat changes nothing
    assert statuses == {
        due.id: MemoryStatus.EXPIRED,
        exactly_now.id: MemoryStatus.EXPIRED,
        future.id: MemoryStatus.ACTIVE,
        forever.id: MemoryStatus.ACTIVE,
        deleted.id: MemoryStatus.DELETED,
    }
    with store.uow_factory(other_tenant_id) as uow:
        assert uow.memories.get(foreign.id) == foreign


def test_append_all_keeps_the_order_and_the_tenant_check(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    now = store.clock.now()
    events = [make_event(tenant_id, SUBJECT, now, details={"n": n}) for n in range(3)]
    with store.uow_factory(tenant_id) as uow:
        uow.audit.append_all(events)
        uow.audit.append_all([])
        with pytest.raises(ValueError):
            uow.audit.append_all([make_event(other_tenant_id, SUBJECT, now)])
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.audit.list_for_subject(SUBJECT) == events


def test_the_expiry_sweep_never_decrypts(private_sql: Store, tenant_id: str) -> None:
    """A ciphertext that does not open any more is expired all the same."""
    sql = private_sql
    assert sql.engine is not None
    now = sql.clock.now()
    memory = make_memory(tenant_id, SUBJECT, now, expires_at=now - timedelta(hours=1))
    with sql.uow_factory(tenant_id) as uow:
        uow.memories.add(memory)
        uow.commit()
    with sql.engine.begin() as connection:
        connection.execute(
            text("UPDATE memories SET ciphertext = :junk WHERE id = :m"),
            {"junk": b"\x01" + bytes(40), "m": memory.id},
        )

    consolidation.expire_due_memories(
        maintenance=maintenance_of(sql), uow_factory=sql.uow_factory, clock=sql.clock
    )

    with sql.engine.connect() as connection:
        status = connection.execute(
            text("SELECT status FROM memories WHERE id = :m"), {"m": memory.id}
        ).scalar_one()
    assert status == MemoryStatus.EXPIRED.value
    with sql.uow_factory(tenant_id) as uow:
        events = [e for e in uow.audit.list_for_subject(SUBJECT) if e.kind == "memory.expired"]
    assert [(e.memory_id, e.details) for e in events] == [
        (memory.id, {"expires_at": (now - timedelta(hours=1)).isoformat()})
    ]
