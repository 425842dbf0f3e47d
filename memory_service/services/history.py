"""A session's conversation history: append items, read the kept turns, pop, clear.

Appending trims at once: only the last ``keep_turns`` turns stay stored, the cut ones are
deleted (their text is gone) and the boundary is recorded, so the next context re-injects the
notes saved in them (see :mod:`memory_service.services.context`). Writes hold the subject lock,
so two concurrent appends cannot number the same turn twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from memory_service.core.history import (
    HistoryMarks,
    Item,
    append_items,
    next_turn_index,
    pop_last_item,
    turn_items,
    validate_items,
)
from memory_service.core.model import Session
from memory_service.core.ports import Clock, UnitOfWork, UnitOfWorkFactory
from memory_service.core.scope import TenantScope
from memory_service.core.trimming import Turn, trim
from memory_service.services.sessions import get_session, require_open_session


@dataclass(frozen=True)
class HistoryDeps:
    uow_factory: UnitOfWorkFactory
    clock: Clock
    keep_turns: int


@dataclass(frozen=True)
class HistoryView:
    """The kept items, oldest first; ``last_turn`` is 0 before the first turn."""

    items: list[Item]
    first_kept_turn: int
    last_turn: int


@dataclass(frozen=True)
class AppendResult:
    turns: list[int]
    cut: list[int]
    first_kept_turn: int


def _keep(deps: HistoryDeps) -> int:
    # At least the newest turn stays, so turn numbers survive a trim and are never reused.
    return max(1, deps.keep_turns)


def _open_for_writing(uow: UnitOfWork, session_id: str) -> Session:
    session = require_open_session(uow, session_id)
    uow.subjects.lock(session.subject_id)
    return session


def append(
    scope: TenantScope, session_id: str, items: object, *, deps: HistoryDeps
) -> AppendResult:
    """Add the runtime's items, then trim to the last ``keep_turns`` turns."""
    checked = validate_items(items)
    with deps.uow_factory(scope.tenant_id) as uow:
        session = _open_for_writing(uow, session_id)
        turns = uow.turns.list(session)
        marks = uow.turns.marks(session)
        written = append_items(
            turns[-1] if turns else None,
            checked,
            next_index=next_turn_index(turns, marks),
            now=deps.clock.now(),
        )
        for turn in written:
            uow.turns.put(session, turn)
        by_index = {turn.index: turn for turn in (*turns, *written)}
        trimmed = trim(sorted(by_index.values(), key=lambda turn: turn.index), _keep(deps))
        cut = [turn.index for turn in trimmed.cut]
        if cut:
            uow.turns.delete(session, cut)
            first_kept = min(turn.index for turn in trimmed.kept)
            marks = replace(marks, first_kept_turn=first_kept)
            uow.turns.save_marks(session, marks)
        uow.commit()
    return AppendResult([turn.index for turn in written], cut, marks.first_kept_turn)


def read(
    scope: TenantScope, session_id: str, *, limit: int | None = None, deps: HistoryDeps
) -> HistoryView:
    """The kept items, the latest ``limit`` of them when given (the Agents SDK's contract)."""
    with deps.uow_factory(scope.tenant_id) as uow:
        session = get_session(uow, session_id)
        turns = uow.turns.list(session)
        marks = uow.turns.marks(session)
    items = _flatten(turns)
    if limit is not None:
        items = items[-limit:] if limit else []
    last_turn = max(next_turn_index(turns, marks) - 1, 0)
    return HistoryView(items, marks.first_kept_turn, last_turn)


def pop(scope: TenantScope, session_id: str, *, deps: HistoryDeps) -> Item | None:
    """Remove and return the newest item; a turn left empty is deleted."""
    with deps.uow_factory(scope.tenant_id) as uow:
        session = _open_for_writing(uow, session_id)
        item, remaining, index = pop_last_item(uow.turns.list(session))
        if index is None:
            return None
        if remaining is None:
            uow.turns.delete(session, [index])
        else:
            uow.turns.put(session, remaining)
        uow.commit()
    return item


def clear(scope: TenantScope, session_id: str, *, deps: HistoryDeps) -> int:
    """Cut every turn: the history is gone and the notes saved in it are re-injected next."""
    with deps.uow_factory(scope.tenant_id) as uow:
        session = _open_for_writing(uow, session_id)
        turns = uow.turns.list(session)
        marks = uow.turns.marks(session)
        if turns:
            uow.turns.delete(session, [turn.index for turn in turns])
            cleared = HistoryMarks(next_turn_index(turns, marks), marks.reinjected)
            uow.turns.save_marks(session, cleared)
        uow.commit()
    return len(turns)


def _flatten(turns: Sequence[Turn]) -> list[Item]:
    return [item for turn in turns for item in turn_items(turn)]
