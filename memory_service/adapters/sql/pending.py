"""Inserts a unit of work holds back and sends together: fewer round trips per request.

Rows nothing in the transaction reads back before it commits (audit events, a new note) are
queued here, then sent before the next statement of the unit of work that could depend on
them (any ORM query or flush: read your own writes holds) or, at the latest, at commit. On
PostgreSQL everything queued goes as one statement (each table's rows as one multi-row
``INSERT``, all but the last as data-modifying CTEs: ``WITH a AS (INSERT ...) INSERT ...``;
constraints are checked at the end of the statement). SQLite takes no DML in a CTE: one
``INSERT`` per table there, which costs no network round trip.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import CursorResult, Insert, Select, event, insert
from sqlalchemy.orm import ORMExecuteState, Session

Rows = list[tuple[sa.Table, list[dict[str, Any]]]]


class PendingInserts:
    def __init__(self, session: Session) -> None:
        self._session = session
        # Rows per table, in the order the tables were first queued (audit ``seq`` follows
        # the order of its rows, which stay in one statement).
        self._rows: dict[sa.Table, list[dict[str, Any]]] = {}
        # A write that may go alone at commit (:meth:`defer`), called with ``alone``.
        self._deferred: Callable[[bool], None] | None = None
        event.listen(session, "do_orm_execute", self._before_statement)
        event.listen(session, "before_flush", self._before_flush)

    def add(self, table: sa.Table, rows: list[dict[str, Any]]) -> None:
        if rows:
            self._rows.setdefault(table, []).extend(rows)

    def defer(self, send: Callable[[bool], None]) -> None:
        """Hold back a write until the unit of work's next statement (then it is sent in the
        transaction: ``send(False)``) or its commit. At the commit, if nothing else was sent
        in the unit of work, ``send(True)``: the write may commit alone, on a connection of
        its own in autocommit, with the queued rows (:meth:`take`) in its one statement. A
        unit of work left without its commit sends nothing. One write at a time: a second
        sends the first in the transaction."""
        self.send_deferred()
        self._deferred = send

    def send_deferred(self, *, alone: bool = False) -> None:
        if self._deferred is not None:
            deferred, self._deferred = self._deferred, None
            deferred(alone and not self._session.in_transaction())

    @property
    def deferred(self) -> bool:
        return self._deferred is not None

    def take(self) -> Rows:
        """What is queued, taken out (to send it on another connection)."""
        groups, self._rows = list(self._rows.items()), {}
        return groups

    def put_back(self, groups: Rows) -> None:
        for table, rows in groups:
            self.add(table, rows)

    def send(self, *, at_commit: bool = False) -> None:
        """Send what is queued now (called before a commit, and before other statements):
        a deferred write first (:meth:`defer`), alone if ``at_commit`` and nothing else was
        sent in the unit of work."""
        self.send_deferred(alone=at_commit)
        if not self._rows:
            return
        connection = self._session.connection()
        if connection.dialect.name != "postgresql":
            # Each table's rows as ``insert(table)`` with the rows as parameters: compiled
            # once per process (a multi-row ``VALUES`` has no cache key: compiled every time).
            groups, self._rows = list(self._rows.items()), {}
            for table, rows in groups:
                connection.execute(insert(table), rows)
            return
        if all(len(rows) == 1 for rows in self._rows.values()):
            # A save's note and its audit event: one statement built and compiled once per
            # process, only the values bound.
            groups, self._rows = list(self._rows.items()), {}
            shape = tuple((table, tuple(rows[0])) for table, rows in groups)
            connection.execute(_single_rows(shape), _bound_rows(groups))
            return
        *first, (table, rows) = self._rows.items()
        self._rows = dict(first)
        self.send_with(insert(table).values(rows), built_once=False)

    def send_with(
        self, statement: Insert, params: dict[str, Any] | None = None, *, built_once: bool = True
    ) -> CursorResult[Any]:
        """Execute the write ``statement`` (with its bound ``params``) now, with what is
        queued: in the same statement on PostgreSQL (whose CTEs do not see each other's rows:
        only for independent rows). One row per table (opening a session: its audit event)
        goes through a statement built once per ``statement`` and shape, only values bound
        (``statement`` itself built once, as :func:`_single_rows`; else ``built_once=False``,
        and the queued rows are sent as values, not cached with it)."""
        self.send_deferred()
        groups, self._rows = list(self._rows.items()), {}
        connection = self._session.connection()
        params = dict(params or {})
        if connection.dialect.name != "postgresql":
            for table, rows in groups:
                connection.execute(insert(table), rows)
        elif built_once and all(len(rows) == 1 for _, rows in groups):
            shape = tuple((table, tuple(rows[0])) for table, rows in groups)
            params |= _bound_rows(groups)
            statement = _with_single_rows(statement, shape)
        else:
            for number, (table, rows) in enumerate(groups):
                # One row as a single-row VALUES, which has a cache key (a multi-row one has
                # none: the whole statement would be compiled at every call).
                values = insert(table).values(rows[0] if len(rows) == 1 else rows)
                statement = statement.add_cte(values.cte(f"pending_{number}"))
        return connection.execute(statement, params)

    def _before_statement(self, _state: ORMExecuteState) -> None:
        self.send()

    def _before_flush(self, *_args: object) -> None:
        self.send()


def single_rows(groups: Rows) -> bool:
    return all(len(rows) == 1 for _, rows in groups)


def shape_of(groups: Rows) -> tuple[tuple[sa.Table, tuple[str, ...]], ...]:
    return tuple((table, tuple(rows[0])) for table, rows in groups)


def bound_rows(groups: Rows) -> dict[str, Any]:
    return _bound_rows(groups)


@functools.lru_cache(maxsize=64)
def rows_if_written(
    statement: Insert, shape: tuple[tuple[sa.Table, tuple[str, ...]], ...]
) -> Select[Any]:
    """``WITH written AS (statement), pending_0 AS (INSERT INTO t0 SELECT :p0_... FROM
    written), ... SELECT * FROM written``: one row into each table of ``shape`` for each row
    ``statement`` (an ``INSERT ... RETURNING``) wrote, none if it wrote none; what it
    returned. PostgreSQL (data-modifying CTEs), built once per statement and shape."""
    written = statement.cte("written")
    found = sa.select(*written.c)
    for number, (table, columns) in enumerate(shape):
        values = sa.select(
            *(sa.bindparam(f"p{number}_{name}", type_=table.c[name].type) for name in columns)
        ).select_from(written)
        found = found.add_cte(
            insert(table).from_select(list(columns), values).cte(f"pending_{number}")
        )
    return found


def _bound_rows(groups: list[tuple[sa.Table, list[dict[str, Any]]]]) -> dict[str, Any]:
    """The values of one row per table, named as :func:`_one_row` binds them."""
    return {
        f"p{number}_{name}": value
        for number, (_, rows) in enumerate(groups)
        for name, value in rows[0].items()
    }


def _one_row(number: int, table: sa.Table, columns: tuple[str, ...]) -> Insert:
    row = {name: sa.bindparam(f"p{number}_{name}", type_=table.c[name].type) for name in columns}
    return insert(table).values(row)


@functools.lru_cache(maxsize=64)
def _single_rows(shape: tuple[tuple[sa.Table, tuple[str, ...]], ...]) -> Insert:
    """One row into each table of ``shape`` (a table and the columns its row gives), all but
    the last as data-modifying CTEs, every value a bound parameter ``p{n}_{column}``.

    Built once per shape: a multi-row ``VALUES`` has no cache key, so SQLAlchemy compiled
    the save's statement at every save, and building its values cost as much again
    (measured with cProfile on the save: a tenth of its CPU)."""
    *first, (table, columns) = shape
    return _with_single_rows(_one_row(len(first), table, columns), tuple(first))


@functools.lru_cache(maxsize=64)
def _with_single_rows(
    statement: Insert, shape: tuple[tuple[sa.Table, tuple[str, ...]], ...]
) -> Insert:
    """``statement`` with one row into each table of ``shape`` as data-modifying CTEs."""
    for number, (table, columns) in enumerate(shape):
        statement = statement.add_cte(_one_row(number, table, columns).cte(f"pending_{number}"))
    return statement
