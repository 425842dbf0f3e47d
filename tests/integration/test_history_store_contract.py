"""Turns, trim marks, context manifests and the source filter behave alike on fake, SQLite
and PostgreSQL; on SQL the turns are ciphertext at rest."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from memory_service.adapters.tables import SessionTurnRow
from memory_service.core.clock import new_id
from memory_service.core.history import HistoryMarks
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import MemoryScope, MemoryStatus, Source
from memory_service.core.trimming import Turn
from tests.integration.conftest import Store
from tests.integration.records import make_memory, make_session

SUBJECT = "subject-1"


def _open(store: Store, tenant_id: str):  # type: ignore[no-untyped-def]
    session = make_session(tenant_id, SUBJECT, store.clock.now())
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.commit()
    return session


def test_turns_are_put_listed_replaced_and_deleted(store: Store, tenant_id: str) -> None:
    session = _open(store, tenant_id)
    now = store.clock.now()
    with store.uow_factory(tenant_id) as uow:
        for index in (2, 1, 3):
            uow.turns.put(session, Turn(index, "user", f'[{{"n": {index}}}]', now))
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        uow.turns.put(session, Turn(2, "user", '[{"n": 22}]', now + timedelta(minutes=5)))
        uow.turns.delete(session, [1])
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        turns = uow.turns.list(session)
    assert [(t.index, t.content) for t in turns] == [(2, '[{"n": 22}]'), (3, '[{"n": 3}]')]
    assert turns[0].created_at == now  # replacing a turn keeps when it began


def test_the_latest_turn_index_is_read_without_content(store: Store, tenant_id: str) -> None:
    session = _open(store, tenant_id)
    with store.uow_factory(tenant_id) as uow:
        assert uow.turns.latest_index(session) is None
        for index in (2, 5, 3):
            uow.turns.put(session, Turn(index, "user", "[]", store.clock.now()))
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.turns.latest_index(session) == 5
        uow.turns.delete(session, [5])
        assert uow.turns.latest_index(session) == 3


def test_turns_are_not_kept_without_commit(store: Store, tenant_id: str) -> None:
    session = _open(store, tenant_id)
    with store.uow_factory(tenant_id) as uow:
        uow.turns.put(session, Turn(1, "user", "[]", store.clock.now()))
        uow.turns.save_marks(session, HistoryMarks(5, frozenset({"m-1"})))
    with store.uow_factory(tenant_id) as uow:
        assert uow.turns.list(session) == []
        assert uow.turns.marks(session) == HistoryMarks()


def test_marks_round_trip(store: Store, tenant_id: str) -> None:
    session = _open(store, tenant_id)
    marks = HistoryMarks(7, frozenset({"m-2", "m-1"}))
    with store.uow_factory(tenant_id) as uow:
        uow.turns.save_marks(session, marks)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.turns.marks(session) == marks
        uow.turns.save_marks(session, HistoryMarks(9, marks.reinjected | {"m-3"}))
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.turns.marks(session) == HistoryMarks(9, frozenset({"m-1", "m-2", "m-3"}))


def test_another_tenant_cannot_use_a_session_record(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    session = _open(store, tenant_id)
    with store.uow_factory(other_tenant_id) as uow, pytest.raises(ValueError):
        uow.turns.list(session)


def test_manifests_are_stored_read_and_purged_once_expired(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    now = store.clock.now()

    def manifest(expires_in: timedelta) -> StoredManifest:
        return StoredManifest(
            new_id(), tenant_id, SUBJECT, None, now, now + expires_in, {"items": [{"id": "x"}]}
        )

    old, fresh = manifest(timedelta(days=-1)), manifest(timedelta(days=1))
    with store.uow_factory(tenant_id) as uow:
        uow.manifests.add(old)
        uow.manifests.add(fresh)
        uow.commit()
    with store.uow_factory(other_tenant_id) as uow:
        assert uow.manifests.get(fresh.id) is None
        assert uow.manifests.purge_expired(now) == 0
    with store.uow_factory(tenant_id) as uow:
        assert uow.manifests.get(fresh.id) == fresh
        assert uow.manifests.purge_expired(now) == 1
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.manifests.get(old.id) is None
        assert uow.manifests.get(fresh.id) == fresh


def test_list_for_subject_filters_by_source(store: Store, tenant_id: str) -> None:
    now = store.clock.now()
    stated = make_memory(tenant_id, SUBJECT, now)
    inferred = make_memory(tenant_id, SUBJECT, now, source=Source.MODEL_INFERRED)
    with store.uow_factory(tenant_id) as uow:
        uow.memories.add(stated)
        uow.memories.add(inferred)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        found = uow.memories.list_for_subject(
            SUBJECT,
            scope=MemoryScope.GLOBAL,
            statuses=(MemoryStatus.ACTIVE,),
            sources={Source.MODEL_INFERRED},
        )
    assert [memory.id for memory in found] == [inferred.id]


def test_turn_content_is_ciphertext_at_rest(sql_backed_store: Store, tenant_id: str) -> None:
    store = sql_backed_store
    session = _open(store, tenant_id)
    with store.uow_factory(tenant_id) as uow:
        uow.turns.put(session, Turn(1, "user", '[{"content": "MARKER-aisle"}]', store.clock.now()))
        uow.commit()
    with store.engine.connect() as connection:
        row = connection.execute(
            select(SessionTurnRow.content_ciphertext).where(  # type: ignore[call-overload]
                SessionTurnRow.session_id == session.id
            )
        ).one()
    assert b"MARKER" not in row[0]
