"""Engines for the two supported databases, configured for many concurrent writers.

SQLite (the embedded default) gets foreign keys, WAL, a busy timeout and ``BEGIN IMMEDIATE``
for every transaction: a writer takes the write lock up front and others wait for it,
instead of failing when a read transaction later tries to upgrade to a write. PostgreSQL
runs on psycopg 3 with ``pool_pre_ping`` so a restarted server costs one retry, not an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

SQLITE_BUSY_TIMEOUT_SECONDS = 30


def normalize_database_url(url: str) -> str:
    """Accept the common PostgreSQL spellings and route them all to psycopg 3."""
    for prefix in ("postgresql+psycopg2://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_engine_for(url: str) -> Engine:
    url = normalize_database_url(url)
    if url.startswith("sqlite"):
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True)


def _sqlite_engine(url: str) -> Engine:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
    )
    event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin_immediate)
    return engine


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    # Take transaction control away from the sqlite3 driver (the SQLAlchemy recipe for
    # serializable isolation): SQLAlchemy emits BEGIN itself, see _begin_immediate.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_SECONDS * 1000}")
    finally:
        cursor.close()


def _begin_immediate(connection: Any) -> None:
    # Every unit of work may write, so take the write lock at BEGIN: waiting on
    # busy_timeout then works, where a deferred transaction's upgrade would fail at once.
    connection.exec_driver_sql("BEGIN IMMEDIATE")
