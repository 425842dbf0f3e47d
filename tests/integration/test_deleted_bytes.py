"""A deleted memory's ciphertext leaves the live files: SQLite's file and WAL, PostgreSQL's
heap. The subject's key still exists after a delete, so an old copy of the row would open."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.subject_cache import NoSubjectCache
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services import admin
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock
from tests.support.notes import NoLibraryIdentifiers

SUBJECT = "cust-deletes-1"
VACUUM_ATTEMPTS = 20


class NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    url_fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    with sql_store(request.getfixturevalue(url_fixture), keyring, clock) as backend:
        yield backend


def _live_files(engine: Engine) -> list[Path]:
    """The files that hold the memories table now: SQLite's file and WAL, PostgreSQL's heap."""
    if engine.dialect.name == "sqlite":
        database = Path(str(engine.url.database))
        return [p for p in database.parent.iterdir() if p.name.startswith(database.name)]
    with engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("CHECKPOINT")
        directory, relative = connection.execute(
            text("SELECT current_setting('data_directory'), pg_relation_filepath('memories')")
        ).one()
    return [Path(directory) / relative]


def _held_anywhere(engine: Engine, sealed: bytes) -> bool:
    return any(sealed in path.read_bytes() for path in _live_files(engine))


def test_a_deleted_memory_leaves_no_ciphertext_in_the_live_files(
    sql: Store, tenant_id: str
) -> None:
    assert sql.engine is not None
    now = sql.clock.now()
    kept = [make_memory(tenant_id, SUBJECT, now, text=f"Keeps fact {i}.") for i in range(20)]
    doomed = make_memory(tenant_id, SUBJECT, now, text="Was told something to forget.")
    with sql.uow_factory(tenant_id) as uow:
        for memory in [*kept[:10], doomed, *kept[10:]]:
            uow.memories.add(memory)
        uow.commit()
    with sql.engine.connect() as connection:
        sealed = bytes(
            connection.execute(
                text("SELECT ciphertext FROM memories WHERE id = :m"), {"m": doomed.id}
            ).scalar_one()
        )
    assert _held_anywhere(sql.engine, sealed)  # the search does read where the row lives

    deps = admin.AdminDeps(
        identifiers=NoLibraryIdentifiers(),
        uow_factory=sql.uow_factory,
        clock=sql.clock,
        pii=NoPii(),
        cache=NoSubjectCache(),
    )
    admin.delete_memory(TenantScope(tenant_id, Role.ADMIN, "key:admin"), doomed.id, deps=deps)

    # On PostgreSQL another test's transaction on the shared server can hold VACUUM back.
    for _ in range(VACUUM_ATTEMPTS):
        if not _held_anywhere(sql.engine, sealed):
            break
        time.sleep(0.5)
        with sql.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM memories"
            )
    assert not _held_anywhere(sql.engine, sealed)
