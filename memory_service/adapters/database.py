"""Engines for the two supported databases, configured for many concurrent writers.

SQLite (the embedded default) gets foreign keys, WAL and a busy timeout. Its write lock is
taken only by transactions that write, at their first write (:func:`begin_writing`): reads
(the key lookup of every request, listings, the health check) run in a plain ``BEGIN`` and
WAL gives them a consistent snapshot without queuing behind writers.

A deferred SQLite transaction that has read cannot safely start writing: once another
writer has committed, its snapshot is stale and SQLite refuses the upgrade at once
(``SQLITE_BUSY``) without waiting on the busy timeout. So at the first write the read-only
transaction is ended (nothing was written) and ``BEGIN IMMEDIATE`` waits for the lock.
What was read before that point is then as old as a read under PostgreSQL's READ COMMITTED,
the isolation the repositories are written for: a read-modify-write that must not race
takes a lock first (``subjects.lock``) or makes its write conditional.

The first write is seen by statement type: ``INSERT``, ``UPDATE``, ``DELETE`` and DDL built
with SQLAlchemy. A write in hand-written SQL is not seen; as the first statement of a
transaction it still waits for the lock, after a read it may fail (call
:func:`begin_writing` first). PostgreSQL runs on psycopg 3; a pooled connection that sat idle
for more than :data:`PING_AFTER_IDLE_SECONDS` is pinged before it is handed out, so a
restarted server costs one retry, not an error. One used within that second is not: the ping
was a round trip on every request (SQLAlchemy's ``pool_pre_ping``), and a server that went
away in that second fails that one request (503), after which the pool reconnects.
"""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session
from sqlalchemy.sql.ddl import ExecutableDDLElement
from sqlalchemy.sql.dml import UpdateBase

SQLITE_BUSY_TIMEOUT_SECONDS = 30

# Per DBAPI connection, in ``Connection.info``: reset by every BEGIN.
_WRITING = "memory_service.sqlite_writing"
_CHANGES_AT_BEGIN = "memory_service.sqlite_changes_at_begin"
_BEGIN_IMMEDIATE_NEXT = "memory_service.sqlite_begin_immediate_next"


