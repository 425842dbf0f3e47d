"""No plaintext at rest, ciphertexts bound to their rows, and erasure by key destruction."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from memory_service.adapters.crypto import DecryptionError, Keyring
from memory_service.adapters.tables import SQLModel
from memory_service.core.model import SubjectState
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-secret-1"


@pytest.fixture
def marker() -> str:
    return f"zebracrossing{secrets.token_hex(8)}"


def _write_everything(store: Store, tenant_id: str, marker: str) -> str:
    now = store.clock.now()
    session = make_session(tenant_id, SUBJECT, now)
    memory = make_memory(
        tenant_id,
        SUBJECT,
        now,
        session_id=session.id,
        text=f"Keeps a {marker} in the garden.",
        keywords=(marker, "garden"),
    )
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        uow.memories.add(memory)
        uow.subjects.put_state(SubjectState(tenant_id, SUBJECT, {"pet": marker}, now))
        uow.commit()
    return memory.id


def test_the_sqlite_file_holds_no_plaintext(
    sqlite_url: str,
    tmp_path: Path,
    keyring: Keyring,
    clock: FixedClock,
    tenant_id: str,
    marker: str,
) -> None:
    with sql_store(sqlite_url, keyring, clock) as store:
        memory_id = _write_everything(store, tenant_id, marker)
        with store.uow_factory(tenant_id) as uow:  # the text is really there, encrypted
            stored = uow.memories.get(memory_id)
            assert stored is not None and marker in stored.text
    files = list(tmp_path.glob("store.db*"))
    assert files
    needles = [marker.encode(), marker.encode("utf-16-le"), marker.upper().encode()]
    for path in files:
        content = path.read_bytes()
        assert not any(needle in content for needle in needles), path.name


@pytest.mark.postgres
def test_no_postgresql_column_holds_plaintext(
    pg_url: str, keyring: Keyring, clock: FixedClock, tenant_id: str, marker: str
) -> None:
    with sql_store(pg_url, keyring, clock) as store:
        _write_everything(store, tenant_id, marker)
        assert store.engine is not None
        values_seen = 0
        with store.engine.connect() as connection:
            for table in SQLModel.metadata.sorted_tables:
                for row in connection.execute(text(f'SELECT * FROM "{table.name}"')):
                    for value in row:
                        values_seen += 1
                        raw = bytes(value) if isinstance(value, bytes | memoryview) else None
                        assert marker not in str(value)
                        assert raw is None or marker.encode() not in raw
        assert values_seen > 0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def test_destroying_the_wrapped_key_leaves_nothing_readable(
    sql: Store, keyring: Keyring, tenant_id: str, marker: str
) -> None:
    memory_id = _write_everything(sql, tenant_id, marker)
    assert sql.engine is not None
    with sql.engine.begin() as connection:
        wrapped = connection.execute(
            text("SELECT data_key_id FROM subjects WHERE tenant_id = :t"), {"t": tenant_id}
        ).scalar_one()
        sealed = connection.execute(
            text("SELECT ciphertext FROM memories WHERE id = :m"), {"m": memory_id}
        ).scalar_one()
    # The key store destroys the key; the memory database still names it.
    keyring.store.destroy_keys(tenant_id, SUBJECT, at=sql.clock.now())
    keyring.forget(tenant_id, SUBJECT)

    with sql.uow_factory(tenant_id) as uow:
        assert uow.memories.get(memory_id) is None
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert (
            uow.memories.find_active_duplicate(SUBJECT, f"Keeps a {marker} in the garden.") is None
        )
        assert uow.subjects.get_state(SUBJECT) is None

    # The ciphertext is still in the database, but no other key opens it.
    assert wrapped is not None
    stranger = keyring.cipher(tenant_id, SUBJECT, keyring.new_wrapped_key(tenant_id, SUBJECT))
    with pytest.raises(DecryptionError):
        stranger.decrypt(bytes(sealed), kind="memory", row_id=memory_id)


def test_a_ciphertext_moved_to_another_row_does_not_open(
    sql: Store, tenant_id: str, marker: str
) -> None:
    first_id = _write_everything(sql, tenant_id, marker)
    other = make_memory(tenant_id, SUBJECT, sql.clock.now(), text="Plain other fact.")
    with sql.uow_factory(tenant_id) as uow:
        uow.memories.add(other)
        uow.commit()
    assert sql.engine is not None
    with sql.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE memories SET ciphertext = "
                "(SELECT ciphertext FROM memories WHERE id = :src) WHERE id = :dst"
            ),
            {"src": first_id, "dst": other.id},
        )
    with sql.uow_factory(tenant_id) as uow, pytest.raises(DecryptionError):
        uow.memories.get(other.id)
