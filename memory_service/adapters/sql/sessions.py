"""One tenant's sessions."""

from __future__ import annotations

import functools

from sqlalchemy import Insert, bindparam, func, insert, select, union_all, update
from sqlalchemy.orm import Session as DbSession
from sqlmodel import col

from memory_service.adapters.sql.convert import session_columns, session_from_row
from memory_service.adapters.sql.pending import PendingInserts
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
        """One statement on PostgreSQL, whatever the subject; at most two on SQLite.

        On PostgreSQL the session is inserted from the subject's row if it holds a data key
        (a returning subject), else from a data-modifying CTE that gives a new subject, or an
        erased one starting a new lifecycle, a fresh key (:meth:`SubjectKeys.
        keyed_unless_keyed`; the foreign key is checked at the end of the statement), in one
        ``INSERT ... SELECT ... UNION ALL SELECT ... RETURNING``, which also carries the unit
        of work's queued inserts (its audit event). Both branches read the same snapshot, so
        exactly one can produce the row. The key, made before the statement, is stored in
        the key store only when the statement took it, before the commit. SQLite takes no
        DML in a CTE: the returning subject's ``INSERT ... SELECT``, then, if it found no
        key, the subject and the session as two statements (no network round trip there).
        A concurrent creator of the same subject leaves no row to insert from: then the key
        is read (:meth:`SubjectKeys.ensure`).
        """
        require_own_tenant(session.tenant_id, self._tenant_id)
        values = {
            "id": session.id,
            "tenant_id": self._tenant_id,
            "subject_id": session.subject_id,
            **session_columns(session),
        }
        params = {f"s_{name}": value for name, value in values.items()}
        postgres = self._session.get_bind().dialect.name == "postgresql"
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
def _open_statement(columns: tuple[str, ...], *, postgres: bool) -> Insert:
    """The session's ``INSERT ... SELECT`` of :meth:`SqlSessionRepository.add`, built once per
    process, every value bound (``s_`` and the column): built at each call, it and the
    subject's upsert were half of opening a session's CPU (cProfile, session 7).

    SQLite: the row if the subject holds a key. PostgreSQL: that, ``UNION ALL`` the row from
    the subject keyed by :func:`keyed_unless_keyed_statement` (a data-modifying CTE), and
    whether that CTE took the key (``took_key``)."""
    subjects = SubjectRow.__table__  # type: ignore[attr-defined]
    row = select(*(bindparam(f"s_{name}", type_=_SESSIONS.c[name].type) for name in columns))
    with_key = row.where(
        subjects.c.tenant_id == bindparam("s_tenant_id", type_=_SESSIONS.c.tenant_id.type),
        subjects.c.subject_id == bindparam("s_subject_id", type_=_SESSIONS.c.subject_id.type),
        subjects.c.data_key_id.is_not(None),
    )
    if not postgres:
        return insert(_SESSIONS).from_select(list(columns), with_key).returning(_SESSIONS.c.id)
    keyed_subject = keyed_unless_keyed_statement().cte("keyed_subject")
    took_key = select(func.count()).select_from(keyed_subject).scalar_subquery()
    return (
        insert(_SESSIONS)
        .from_select(list(columns), union_all(with_key, row.select_from(keyed_subject)))
        .returning(_SESSIONS.c.id, took_key.label("took_key"))
    )