def normalize_database_url(url: str) -> str:
    """Accept the common PostgreSQL spellings and route them all to psycopg 3."""
    for prefix in ("postgresql+psycopg2://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_engine_for(url: str, *, prepared_statements: bool = True) -> Engine:
    """``prepared_statements=False`` stops psycopg 3 from preparing a statement on the server
    after its fifth run on a connection: behind PgBouncer in transaction mode (before 1.21,
    or without ``max_prepared_statements``) the next transaction may land on another server
    connection that never saw it (``MEMORY_SERVICE_PG_PREPARED_STATEMENTS=0``)."""
    url = normalize_database_url(url)
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    connect_args: dict[str, Any] = {} if prepared_statements else {"prepare_threshold": None}
    engine = create_engine(url, connect_args=connect_args)
    event.listen(engine, "connect", _note_idle_since)
    event.listen(engine, "checkin", _note_idle_since)
    event.listen(engine, "checkin", _server_side_binding)
    event.listen(engine, "checkout", partial(_ping_if_idle, engine.dialect))
    event.listen(engine, "before_cursor_execute", _begin_in_text, retval=True)
    event.listen(engine, "after_cursor_execute", _after_begin_in_text)
    return engine


# --- a write transaction's BEGIN in its first statement (PostgreSQL) ----------------------

# In ``Connection.info`` (per DBAPI connection): the next statement opens the transaction.
_BEGIN_NEXT = "memory_service.begin_in_next_statement"
_BEGIN = "BEGIN; "


def begin_with_first_statement(session: Session) -> Connection:
    """The ``session``'s connection for a write transaction whose first statement comes next.

    On PostgreSQL, if the session has begun nothing yet, psycopg would send the transaction's
    ``BEGIN`` as a round trip of its own. Here the connection is taken in autocommit (psycopg
    sends no ``BEGIN``) and the next statement is sent as ``BEGIN; <statement>`` in one
    simple-protocol query, its values bound client-side (psycopg's ``ClientCursor``, which
    quotes them as literals; its result is the statement's, the ``BEGIN``'s is skipped). The
    statements after it run in that transaction, as before (bound server-side, prepared
    after their fifth run), and the commit sends ``COMMIT`` (psycopg commits whenever the
    server reports a transaction, autocommit or not); a rollback, or the pool's reset when
    the connection is returned, sends ``ROLLBACK``. What it costs: the first statement is
    parsed and planned at every call (never prepared). SQLite, or a session already in a
    transaction: its connection, unchanged."""
    if session.in_transaction() or session.get_bind().dialect.name != "postgresql":
        return session.connection()
    connection = session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    driver = connection.connection.driver_connection
    driver.cursor_factory = psycopg.ClientCursor  # type: ignore[union-attr]
    connection.info[_BEGIN_NEXT] = True
    return connection


def _begin_in_text(
    conn: Connection,
    cursor: Any,
    statement: str,
    parameters: Any,
    _context: Any,
    executemany: bool,
) -> tuple[str, Any]:
    """The first statement after :func:`begin_with_first_statement` opens the transaction:
    in its text, or (a statement that cannot carry it: several parameter sets) after a
    ``BEGIN`` of its own. Never a statement of that connection outside the transaction."""
    if not conn.info.pop(_BEGIN_NEXT, False):
        return statement, parameters
    if isinstance(cursor, psycopg.ClientCursor) and not executemany:
        return _BEGIN + statement, parameters
    driver = conn.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    driver.cursor_factory = psycopg.Cursor
    driver.execute("BEGIN")
    return statement, parameters


def _after_begin_in_text(conn: Connection, cursor: Any, statement: str, *_args: Any) -> None:
    if statement.startswith(_BEGIN) and isinstance(cursor, psycopg.ClientCursor):
        cursor.nextset()  # past the BEGIN's result to the statement's
        conn.connection.driver_connection.cursor_factory = psycopg.Cursor  # type: ignore[union-attr]


def _server_side_binding(dbapi_connection: Any, record: Any) -> None:
    """A connection returned to the pool binds server-side again, whatever happened."""
    if isinstance(dbapi_connection, psycopg.Connection):
        dbapi_connection.cursor_factory = psycopg.Cursor
    if record is not None:
        record.info.pop(_BEGIN_NEXT, None)


PING_AFTER_IDLE_SECONDS = 1.0
_IDLE_SINCE = "memory_service_idle_since"


def _note_idle_since(_dbapi_connection: Any, record: Any) -> None:
    if record is not None:
        record.info[_IDLE_SINCE] = time.monotonic()


def _ping_if_idle(dialect: Dialect, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """``pool_pre_ping`` for connections idle longer than :data:`PING_AFTER_IDLE_SECONDS`:
    a dead one raises ``DisconnectionError``, on which the pool connects afresh."""
    idle_since = record.info.get(_IDLE_SINCE)
    if idle_since is not None and time.monotonic() - idle_since <= PING_AFTER_IDLE_SECONDS:
        return
    try:
        alive = dialect.do_ping(dbapi_connection)
    except dialect.loaded_dbapi.Error as exc:
        raise DisconnectionError("the pooled connection is gone") from exc
    if not alive:
        raise DisconnectionError("the pooled connection is gone")


class ReadOnlyViolation(RuntimeError):
    """A statement other than a read was sent on an engine made by :func:`reads_only`."""


# An execution option of the SQLite engine :func:`reads_only` makes: no BEGIN is sent.
NO_TRANSACTION = "memory_service_no_transaction"


def reads_only(engine: Engine) -> Engine:
    """``engine`` for units of work that only read (renders).

    Each statement runs on its own, outside any transaction. On PostgreSQL (autocommit):
    under READ COMMITTED a statement inside a transaction reads its own snapshot too, so a
    transaction added nothing to a render's two ``SELECT`` but its ``BEGIN READ ONLY`` and
    ``COMMIT``, two round trips of four. On SQLite (:data:`NO_TRANSACTION`: the ``BEGIN`` is
    not sent, and the driver's ``commit`` then sends nothing) each ``SELECT`` reads the
    latest commit, as on PostgreSQL: a write committed between the two reads is seen by the
    second only (the render cache compares both reads, so it serves nothing stale either way).
    What the READ ONLY transaction enforced is enforced here before anything is sent: a
    statement that is not a ``SELECT`` raises :class:`ReadOnlyViolation` (and a replica
    refuses writes by itself).
    """
    if engine.dialect.name == "postgresql":
        reads = engine.execution_options(isolation_level="AUTOCOMMIT")
    else:
        reads = engine.execution_options(**{NO_TRANSACTION: True})
    event.listen(reads, "before_cursor_execute", _refuse_writes)
    return reads


def _refuse_writes(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    # A compound's first member may open with a parenthesis: "(SELECT ...) UNION ALL ...".
    if statement.lstrip().lstrip("(").lstrip()[:6].upper() != "SELECT":
        raise ReadOnlyViolation("this engine only reads: " + statement.split(None, 1)[0])


def begin_writing(connection: Connection) -> None:
    """Hold SQLite's write lock from now until the transaction ends; nothing elsewhere.

    Waits (up to the busy timeout) for a concurrent writer to finish. Idempotent.
    """
    if connection.dialect.name != "sqlite":
        return
    info = connection.info
    if not connection.in_transaction():
        # Called before the autobegin of this statement: let that BEGIN be the immediate one.
        info[_BEGIN_IMMEDIATE_NEXT] = True
        return
    if info.get(_WRITING):
        return
    driver = connection.connection.driver_connection
    assert driver is not None
    if driver.total_changes == info.get(_CHANGES_AT_BEGIN):
        # Nothing written yet: end the read snapshot, then queue for the lock.
        driver.execute("COMMIT")
        driver.execute("BEGIN IMMEDIATE")
    # Otherwise a write in hand-written SQL already took the lock.
    info[_WRITING] = True


def scrub_sqlite_wal(engine: Engine) -> None:
    """Fold the WAL into the database file and truncate it to zero bytes.

    With ``secure_delete`` on (every connection), deleted and overwritten rows are zeroed
    in the pages; the WAL still holds the pages as they were until this checkpoint. Run
    after a commit that removed something that must not linger (an erasure, a delete). A
    reader holding an old snapshot can keep the checkpoint from finishing; the next one
    (SQLite also checkpoints on its own every 1000 pages) completes it.
    """
    connection = engine.raw_connection()
    try:
        connection.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def _sqlite_engine(url: str) -> Engine:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        path = Path(database).expanduser()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Created owner-only before SQLite opens it: SQLite gives the -wal and -shm files
        # the database file's permissions.
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    engine = create_engine(
        url,
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
    )
    event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin)
    event.listen(engine, "before_execute", _before_execute)
    return engine


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    # Take transaction control away from the sqlite3 driver (the SQLAlchemy recipe for
    # serializable isolation): SQLAlchemy emits BEGIN itself, see _begin.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        # Deleted and overwritten content is zeroed in the file, not just unlinked.
        cursor.execute("PRAGMA secure_delete = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
    finally:
        cursor.close()


def _begin(connection: Connection) -> None:
    if connection.get_execution_options().get(NO_TRANSACTION):
        return
    info = connection.info
    immediate = bool(info.pop(_BEGIN_IMMEDIATE_NEXT, False))
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
    info[_WRITING] = immediate
    driver = connection.connection.driver_connection
    info[_CHANGES_AT_BEGIN] = driver.total_changes if driver is not None else 0


def _before_execute(
    connection: Connection, statement: Any, _multiparams: Any, _params: Any, _options: Any
) -> None:
    if isinstance(statement, UpdateBase | ExecutableDDLElement):
        if connection.get_execution_options().get(NO_TRANSACTION):
            raise ReadOnlyViolation("this engine only reads: " + type(statement).__name__)
        begin_writing(connection)
