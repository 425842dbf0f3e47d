"""A render's reads, in two statements: they may run on a read-only connection or a replica.

The first reads the subject's row (its state and data key id), the session asked for (only
if it is this subject's) and the session's trim marks, by primary keys and outer joins. The
second reads every memory the render can use as one ``UNION ALL``: the newest usable globals
of each authority class, the session's notes, and the newest usable globals of any purpose
(for the counts of other purposes), each part through the index it would use alone and
tagged with its number. The parts keep their limits inside subqueries (SQLite allows no
``LIMIT`` on a compound's member) and are put back in order here, by the same keys as the
repositories' listings.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, literal, or_, select, union_all
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import aliased
from sqlmodel import col

from memory_service.adapters.sql.convert import memory_from_row, session_from_row
from memory_service.adapters.sql.subjects import SqlSubjectRepository, SubjectKeys
from memory_service.adapters.tables import MemoryRow, SessionHistoryRow, SessionRow, SubjectRow
from memory_service.core.history import HistoryMarks
from memory_service.core.model import Memory, MemoryScope, MemoryStatus, Session, Source
from memory_service.core.ports import ContextMemories, SubjectView

_PART = "part"


class SqlContextReads:
    def __init__(
        self, session: DbSession, tenant_id: str, keys: SubjectKeys, subjects: SqlSubjectRepository
    ) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._subjects = subjects

    def subject_view(self, subject_id: str, session_id: str | None) -> SubjectView:
        statement = (
            select(SubjectRow, SessionRow, SessionHistoryRow)
            .select_from(SubjectRow)
            .outerjoin(
                SessionRow,
                and_(
                    col(SessionRow.tenant_id) == col(SubjectRow.tenant_id),
                    col(SessionRow.subject_id) == col(SubjectRow.subject_id),
                    col(SessionRow.id) == session_id,
                ),
            )
            .outerjoin(
                SessionHistoryRow,
                and_(
                    col(SessionHistoryRow.tenant_id) == col(SessionRow.tenant_id),
                    col(SessionHistoryRow.session_id) == col(SessionRow.id),
                ),
            )
            .where(
                col(SubjectRow.tenant_id) == self._tenant_id,
                col(SubjectRow.subject_id) == subject_id,
            )
        )
        found = self._session.execute(statement).first()
        if found is None:  # a subject never written to: no session can be its
            return SubjectView(None, None, HistoryMarks())
        _subject, session, history = found
        marks = (
            HistoryMarks(history.first_kept_turn, frozenset(history.reinjected))
            if history is not None
            else HistoryMarks()
        )
        return SubjectView(
            session=session_from_row(session) if session is not None else None,
            # The subject's row is in this unit of work now: no further statement.
            state=self._subjects.get_state(subject_id),
            marks=marks,
        )

    def memories(
        self,
        subject_id: str,
        session: Session | None,
        *,
        purposes: Collection[str],
        now: datetime,
        classes: Sequence[Collection[Source]],
        per_class: int,
        other_purposes_limit: int | None,
    ) -> ContextMemories:
        usable = self._usable_globals(subject_id, now)
        by_class = [
            self._newest(
                usable,
                col(MemoryRow.purpose).in_(list(purposes)),
                col(MemoryRow.source).in_([source.value for source in sources]),
                limit=per_class,
            )
            for sources in (classes if per_class > 0 else ())
        ]
        parts = list(by_class)
        if session is not None:
            parts.append(
                select(MemoryRow).where(
                    col(MemoryRow.tenant_id) == self._tenant_id,
                    col(MemoryRow.session_id) == session.id,
                )
            )
        if other_purposes_limit is not None:
            parts.append(self._newest(usable, limit=other_purposes_limit))
        rows = self._read(parts)
        notes = rows.get(len(by_class), []) if session is not None else []
        last = len(parts) - 1
        return ContextMemories(
            by_class=tuple(
                self._decrypt(_newest_first(rows.get(number, []))) if per_class > 0 else []
                for number in range(len(classes))
            ),
            session_notes=self._decrypt(sorted(notes, key=lambda row: (row.created_at, row.id))),
            other_purposes=(
                [row.purpose for row in rows.get(last, [])]
                if other_purposes_limit is not None
                else None
            ),
        )

    def _usable_globals(self, subject_id: str, now: datetime) -> tuple[ColumnElement[bool], ...]:
        return (
            col(MemoryRow.tenant_id) == self._tenant_id,
            col(MemoryRow.subject_id) == subject_id,
            col(MemoryRow.scope) == MemoryScope.GLOBAL.value,
            col(MemoryRow.status) == MemoryStatus.ACTIVE.value,
            or_(col(MemoryRow.expires_at).is_(None), col(MemoryRow.expires_at) > now),
        )

    def _newest(
        self, usable: tuple[ColumnElement[bool], ...], *more: ColumnElement[bool], limit: int
    ) -> Select[Any]:
        postgres = self._session.get_bind().dialect.name == "postgresql"
        memory_id = col(MemoryRow.id).collate("C") if postgres else col(MemoryRow.id)
        return (
            select(MemoryRow)
            .where(*usable, *more)
            .order_by(col(MemoryRow.updated_at).desc(), memory_id.desc())
            .limit(limit)
        )

    def _read(self, parts: list[Select[Any]]) -> dict[int, list[MemoryRow]]:
        """One statement for all the parts; the rows of each part by its number."""
        if not parts:
            return {}
        tagged = [
            select(part.subquery(), literal(number).label(_PART))
            for number, part in enumerate(parts)
        ]
        combined = union_all(*tagged).subquery("parts")
        memory = aliased(MemoryRow, combined)
        rows: dict[int, list[MemoryRow]] = {}
        for row, number in self._session.execute(select(memory, combined.c[_PART])):
            rows.setdefault(number, []).append(row)
        return rows

    def _decrypt(self, rows: list[MemoryRow]) -> list[Memory]:
        """Rows of an erased subject are skipped, as the repositories do."""
        memories = []
        for row in rows:
            cipher = self._keys.existing(row.subject_id)
            if cipher is not None:
                memories.append(memory_from_row(row, cipher))
        return memories


def _newest_first(rows: list[MemoryRow]) -> list[MemoryRow]:
    """Newest first, ties to the larger id in code-point order, as the SQL ordered them."""
    return sorted(rows, key=lambda row: (row.updated_at, row.id), reverse=True)
