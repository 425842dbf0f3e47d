"""An erasure is final in a backup of the data taken before it, tested the way it was broken.

Write a subject's data, back the data up (a SQLite file copy; ``pg_dump`` restored into
another database), erase the subject, then try to decrypt every ciphertext of the backup
with everything the service still holds: the master key and every data key left in the key
store. Nothing opens. The backup holds no key of its own, and the key store's live files
no longer hold the erased subject's wrapped key. A restore of the backup followed by
``replay_erasures`` erases the subject again.
"""

from __future__ import annotations

import secrets
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from memory_service.adapters import migrate
from memory_service.adapters.crypto import DecryptionError, Keyring, SubjectCipher
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.adapters.sql.erasure import replay_erasures
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.adapters.subject_cache import NoSubjectCache
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.model import Role, SubjectState
from memory_service.core.scope import TenantScope
from memory_service.services import admin
from tests.integration.conftest import Store
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock
from tests.support.notes import NoLibraryIdentifiers
from tests.support.scratch_database import scratch_postgres_database

SUBJECT = "cust-backed-up-1"
SCRUB_ATTEMPTS = 20
NEIGHBOUR = "cust-stays-1"


class NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


@dataclass
class Deployment:
    data_url: str
    keystore: SqlDataKeyStore
    keyring: Keyring
    store: Store


@contextmanager
def _deployment(data_url: str, keystore_url: str, master_key: bytes) -> Iterator[Deployment]:
    clock = FixedClock()
    keystore = SqlDataKeyStore(create_engine_for(keystore_url))
    keyring = Keyring(master_key, keystore)
    keyring.check_master_key()
    engine = create_engine_for(data_url)
    try:
        store = Store(
            SqlUnitOfWorkFactory(engine, keyring, clock), SqlKeyStore(engine, clock), engine, clock
        )
        yield Deployment(data_url, keystore, keyring, store)
    finally:
        engine.dispose()
        keystore.engine.dispose()


def _fill(deployment: Deployment, tenant_id: str, marker: str) -> None:
    now = deployment.store.clock.now()
    with deployment.store.uow_factory(tenant_id) as uow:
        for subject in (SUBJECT, NEIGHBOUR):
            for index in range(3):
                uow.memories.add(
                    make_memory(tenant_id, subject, now, text=f"Owns {marker} number {index}.")
                )
            uow.subjects.put_state(SubjectState(tenant_id, subject, {"pet": marker}, now))
        uow.commit()


def _erase(deployment: Deployment, tenant_id: str) -> None:
    deps = admin.AdminDeps(
        identifiers=NoLibraryIdentifiers(),
        uow_factory=deployment.store.uow_factory,
        clock=deployment.store.clock,
        pii=NoPii(),
        cache=NoSubjectCache(),
    )
    admin.erase_subject(TenantScope(tenant_id, Role.ADMIN, "key:admin"), SUBJECT, deps=deps)


def _every_cipher_the_service_holds(deployment: Deployment) -> list[SubjectCipher]:
    """The master key over every data key left in the key store, for every subject."""
    with deployment.keystore.engine.connect() as connection:
        rows = connection.execute(
            text("SELECT tenant_id, subject_id, wrapped_key FROM data_keys")
        ).all()
    return [deployment.keyring.cipher(t, s, bytes(w)) for t, s, w in rows]


def _backed_up_ciphertexts(engine: Engine, tenant_id: str) -> list[tuple[str, bytes]]:
    with engine.connect() as connection:
        return [
            (row_id, bytes(sealed))
            for row_id, sealed in connection.execute(
                text(
                    "SELECT id, ciphertext FROM memories WHERE tenant_id = :t AND subject_id = :s"
                ),
                {"t": tenant_id, "s": SUBJECT},
            )
        ]


