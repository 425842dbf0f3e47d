"""Attributes and vectors at rest, and the nearest-neighbour search, on SQLite and PostgreSQL.

The attribute travels in the memory's ciphertext; an active global memory's vector is
sealed in ``vector_ciphertext`` with the subject's key and found again by meaning.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.sql.terms import reindex_subjects
from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.adapters.tables import MemoryRow
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.model import Attribute, Cardinality, Memory, MemoryScope, MemoryStatus
from tests.integration.conftest import Store
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock

SUBJECT = "cust-001"
OTHER = "cust-002"
CITY = Attribute("home_city", Cardinality.SINGLE)


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder.load()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(
    request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock, embedder: WordLlamaEmbedder
) -> Iterator[Store]:
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    engine = create_engine_for(request.getfixturevalue(url_fixture))
    try:
        factory = SqlUnitOfWorkFactory(engine, keyring, clock, embedder)
        yield Store(factory, SqlKeyStore(engine, clock), engine, clock)
    finally:
        engine.dispose()


def _add(store: Store, tenant_id: str, *memories: Memory) -> None:
    with store.uow_factory(tenant_id) as uow:
        for memory in memories:
            uow.memories.add(memory)
        uow.commit()


def _row(store: Store, memory_id: str) -> MemoryRow:
    assert store.engine is not None
    with Session(store.engine) as db:
        row = db.scalars(select(MemoryRow).where(MemoryRow.id == memory_id)).one()
        db.expunge(row)
        return row


def _nearest(
    store: Store, tenant_id: str, embedder: WordLlamaEmbedder, text: str, limit: int = 1
) -> list[str]:
    with store.uow_factory(tenant_id) as uow:
        found = uow.memories.find_nearest_globals(
            SUBJECT, embedder.embed([text]), purposes=["general"], limit=limit
        )
    return [m.text for m in found]


def test_the_attribute_is_sealed_with_the_text_and_read_back(store: Store, tenant_id: str) -> None:
    memory = make_memory(
        tenant_id, SUBJECT, store.clock.now(), text="Lives in Paris.", attribute=CITY
    )
    _add(store, tenant_id, memory)

    with store.uow_factory(tenant_id) as uow:
        loaded = uow.memories.get(memory.id)

    assert loaded is not None and loaded.attribute == CITY
    row = _row(store, memory.id)
    assert b"home_city" not in row.ciphertext
    assert "home_city" not in repr(row.provenance)


def test_active_globals_get_a_sealed_vector_and_lose_it_when_superseded(
    store: Store, tenant_id: str
) -> None:
    at = store.clock.now()
    global_ = make_memory(tenant_id, SUBJECT, at, text="Prefers aisle seats.")
    note = make_memory(
        tenant_id, SUBJECT, at, text="Likes tea.", scope=MemoryScope.SESSION, session_id=None
    )
    _add(store, tenant_id, global_, note)

    sealed = _row(store, global_.id).vector_ciphertext
    assert sealed is not None and b"wordllama" not in sealed
    assert _row(store, note.id).vector_ciphertext is None
    with store.uow_factory(tenant_id) as uow:
        uow.memories.save(global_.supersede(by=note.id, at=at))
        uow.commit()
    assert _row(store, global_.id).vector_ciphertext is None


def test_the_nearest_memory_by_meaning_is_found_without_a_shared_word(
    store: Store, tenant_id: str, embedder: WordLlamaEmbedder
) -> None:
    at = store.clock.now()
    texts = [
        "Prefers aisle seats.",
        "Is allergic to penicillin.",
        "Works as a software engineer.",
        "Plays tennis on Sundays.",
        "Drinks green tea.",
    ]
    _add(store, tenant_id, *(make_memory(tenant_id, SUBJECT, at, text=t) for t in texts))
    _add(store, tenant_id, make_memory(tenant_id, OTHER, at, text="Likes sitting on the aisle."))

    assert _nearest(store, tenant_id, embedder, "Likes sitting on the aisle.") == [texts[0]]
    assert len(_nearest(store, tenant_id, embedder, "Likes tennis.", limit=10)) == len(texts)


def test_erasure_leaves_nothing_to_search(
    store: Store, tenant_id: str, embedder: WordLlamaEmbedder
) -> None:
    _add(store, tenant_id, make_memory(tenant_id, SUBJECT, store.clock.now(), text="Drinks tea."))
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()

    assert _nearest(store, tenant_id, embedder, "Drinks tea.") == []


def test_a_store_without_an_embedder_files_no_vector(
    shared_sqlite_url: str, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    engine = create_engine_for(shared_sqlite_url)
    try:
        store = Store(
            SqlUnitOfWorkFactory(engine, keyring, clock), SqlKeyStore(engine, clock), engine, clock
        )
        memory = make_memory(tenant_id, SUBJECT, clock.now(), text="Drinks tea.")
        _add(store, tenant_id, memory)
        assert _row(store, memory.id).vector_ciphertext is None
        assert memory.status is MemoryStatus.ACTIVE
    finally:
        engine.dispose()


def test_reindex_seals_the_vectors_of_globals_written_without_them(
    shared_sqlite_url: str,
    keyring: Keyring,
    clock: FixedClock,
    tenant_id: str,
    embedder: WordLlamaEmbedder,
) -> None:
    engine = create_engine_for(shared_sqlite_url)
    try:
        plain = Store(
            SqlUnitOfWorkFactory(engine, keyring, clock), SqlKeyStore(engine, clock), engine, clock
        )
        memory = make_memory(tenant_id, SUBJECT, clock.now(), text="Prefers aisle seats.")
        _add(plain, tenant_id, memory)

        reindex_subjects(engine, keyring, tenant_id=tenant_id, embedder=embedder)

        searching = Store(
            SqlUnitOfWorkFactory(engine, keyring, clock, embedder), plain.keys, engine, clock
        )
        assert _nearest(searching, tenant_id, embedder, "Likes the aisle.") == [memory.text]
    finally:
        engine.dispose()


def test_a_later_search_sees_what_was_written_since_the_last_one(
    store: Store, tenant_id: str, embedder: WordLlamaEmbedder
) -> None:
    aisle = make_memory(tenant_id, SUBJECT, store.clock.now(), text="Prefers aisle seats.")
    _add(store, tenant_id, aisle)
    assert _nearest(store, tenant_id, embedder, "Likes sitting on the aisle.") == [aisle.text]

    tea = make_memory(tenant_id, SUBJECT, store.clock.advance(minutes=1), text="Drinks green tea.")
    _add(store, tenant_id, tea)
    assert _nearest(store, tenant_id, embedder, "Enjoys a cup of green tea.") == [tea.text]

    reworded = replace(
        aisle, text="Wants a cup of green tea.", updated_at=store.clock.advance(minutes=1)
    )
    with store.uow_factory(tenant_id) as uow:
        uow.memories.get(aisle.id)
        uow.memories.save(reworded)
        uow.commit()
    assert set(_nearest(store, tenant_id, embedder, "Enjoys a cup of green tea.", limit=2)) == {
        tea.text,
        reworded.text,
    }
