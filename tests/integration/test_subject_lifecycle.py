"""An erased subject stays erased: locks and late writes never give it a key again.

A subject id that was erased may start a NEW lifecycle, but only through a write that
starts one: opening a session, putting the state, or adding a memory of no session. That
write gets a fresh random data key; the old key is gone, so ciphertexts of the old
lifecycle left in backups, WAL or replicas never open again. A lock, a session note or a
turn hangs off data the erasure removed: for an erased subject they are refused
(``NotFound``) and change nothing.

The subject lock also reads the subject afresh: whatever the unit of work loaded before
the lock (the row, its unwrapped key) is replaced by what is committed once it is held.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import Engine, text

from memory_service.adapters.crypto import DecryptionError, Keyring
from memory_service.adapters.sql.convert import MEMORY_KIND
from memory_service.core.errors import NotFound
from memory_service.core.model import MemoryScope, SubjectState
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-gone-1"


def _erase(store: Store, tenant_id: str, subject_id: str = SUBJECT) -> None:
    with store.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(subject_id)
        uow.commit()


def _seed(store: Store, tenant_id: str) -> str:
    """A session, a note of it and a state; returns the note's id."""
    now = store.clock.now()
    session = make_session(tenant_id, SUBJECT, now)
    note = make_memory(tenant_id, SUBJECT, now, scope=MemoryScope.SESSION, session_id=session.id)
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.memories.add(note)
        uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"plan": "pro"}, now))
        uow.commit()
    return note.id


def _wrapped_key(engine: Engine, tenant_id: str) -> str | None:
    """The id of the subject's key (the wrapped key itself lives in the key store)."""
    with engine.connect() as connection:
        value = connection.execute(
            text("SELECT data_key_id FROM subjects WHERE tenant_id = :t AND subject_id = :s"),
            {"t": tenant_id, "s": SUBJECT},
        ).scalar_one()
    return str(value) if value is not None else None


def test_locking_an_erased_subject_is_refused_and_brings_nothing_back(
    store: Store, tenant_id: str
) -> None:
    _seed(store, tenant_id)
    _erase(store, tenant_id)

    with store.uow_factory(tenant_id) as uow, pytest.raises(NotFound):
        uow.subjects.lock(SUBJECT)
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(SUBJECT) is False
        assert uow.subjects.get_state(SUBJECT) is None
    if store.engine is not None:
        assert _wrapped_key(store.engine, tenant_id) is None


def test_a_late_session_note_for_an_erased_subject_is_refused(store: Store, tenant_id: str) -> None:
    _seed(store, tenant_id)
    now = store.clock.now()
    late = make_memory(
        tenant_id, SUBJECT, now, scope=MemoryScope.SESSION, session_id="erased-session"
    )
    _erase(store, tenant_id)

    with store.uow_factory(tenant_id) as uow, pytest.raises(NotFound):
        uow.memories.add(late)
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(SUBJECT) is False
        assert uow.memories.get(late.id) is None


def test_locking_a_new_subject_creates_it(store: Store, tenant_id: str) -> None:
    with store.uow_factory(tenant_id) as uow:
        uow.subjects.lock(SUBJECT)
        uow.commit()
    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(SUBJECT) is True


@pytest.mark.parametrize("first_write", ["session", "state", "global memory"])
def test_an_erased_subject_starts_over_only_with_a_fresh_key(
    store: Store, tenant_id: str, first_write: str
) -> None:
    _seed(store, tenant_id)
    _erase(store, tenant_id)
    now = store.clock.now() + timedelta(minutes=1)
    fresh = make_memory(tenant_id, SUBJECT, now, text="Prefers tea.")

    with store.uow_factory(tenant_id) as uow:
        if first_write == "session":
            uow.sessions.add(make_session(tenant_id, SUBJECT, now))
        elif first_write == "state":
            uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"plan": "free"}, now))
        uow.memories.add(fresh)
        uow.commit()

    with store.uow_factory(tenant_id) as uow:
        assert uow.subjects.lock_if_present(SUBJECT) is True
        assert uow.memories.list_for_subject(SUBJECT) == [fresh]
        state = uow.subjects.get_state(SUBJECT)
        assert state is None or state.state == {"plan": "free"}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "shared_sqlite_url" if request.param == "sqlite" else "shared_pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def test_the_old_ciphertexts_never_open_with_the_new_lifecycles_key(
    sql: Store, keyring: Keyring, tenant_id: str
) -> None:
    assert sql.engine is not None
    note_id = _seed(sql, tenant_id)
    old_key = _wrapped_key(sql.engine, tenant_id)
    with sql.engine.connect() as connection:
        sealed = connection.execute(
            text("SELECT ciphertext FROM memories WHERE id = :m"), {"m": note_id}
        ).scalar_one()
    _erase(sql, tenant_id)

    with sql.uow_factory(tenant_id) as uow:
        uow.sessions.add(make_session(tenant_id, SUBJECT, sql.clock.now()))
        uow.commit()

    new_key = _wrapped_key(sql.engine, tenant_id)
    assert old_key is not None and new_key is not None and new_key != old_key
    assert keyring.cipher_for(tenant_id, SUBJECT, old_key) is None  # destroyed
    cipher = keyring.cipher_for(tenant_id, SUBJECT, new_key)
    assert cipher is not None
    with pytest.raises(DecryptionError):
        cipher.decrypt(bytes(sealed), kind=MEMORY_KIND, row_id=note_id)


def test_the_lock_reads_the_subject_afresh(sql: Store, tenant_id: str) -> None:
    now = sql.clock.now()
    with sql.uow_factory(tenant_id) as uow:
        uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"count": 1}, now))
        uow.commit()

    with sql.uow_factory(tenant_id) as first:
        loaded = first.subjects.get_state(SUBJECT)  # loads the row before the lock
        assert loaded is not None and loaded.state == {"count": 1}
        with sql.uow_factory(tenant_id) as second:
            second.subjects.lock(SUBJECT)
            second.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"count": 2}, now))
            second.commit()
        first.subjects.lock(SUBJECT)
        current = first.subjects.get_state(SUBJECT)
        assert current is not None and current.state == {"count": 2}


def test_the_lock_drops_a_key_unwrapped_before_it(
    sql: Store, keyring: Keyring, tenant_id: str
) -> None:
    """Erased and started over in between: the old key must not seal the new data."""
    assert sql.engine is not None
    _seed(sql, tenant_id)
    now = sql.clock.now()
    late = make_memory(tenant_id, SUBJECT, now, text="Prefers window seats.")

    with sql.uow_factory(tenant_id) as first:
        assert first.subjects.get_state(SUBJECT) is not None  # unwraps the old key
        # What an erasure followed by a new lifecycle leaves: another key, no old state.
        # (Written directly: the erasure's WAL checkpoint would wait for ``first`` to end.)
        with sql.engine.begin() as connection:
            connection.execute(
                text(
                    "UPDATE subjects SET data_key_id = :k, state_ciphertext = NULL,"
                    " state_updated_at = NULL WHERE tenant_id = :t AND subject_id = :s"
                ),
                {"k": keyring.create_key(tenant_id, SUBJECT), "t": tenant_id, "s": SUBJECT},
            )
        with sql.uow_factory(tenant_id) as second:
            second.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"plan": "new"}, now))
            second.commit()
        first.subjects.lock(SUBJECT)
        current = first.subjects.get_state(SUBJECT)
        assert current is not None and current.state == {"plan": "new"}
        first.memories.add(late)
        first.commit()

    with sql.uow_factory(tenant_id) as uow:
        assert uow.memories.get(late.id) == late