def _assert_nothing_opens(deployment: Deployment, backup: Engine, tenant_id: str) -> None:
    sealed = _backed_up_ciphertexts(backup, tenant_id)
    assert len(sealed) == 3  # the backup does hold the subject's ciphertexts
    ciphers = _every_cipher_the_service_holds(deployment)
    assert ciphers, "the key store still holds the neighbour's key"
    for row_id, ciphertext in sealed:
        for cipher in ciphers:
            with pytest.raises(DecryptionError):
                cipher.decrypt(ciphertext, kind="memory", row_id=row_id)
    # The backup names a key id, never a key; the key store no longer has that key.
    with backup.connect() as connection:
        columns = list(connection.execute(text("SELECT * FROM subjects")).keys())
        key_id = connection.execute(
            text("SELECT data_key_id FROM subjects WHERE tenant_id = :t AND subject_id = :s"),
            {"t": tenant_id, "s": SUBJECT},
        ).scalar_one()
    assert "wrapped_data_key" not in columns
    assert deployment.keyring.cipher_for(tenant_id, SUBJECT, key_id) is None
    # What the restored data looks like through the service: the subject is gone.
    restored = SqlUnitOfWorkFactory(backup, deployment.keyring, FixedClock())
    with restored(tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert uow.subjects.get_state(SUBJECT) is None
        assert len(uow.memories.list_for_subject(NEIGHBOUR)) == 3
    # The restore replays the key store's erasures: the restored rows go again.
    assert replay_erasures(restored, deployment.keyring) == 1
    assert _backed_up_ciphertexts(backup, tenant_id) == []
    assert replay_erasures(restored, deployment.keyring) == 0


def _wrapped_key(deployment: Deployment, tenant_id: str) -> bytes:
    with deployment.keystore.engine.connect() as connection:
        return bytes(
            connection.execute(
                text("SELECT wrapped_key FROM data_keys WHERE tenant_id = :t AND subject_id = :s"),
                {"t": tenant_id, "s": SUBJECT},
            ).scalar_one()
        )


def test_a_file_copy_taken_before_an_erasure_no_longer_decrypts(
    tmp_path: Path, master_key: bytes, tenant_id: str
) -> None:
    home = tmp_path / "home"
    data_url = f"sqlite:///{home / 'memory.db'}"
    migrate.upgrade(data_url)
    with _deployment(data_url, f"sqlite:///{home / 'keys.db'}", master_key) as deployment:
        _fill(deployment, tenant_id, f"zq{secrets.token_hex(4)}")
        wrapped = _wrapped_key(deployment, tenant_id)
        backup_path = tmp_path / "backup.db"
        with sqlite3.connect(home / "memory.db") as live, sqlite3.connect(backup_path) as copy:
            live.backup(copy)  # a consistent copy of the data file, as a backup tool takes

        _erase(deployment, tenant_id)

        # The erased key is in no live file of the data directory (keys.db, its WAL, ...).
        for path in home.iterdir():
            assert wrapped not in path.read_bytes(), path.name
        backup = create_engine_for(f"sqlite:///{backup_path}")
        try:
            _assert_nothing_opens(deployment, backup, tenant_id)
        finally:
            backup.dispose()


def _pg_heap_file(engine: Engine, table: str) -> Path:
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("CHECKPOINT")
        directory, relative = connection.execute(
            text("SELECT current_setting('data_directory'), pg_relation_filepath(:t)"),
            {"t": table},
        ).one()
    return Path(directory) / relative


@pytest.mark.postgres
def test_a_pg_dump_taken_before_an_erasure_no_longer_decrypts(
    postgres_url: str, master_key: bytes, tenant_id: str, tmp_path: Path
) -> None:
    with (
        scratch_postgres_database(postgres_url) as data_url,
        scratch_postgres_database(postgres_url, prefix="ms_keys") as keystore_url,
        scratch_postgres_database(postgres_url, prefix="ms_restored") as restored_url,
        _deployment(data_url, keystore_url, master_key) as deployment,
    ):
        _fill(deployment, tenant_id, f"zq{secrets.token_hex(4)}")
        wrapped = _wrapped_key(deployment, tenant_id)
        dump = tmp_path / "data.dump"
        libpq = make_url(data_url).set(drivername="postgresql").render_as_string(False)
        subprocess.run(["pg_dump", "-Fc", "-f", str(dump), libpq], check=True)

        _erase(deployment, tenant_id)

        # The key store's heap no longer holds the wrapped key (VACUUM FULL after the
        # erasure's commit). A transaction of another test on the shared server can hold it
        # back: scrub again, as the nightly task does, for a few seconds at most.
        for _ in range(SCRUB_ATTEMPTS):
            heap = _pg_heap_file(deployment.keystore.engine, "data_keys")
            if wrapped not in heap.read_bytes():
                break
            time.sleep(0.5)
            deployment.keystore.scrub()
        assert wrapped not in _pg_heap_file(deployment.keystore.engine, "data_keys").read_bytes()
        target = make_url(restored_url).set(drivername="postgresql").render_as_string(False)
        subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", target, str(dump)],
            check=True,
            capture_output=True,
        )
        backup = create_engine_for(restored_url)
        try:
            _assert_nothing_opens(deployment, backup, tenant_id)
        finally:
            backup.dispose()
