"""The save path's reads: the session with its subject's lock, then one check under it.

Saving a note needs, in order: the session and the subject's lock (so two identical notes
racing are not both stored, and an end of the session waits for the note or is seen by it),
then, read after the lock was granted: the session's status as committed now, its latest
turn and the subject's active duplicate. The first is one ``SELECT ... JOIN subjects ...
FOR UPDATE OF subjects`` (on SQLite the write lock, then the same read); the second one
``SELECT`` with the latest turn as a scalar subquery and the duplicate outer-joined. Under
PostgreSQL's READ COMMITTED each statement reads a snapshot taken when it starts, so the
second sees whatever committed before the lock was granted.
"""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, select, true
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import aliased
from sqlmodel import col

from memory_service.adapters.database import begin_with_first_statement, begin_writing
from memory_service.adapters.sql.convert import session_from_row
from memory_service.adapters.sql.memories import SqlMemoryRepository
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.sql.terms import code_point_order
from memory_service.adapters.tables import MemoryRow, SessionRow, SessionTurnRow, SubjectRow
from memory_service.core.errors import NotFound
from memory_service.core.model import MemoryStatus, Session
from memory_service.core.ports import NoteCheck


def _in_autocommit(session: DbSession) -> None:
    """Without the lock (a dry run, a refused note), on PostgreSQL: the unit of work's
    statements in autocommit, if it has sent none yet. A dry run only reads, two ``SELECT``
    each on its own snapshot, as in a READ COMMITTED transaction; a refused note writes one
    statement (its audit event), committed by itself. On the wire 2 round trips instead of 4
    (``BEGIN``, ``ROLLBACK`` or ``COMMIT``), and no ``ROLLBACK``, after which psycopg drops
    every statement prepared on the connection with a ``DEALLOCATE ALL`` of its own."""
    if not session.in_transaction() and session.get_bind().dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


class SqlNoteReads:
    def __init__(
        self,
        session: DbSession,
        tenant_id: str,
        keys: SubjectKeys,
        memories: SqlMemoryRepository,
    ) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._memories = memories

    def session_with_subject(self, session_id: str, *, lock: bool) -> Session | None:
        if lock:  # on PostgreSQL this statement carries the transaction's BEGIN
            begin_writing(begin_with_first_statement(self._session))
        else:
            _in_autocommit(self._session)
        values = {"tenant": self._tenant_id, "session_id": session_id}
        found = self._session.execute(_session_statement(lock), values).first()
        if found is None:
            return None
        row, subject = found
        self._keys.hold(subject)
        self._keys.forget(subject.subject_id)  # unwrapped again, from the row just read
        if subject.data_key_id is None:  # erased (the key itself is unwrapped when needed)
            raise NotFound("no such subject")
        return session_from_row(row)

    def check(self, session: Session, text: str) -> NoteCheck:
        require_own_tenant(session.tenant_id, self._tenant_id)
        cipher = self._keys.existing(session.subject_id)
        if cipher is None:
            raise NotFound("no such subject")
        postgres = self._session.get_bind().dialect.name == "postgresql"
        values = {
            "tenant": self._tenant_id,
            "subject": session.subject_id,
            "session_id": session.id,
            "fingerprint": cipher.fingerprint(text),
        }
        found = self._session.execute(_check_statement(postgres), values).first()
        if found is None:
            return NoteCheck(None, None, None)
        row, turn, duplicate_row = found
        return NoteCheck(
            session=session_from_row(row),
            latest_turn=turn,
            duplicate=self._memories.held(duplicate_row) if duplicate_row is not None else None,
        )


# The statements are built once per process (building them cost more CPU than running them);
# each save only binds its values.


@functools.cache
def _session_statement(lock: bool) -> Select[SessionRow, SubjectRow]:
    statement = (
        select(SessionRow, SubjectRow)
        .join(
            SubjectRow,
            and_(
                col(SubjectRow.tenant_id) == col(SessionRow.tenant_id),
                col(SubjectRow.subject_id) == col(SessionRow.subject_id),
            ),
        )
        .where(
            col(SessionRow.tenant_id) == bindparam("tenant"),
            col(SessionRow.id) == bindparam("session_id"),
        )
        .execution_options(populate_existing=True)
    )
    return statement.with_for_update(of=SubjectRow) if lock else statement


@functools.cache
def _check_statement(postgres: bool) -> Select[Any]:
    memory_id = code_point_order(col(MemoryRow.id), postgres)
    duplicate = aliased(
        MemoryRow,
        select(MemoryRow)
        .where(
            col(MemoryRow.tenant_id) == bindparam("tenant"),
            col(MemoryRow.subject_id) == bindparam("subject"),
            col(MemoryRow.text_fingerprint) == bindparam("fingerprint"),
            col(MemoryRow.status) == MemoryStatus.ACTIVE.value,
        )
        .order_by(col(MemoryRow.updated_at).desc(), memory_id.desc())
        .limit(1)
        .subquery("duplicate"),
    )
    latest_turn = (
        select(func.max(SessionTurnRow.turn))
        .where(
            col(SessionTurnRow.tenant_id) == bindparam("tenant"),
            col(SessionTurnRow.session_id) == bindparam("session_id"),
        )
        .scalar_subquery()
    )
    return (
        select(SessionRow, latest_turn, duplicate)
        .outerjoin(duplicate, true())
        .where(
            col(SessionRow.tenant_id) == bindparam("tenant"),
            col(SessionRow.id) == bindparam("session_id"),
        )
        .execution_options(populate_existing=True)
    )
