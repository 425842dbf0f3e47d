"""Count the statements and commits an engine sends: the round trips a request costs.

One tool for the pinned statement-count tests and the benchmarks, so both count the same
thing: every cursor execution (``before_cursor_execute``, once per statement, a multi-row
``executemany`` counted once) and every COMMIT (``commit`` engine event; not on an
autocommit connection, where it sends nothing). Connection set-up
statements (SQLite pragmas on connect, pool pre-ping) are counted too when they happen
inside the window, which is why callers warm up first.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, event

from memory_service.adapters.database import NO_TRANSACTION

_IDLE = 0  # libpq's PQTRANS_IDLE: no transaction open


@dataclass
class StatementCount:
    statements: int = 0
    commits: int = 0
    sql: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.statements} statements, {self.commits} commits"


@contextmanager
def count_statements(engine: Engine, *, keep_sql: bool = False) -> Iterator[StatementCount]:
    """Count what ``engine`` sends while the ``with`` block runs (all threads)."""
    count = StatementCount()

    def on_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        count.statements += 1
        if keep_sql:
            count.sql.append(statement)

    def on_commit(conn: Any) -> None:
        # An autocommit connection's commit sends nothing (each statement committed itself),
        # unless a statement opened a transaction on it (``database.
        # begin_with_first_statement``: psycopg then sends COMMIT); nor does a SQLite one
        # that never sent its BEGIN (``database.reads_only``).
        options = conn.get_execution_options()
        if options.get("isolation_level") == "AUTOCOMMIT":
            pgconn = getattr(conn.connection.driver_connection, "pgconn", None)
            if pgconn is not None and pgconn.transaction_status != _IDLE:
                count.commits += 1
        elif not options.get(NO_TRANSACTION):
            count.commits += 1

    event.listen(engine, "before_cursor_execute", on_execute)
    event.listen(engine, "commit", on_commit)
    try:
        yield count
    finally:
        event.remove(engine, "before_cursor_execute", on_execute)
        event.remove(engine, "commit", on_commit)
