"""One tenant's sessions."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import (
    CompoundSelect,
    Insert,
    Select,
    bindparam,
    func,
    insert,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.sql.dml import ReturningInsert
from sqlmodel import col

from memory_service.adapters.sql.convert import session_columns, session_from_row
from memory_service.adapters.sql.pending import (
    PendingInserts,
    bound_rows,
    rows_if_written,
    shape_of,
    single_rows,
)
from memory_service.adapters.sql.subjects import SubjectKeys, keyed_unless_keyed_statement
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.tables import SessionRow, SubjectRow
from memory_service.core.errors import NotFound
from memory_service.core.model import Session, SessionStatus


class SqlSessionRepository:
    def __init__(
        self, session: DbSession, tenant_id: str, keys: SubjectKeys, pending: PendingInserts
    ) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._pending = pending

    def _row(self, session_id: str) -> SessionRow | None:
        # Always the row as stored now, never this unit of work's earlier copy: a read
        # after taking the subject's lock must see an end committed meanwhile.
        statement = (
            select(SessionRow)
            .where(SessionRow.tenant_id == self._tenant_id, SessionRow.id == session_id)
            .execution_options(populate_existing=True)
        )
        return self._session.scalars(statement).first()

    def add(self, session: Session) -> None:
        """On PostgreSQL one statement on the wire, for a returning subject; two for a new one.

        If nothing was sent yet in the unit of work, the session is held back
        (:meth:`PendingInserts.defer`) and goes at its commit, alone: in autocommit, one
        statement that inserts the session from the subject's row if it holds a data key,
        and the unit of work's queued rows (its audit event) only if the session row was
        written (:func:`rows_if_written`). No ``BEGIN``, no ``COMMIT``: one round trip where
        the transaction took three. If it wrote nothing (a new subject, or an erased one
        starting a new lifecycle), a fresh key is made and stored in the key store first,
        then a second statement in autocommit gives the subject that key unless it holds
        one (:meth:`SubjectKeys.keyed_unless_keyed`) and inserts the session and the queued
        rows from it. The key store holds the key before any row naming it commits; a key
        not taken (a concurrent creator won) is an orphan, destroyed with the subject's
        others at its erasure. If that one wrote nothing either (a concurrent creator held
        the subject's row), the transaction below. A unit of work that sends another
        statement first sends the session in its transaction, before that statement.

        In a transaction (PostgreSQL): the session from the subject's row if it holds a key,
        else from a data-modifying CTE that gives the subject a fresh key, in one ``INSERT
        ... SELECT ... UNION ALL SELECT ... RETURNING`` carrying the queued rows; the key is
        stored only when the statement took it, before the commit. SQLite takes no DML in a
        CTE: the returning subject's ``INSERT ... SELECT``, then, if it found no key, the
        subject and the session as two statements (no network round trip there). A
        concurrent creator of the same subject leaves no row to insert from: then the key
        is read (:meth:`SubjectKeys.ensure`).
        """
        require_own_tenant(session.tenant_id, self._tenant_id)
        values = {
            "id": session.id,
            "tenant_id": self._tenant_id,
            "subject_id": session.subject_id,
            **session_columns(session),
        }
        if self._session.get_bind().dialect.name != "postgresql":
            self._add_in_transaction(session, values, postgres=False)
        elif self._session.in_transaction() or self._pending.deferred:
            self._pending.send_deferred()
            self._add_in_transaction(session, values, postgres=True)
        else:
            self._pending.defer(functools.partial(self._send_held, session, values))

    def _send_held(self, session: Session, values: dict[str, Any], alone: bool) -> None:
        if not (alone and self._add_alone(session, values)):
            self._add_in_transaction(session, values, postgres=True)

    def _add_alone(self, session: Session, values: dict[str, Any]) -> bool:
        """The session in autocommit (see :meth:`add`); False if it wrote nothing, with the
        queued rows back in the queue."""
        groups = self._pending.take()
        if not single_rows(groups):
            self._pending.put_back(groups)
            return False
        columns, shape = tuple(values), shape_of(groups)
        params = {f"s_{name}": value for name, value in values.items()} | bound_rows(groups)
        with self._session.get_bind().engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            returning = rows_if_written(_alone_statement(columns, keyed=False), shape)
            if connection.execute(returning, params).first() is not None:
                return True
            keyed, key = self._keys.keyed_unless_keyed(session.subject_id, session.opened_at)
            self._keys.store(key)
            new_subject = rows_if_written(_alone_statement(columns, keyed=True), shape)
            if connection.execute(new_subject, params | keyed).first() is not None:
                return True
        self._pending.put_back(groups)
        return False

    def _add_in_transaction(
        self, session: Session, values: dict[str, Any], *, postgres: bool
    ) -> None:
        params = {f"s_{name}": value for name, value in values.items()}
        statement = _open_statement(tuple(values), postgres=postgres)
        if postgres:
            keyed, key = self._keys.keyed_unless_keyed(session.subject_id, session.opened_at)
            found = self._pending.send_with(statement, params | keyed).first()
            if found is not None:
                if found._mapping["took_key"]:
                    self._keys.store(key)
                return
        else:
            if self._pending.send_with(statement, params).first() is not None:
                return
            keyed_row = self._keys.keyed(session.subject_id, session.opened_at)
            if self._session.execute(keyed_row).first() is not None:
                self._session.execute(insert(_SESSIONS).values(values))
                return
        self._keys.ensure(session.subject_id, session.opened_at, new_lifecycle=True)
        self._session.execute(insert(_SESSIONS).values(values))

    def get(self, session_id: str) -> Session | None:
        row = self._row(session_id)
        return session_from_row(row) if row is not None else None

    def list_for_subject(self, subject_id: str) -> list[Session]:
        statement = (
            select(SessionRow)
            .where(SessionRow.tenant_id == self._tenant_id, SessionRow.subject_id == subject_id)
            .order_by(SessionRow.opened_at, SessionRow.id)
        )
        return [session_from_row(row) for row in self._session.scalars(statement)]

    def save(self, session: Session) -> None:
        require_own_tenant(session.tenant_id, self._tenant_id)
        row = self._row(session.id)
        if row is None:
            raise NotFound("session not found")
        if row.subject_id != session.subject_id:
            raise ValueError("a session cannot move to another subject")
        for name, value in session_columns(session).items():
            setattr(row, name, value)
        self._session.flush()

    def transition(self, session: Session, *, from_status: SessionStatus) -> bool:
        """``UPDATE ... WHERE status = :from_status``: the row lock (PostgreSQL) or the write
        lock (SQLite) makes a concurrent second transition wait, then match no row."""
        require_own_tenant(session.tenant_id, self._tenant_id)
        result = self._session.execute(
            update(SessionRow)
            .where(
                col(SessionRow.tenant_id) == self._tenant_id,
                col(SessionRow.id) == session.id,
                col(SessionRow.status) == from_status.value,
            )
            .values(**session_columns(session))
            .execution_options(synchronize_session="fetch")
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]


_SESSIONS = SessionRow.__table__  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=8)
def _alone_statement(columns: tuple[str, ...], *, keyed: bool) -> ReturningInsert[tuple[str]]:
    """PostgreSQL: the session's row from its subject's if that holds a key; with ``keyed``,
    ``UNION ALL`` the row from the subject keyed by :func:`keyed_unless_keyed_statement`
    (whose key the key store already holds). Returning the session's id; built once."""
    with_key, row = _session_row(columns)
    source: Select[Any] | CompoundSelect[Any] = with_key
    if keyed:
        keyed_subject = keyed_unless_keyed_statement().cte("keyed_subject")
        source = union_all(with_key, row.select_from(keyed_subject))
    return insert(_SESSIONS).from_select(list(columns), source).returning(_SESSIONS.c.id)


def _session_row(columns: tuple[str, ...]) -> tuple[Select[Any], Select[Any]]:
    """The session's row (every value bound), and it only where the subject holds a key."""
    subjects = SubjectRow.__table__  # type: ignore[attr-defined]
    row = select(*(bindparam(f"s_{name}", type_=_SESSIONS.c[name].type) for name in columns))
    with_key = row.where(
        subjects.c.tenant_id == bindparam("s_tenant_id", type_=_SESSIONS.c.tenant_id.type),
        subjects.c.subject_id == bindparam("s_subject_id", type_=_SESSIONS.c.subject_id.type),
        subjects.c.data_key_id.is_not(None),
    )
    return with_key, row


@functools.lru_cache(maxsize=8)
def _open_statement(columns: tuple[str, ...], *, postgres: bool) -> Insert:
    """The session's ``INSERT ... SELECT`` of :meth:`SqlSessionRepository.add`, built once per
    process, every value bound (``s_`` and the column): built at each call, it and the
    subject's upsert were half of opening a session's CPU (cProfile, session 7).

    SQLite: the row if the subject holds a key. PostgreSQL: that, ``UNION ALL`` the row from
    the subject keyed by :func:`keyed_unless_keyed_statement` (a data-modifying CTE), and
    whether that CTE took the key (``took_key``)."""
    with_key, row = _session_row(columns)
    if not postgres:
        return insert(_SESSIONS).from_select(list(columns), with_key).returning(_SESSIONS.c.id)
    keyed_subject = keyed_unless_keyed_statement().cte("keyed_subject")
    took_key = select(func.count()).select_from(keyed_subject).scalar_subquery()
    return (
        insert(_SESSIONS)
        .from_select(list(columns), union_all(with_key, row.select_from(keyed_subject)))
        .returning(_SESSIONS.c.id, took_key.label("took_key"))
    )
