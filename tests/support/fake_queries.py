"""The folded reads of the hot paths over any store's repositories: what the in-memory fake
offers for :class:`~memory_service.core.ports.ContextReads` and
:class:`~memory_service.core.ports.NoteReads` (the SQL store folds them into few statements)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from memory_service.core.history import HistoryMarks
from memory_service.core.model import MemoryScope, MemoryStatus, Session, Source
from memory_service.core.ports import (
    ContextMemories,
    MemoryRepository,
    NoteCheck,
    SessionRepository,
    SubjectRepository,
    SubjectView,
    TurnRepository,
)


class _OverRepositories:
    """The reads of the SQL adapters answered from the repositories (the in-memory store)."""

    def __init__(
        self,
        memories: MemoryRepository,
        sessions: SessionRepository,
        subjects: SubjectRepository,
        turns: TurnRepository,
    ) -> None:
        self._memories = memories
        self._sessions = sessions
        self._subjects = subjects
        self._turns = turns


class RepositoryContextReads(_OverRepositories):
    def subject_view(self, subject_id: str, session_id: str | None) -> SubjectView:
        session = self._sessions.get(session_id) if session_id is not None else None
        if session is not None and session.subject_id != subject_id:
            session = None
        return SubjectView(
            session=session,
            state=self._subjects.get_state(subject_id),
            marks=self._turns.marks(session) if session is not None else HistoryMarks(),
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
        def usable(**filters: object) -> list:  # type: ignore[type-arg]
            return self._memories.list_for_subject(
                subject_id,
                scope=MemoryScope.GLOBAL,
                statuses=(MemoryStatus.ACTIVE,),
                not_expired_at=now,
                **filters,  # type: ignore[arg-type]
            )

        by_class = tuple(
            usable(purposes=purposes, sources=sources, limit=per_class) if per_class > 0 else []
            for sources in classes
        )
        other = None
        if other_purposes_limit is not None:
            other = [memory.purpose for memory in usable(limit=other_purposes_limit)]
        notes = self._memories.list_for_session(session.id) if session is not None else []
        return ContextMemories(by_class, notes, other)


class RepositoryNoteReads(_OverRepositories):
    def session_with_subject(self, session_id: str, *, lock: bool) -> Session | None:
        session = self._sessions.get(session_id)
        if session is not None and lock:
            self._subjects.lock(session.subject_id)
        return session

    def check(self, session: Session, text: str) -> NoteCheck:
        return NoteCheck(
            session=self._sessions.get(session.id),
            latest_turn=self._turns.latest_index(session),
            duplicate=self._memories.find_active_duplicate(session.subject_id, text),
        )
