"""Open and end sessions. Ending queues consolidation only once the end is committed."""

from __future__ import annotations

from memory_service.core.clock import new_id
from memory_service.core.errors import Conflict, InvalidRequest, NotFound
from memory_service.core.model import (
    DEFAULT_PURPOSE,
    EventKind,
    Session,
    SessionStatus,
)
from memory_service.core.ports import Clock, TaskQueue, UnitOfWork, UnitOfWorkFactory
from memory_service.core.purpose import validate_purpose
from memory_service.core.scope import SESSION_ID_MAX_LENGTH, TenantScope, validate_subject_id
from memory_service.services.outbox import request_consolidation


def open_session(
    scope: TenantScope,
    subject_id: object,
    purpose: object = None,
    *,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
) -> Session:
    subject = validate_subject_id(subject_id)
    session = Session(
        id=new_id(),
        tenant_id=scope.tenant_id,
        subject_id=subject,
        purpose=DEFAULT_PURPOSE if purpose is None else validate_purpose(purpose),
        status=SessionStatus.OPEN,
        opened_at=clock.now(),
    )
    with uow_factory(scope.tenant_id) as uow:
        # Recorded first: the store may send the event with the session's row.
        _record(uow, scope, session, EventKind.SESSION_OPENED)
        uow.sessions.add(session)
        uow.commit()
    return session


def end_session(
    scope: TenantScope,
    session_id: str,
    *,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    tasks: TaskQueue,
) -> Session:
    """Mark the session ended and queue its consolidation after the commit.

    The consolidation request is an outbox entry written in the same transaction, so a
    broker outage delays the consolidation but never loses it (``services/outbox.py``).

    Ending twice is a conflict rather than a silent success, so a client that retries
    learns that the first call went through. The end is a conditional write: of two
    concurrent ends exactly one succeeds (one event, one consolidation queued).
    """
    with uow_factory(scope.tenant_id) as uow:
        session = get_session(uow, session_id)
        if session.status is not SessionStatus.OPEN:
            raise Conflict("the session has already ended")
        # The subject's lock orders the end after any note being saved (see lock_open_session).
        uow.subjects.lock(session.subject_id)
        ended_at = clock.now()
        ended = session.end(at=ended_at)
        if not uow.sessions.transition(ended, from_status=SessionStatus.OPEN):
            raise Conflict("the session has already ended")
        _record(uow, scope, ended, EventKind.SESSION_ENDED)
        request_consolidation(
            uow, ended.id, at=ended_at, uow_factory=uow_factory, tasks=tasks, clock=clock
        )
        uow.commit()
    return ended


def get_session(uow: UnitOfWork, session_id: str) -> Session:
    """The session of the unit of work's tenant, or NotFound (also for another tenant's id)."""
    check_session_id(session_id)
    session = uow.sessions.get(session_id)
    if session is None:
        raise NotFound("no such session")
    return session


def check_session_id(session_id: object) -> None:
    if not isinstance(session_id, str) or not session_id or len(session_id) > SESSION_ID_MAX_LENGTH:
        raise InvalidRequest("session id is malformed")


def require_open_session(uow: UnitOfWork, session_id: str) -> Session:
    session = get_session(uow, session_id)
    if session.status is not SessionStatus.OPEN:
        raise Conflict("the session has ended; open a new one")
    return session


def lock_open_session(uow: UnitOfWork, session: Session) -> Session:
    """Take the subject's lock, then read the session again: it must still be open.

    Ending a session takes the same lock, so a write under it either commits before the
    end (and the consolidation queued by the end sees it) or finds the session ended and
    raises Conflict. The first read, before the lock, may be stale.
    """
    uow.subjects.lock(session.subject_id)
    return require_open_session(uow, session.id)


def _record(uow: UnitOfWork, scope: TenantScope, session: Session, kind: EventKind) -> None:
    uow.record(
        kind,
        at=session.ended_at or session.opened_at,
        actor=scope.actor,
        subject_id=session.subject_id,
        session_id=session.id,
    )
