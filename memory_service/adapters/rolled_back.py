"""Units of work that all run in one transaction, rolled back at the end: for the warm-up.

A process's first request or task compiles each SQL statement once (SQLAlchemy's compiled
cache, per engine) and runs it for the first time on a new database connection (whose
backend loads the tables' catalog entries on first use). :func:`rolled_back_units_of_work`
lets the real service code run once on the process's own engine and first pooled
connection before anything is served, and keeps nothing:

- one connection, one transaction (on SQLite ``BEGIN IMMEDIATE``, so the engine's
  read-then-write upgrade never ends it), rolled back when the block exits, whatever
  happened;
- each unit of work is a savepoint in it (``join_transaction_mode="create_savepoint"``)
  begun at once, so no code path takes its statement to a connection of its own in
  autocommit (those check ``in_transaction()``); its ``commit`` releases the savepoint,
  and its after-commit jobs (a task sent to the broker, a cache purge) are dropped;
- short lock and statement timeouts (PostgreSQL ``SET LOCAL``, gone with the rollback;
  SQLite's busy timeout on that connection, restored after), so a warm-up never waits
  long on a lock a real transaction holds. On SQLite the warm-up holds the one write lock
  throughout (a few hundred milliseconds): a second process warming at the same time waits
  for it (the busy timeout, 3 s, is longer than a warm-up), as would a real write.

What it cannot reach: a statement that runs on a connection of its own (the autocommit
session open, the key store, the tenant policy read) runs there as in real traffic, so only
what is a read may be used that way (the caller gives the units of work a keyring of its
own, in memory). psycopg's server-side prepared statements do not survive the rollback
(psycopg deallocates them on every ``ROLLBACK``); the compiled cache and the backend's
catalog caches do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import SQLITE_BUSY_TIMEOUT_SECONDS
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.unit_of_work import SqlUnitOfWork
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.ports import Clock

# The SQLite engine's own flag (adapters/database.py): the next BEGIN is BEGIN IMMEDIATE.
_BEGIN_IMMEDIATE_NEXT = "memory_service.sqlite_begin_immediate_next"


class RolledBackUnitOfWork(SqlUnitOfWork):
    """A :class:`SqlUnitOfWork` as a savepoint of the warm-up's one transaction."""

    def __init__(
        self,
        connection: Connection,
        keyring: Keyring,
        clock: Clock,
        tenant_id: str,
        embedder: Embedder | None,
    ) -> None:
        super().__init__(connection.engine, keyring, clock, tenant_id, embedder)
        self._connection = connection

    def __enter__(self) -> RolledBackUnitOfWork:
        self._session = Session(bind=self._connection, join_transaction_mode="create_savepoint")
        self._session.begin()  # in a transaction from the start: nothing goes autocommit
        self._keys = SubjectKeys(self._session, self.tenant_id, self._keyring)
        self.subject_keys = self._keys
        return self

    def commit(self) -> None:
        if "_pending" in self.__dict__:
            self._pending.send(at_commit=True)
        self._session.commit()  # releases the savepoint; the outer transaction stays
        self._jobs = []

    def after_commit(self, job: Callable[[], None]) -> None:
        """Dropped: nothing is committed, so nothing may follow a commit."""


class RolledBackUnitsOfWork:
    """``factory(tenant_id)``: a :class:`RolledBackUnitOfWork` on the warm-up's connection."""

    def __init__(
        self, connection: Connection, keyring: Keyring, clock: Clock, embedder: Embedder | None
    ) -> None:
        self._connection = connection
        self._keyring = keyring
        self._clock = clock
        self.embedder = embedder

    def __call__(self, tenant_id: str) -> RolledBackUnitOfWork:
        return RolledBackUnitOfWork(
            self._connection, self._keyring, self._clock, tenant_id, self.embedder
        )


@contextmanager
def rolled_back_units_of_work(
    engine: Engine,
    keyring: Keyring,
    clock: Clock,
    embedder: Embedder | None,
    *,
    lock_timeout_ms: int = 1000,
    statement_timeout_ms: int = 2000,
    sqlite_busy_timeout_ms: int = 3000,
) -> Iterator[RolledBackUnitsOfWork]:
    """Units of work in one transaction on one of ``engine``'s pooled connections, rolled
    back when the block exits (see the module's docstring)."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        driver = connection.connection.driver_connection
        if sqlite:
            assert driver is not None
            driver.execute(f"PRAGMA busy_timeout = {int(sqlite_busy_timeout_ms)}")
            connection.info[_BEGIN_IMMEDIATE_NEXT] = True
        try:
            transaction = connection.begin()
            try:
                if not sqlite:
                    connection.exec_driver_sql(f"SET LOCAL lock_timeout = {int(lock_timeout_ms)}")
                    connection.exec_driver_sql(
                        f"SET LOCAL statement_timeout = {int(statement_timeout_ms)}"
                    )
                yield RolledBackUnitsOfWork(connection, keyring, clock, embedder)
            finally:
                transaction.rollback()
        finally:
            if sqlite and driver is not None:
                with suppress(Exception):
                    driver.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
