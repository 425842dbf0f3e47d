"""The render's two reads over any store's repositories: what the in-memory fake offers for
:class:`memory_service.core.ports.ContextReads` (the SQL store reads them in two statements)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from memory_service.core.history import HistoryMarks
from memory_service.core.model import MemoryScope, MemoryStatus, Session, Source
from memory_service.core.ports import (
    ContextMemories,
    MemoryRepository,
    SessionRepository,
    SubjectRepository,
    SubjectView,
    TurnRepository,
)


class RepositoryContextReads:
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
