"""A subject's first session is one statement on PostgreSQL (``SqlSessionRepository.add``):
its data key is made before the statement, stored in the key store only if the statement
took it, and before the data commits. On both databases:

- a returning subject's sessions store no key (the one made for each is dropped);
- a key store that fails leaves no session and no keyed subject behind (nothing committed
  names a key the store lacks);
- an erased subject's next first session gets a fresh key, which the store holds.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.keystore import MemoryDataKeyStore
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-first-1"


class FailingKeyStore(MemoryDataKeyStore):
    def add_key(self, tenant_id: str, subject_id: str, key_id: str, wrapped: bytes) -> None:
        raise OSError("key store down")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest) -> str:
    fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    found: str = request.getfixturevalue(fixture)
    return found


@pytest.fixture
def sql(url: str, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    with sql_store(url, keyring, clock) as backend:
        yield backend


def _open(store: Store, tenant_id: str, subject_id: str) -> str:
    session = make_session(tenant_id, subject_id, store.clock.now())
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.commit()
    return session.id


def _keys_held(keyring: Keyring, tenant_id: str, subject_id: str, store: Store) -> int:
    """How many keys the key store holds for the subject (destroyed to count them)."""
    return keyring.store.destroy_keys(tenant_id, subject_id, at=store.clock.now())


def test_a_returning_subjects_sessions_store_no_key(
    sql: Store, keyring: Keyring, tenant_id: str
) -> None:
    first = _open(sql, tenant_id, SUBJECT)
    later = [_open(sql, tenant_id, SUBJECT) for _ in range(3)]

    with sql.uow_factory(tenant_id) as uow:
        assert {s.id for s in uow.sessions.list_for_subject(SUBJECT)} == {first, *later}
        assert uow.subjects.lock_if_present(SUBJECT) is True
    assert _keys_held(keyring, tenant_id, SUBJECT, sql) == 1


def test_a_failing_key_store_leaves_no_session_nor_keyed_subject(
    url: str, master_key: bytes, clock: FixedClock, tenant_id: str
) -> None:
    failing = Keyring(master_key, FailingKeyStore())
    session = make_session(tenant_id, SUBJECT, clock.now())
    with sql_store(url, failing, clock) as store:
        with pytest.raises(OSError), store.uow_factory(tenant_id) as uow:
            uow.sessions.add(session)
            uow.commit()
        with store.uow_factory(tenant_id) as uow:
            assert uow.sessions.get(session.id) is None
            assert uow.subjects.lock_if_present(SUBJECT) is False


def test_an_erased_subject_starts_over_with_a_stored_fresh_key(
    sql: Store, keyring: Keyring, tenant_id: str
) -> None:
    _open(sql, tenant_id, SUBJECT)
    with sql.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()
    assert _keys_held(keyring, tenant_id, SUBJECT, sql) == 0  # destroyed by the erasure

    again = _open(sql, tenant_id, SUBJECT)

    with sql.uow_factory(tenant_id) as uow:
        assert [s.id for s in uow.sessions.list_for_subject(SUBJECT)] == [again]
        assert uow.subjects.lock_if_present(SUBJECT) is True
    assert _keys_held(keyring, tenant_id, SUBJECT, sql) == 1
