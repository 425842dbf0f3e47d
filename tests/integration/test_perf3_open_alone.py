"""Opening a session in autocommit (``SqlSessionRepository.add``, PostgreSQL, session 8).

A unit of work that sent nothing yet holds the session back and sends it at its commit,
alone, in autocommit: the session with its audit event in one statement, the event only if
the session row was written. What must hold, on both databases (SQLite keeps its
transaction; the same guarantees):

- a unit of work left without its commit keeps nothing (the session is never sent);
- a read in the same unit of work sees the session (it is sent in the transaction first);
- every opened session has exactly one ``session.opened`` event, and no event names a
  session that is not there: for a returning subject, a new one and an erased one starting
  over;
- the statement whose session insert writes nothing (a subject with no key) writes no audit
  event either (PostgreSQL: checked on the statement itself);
- a unit of work that wrote before adding a session keeps both in one transaction, and a
  failure before its commit keeps neither.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.sql.convert import session_columns
from memory_service.adapters.sql.pending import bound_rows, rows_if_written, shape_of
from memory_service.adapters.sql.sessions import _alone_statement
from memory_service.adapters.tables import AuditEventRow, SessionRow
from memory_service.core.model import EventKind, Role
from memory_service.core.scope import TenantScope
from memory_service.services.sessions import open_session
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_event, make_session
from tests.support.fakes import FixedClock

SUBJECT = "cust-alone-1"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql(request: pytest.FixtureRequest, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    with sql_store(request.getfixturevalue(fixture), keyring, clock) as backend:
        yield backend


def _count(store: Store, table: sa.Table, tenant_id: str, **where: object) -> int:
    assert store.engine is not None
    statement = sa.select(sa.func.count()).select_from(table).where(table.c.tenant_id == tenant_id)
    for name, value in where.items():
        statement = statement.where(table.c[name] == value)
    with store.engine.connect() as connection:
        found: int = connection.execute(statement).scalar_one()
    return found


SESSIONS: sa.Table = SessionRow.__table__  # type: ignore[attr-defined]
AUDIT: sa.Table = AuditEventRow.__table__  # type: ignore[attr-defined]


def _open(store: Store, tenant_id: str, subject_id: str) -> str:
    scope = TenantScope(tenant_id, Role.AGENT, "key:test")
    session = open_session(scope, subject_id, uow_factory=store.uow_factory, clock=store.clock)
    return session.id


def _opened_events(store: Store, tenant_id: str) -> int:
    return _count(store, AUDIT, tenant_id, kind=EventKind.SESSION_OPENED.value)


def test_a_unit_of_work_left_without_its_commit_keeps_no_session(
    sql: Store, tenant_id: str
) -> None:
    _open(sql, tenant_id, SUBJECT)  # a returning subject from here on
    for subject in (SUBJECT, "cust-alone-3"):
        session = make_session(tenant_id, subject, sql.clock.now())
        with sql.uow_factory(tenant_id) as uow:
            uow.audit.append(make_event(tenant_id, subject, sql.clock.now()))
            uow.sessions.add(session)
        with sql.uow_factory(tenant_id) as uow:
            assert uow.sessions.get(session.id) is None
    assert _count(sql, SESSIONS, tenant_id) == 1
    assert _count(sql, AUDIT, tenant_id) == 1


def test_a_read_in_the_same_unit_of_work_sees_the_session(sql: Store, tenant_id: str) -> None:
    _open(sql, tenant_id, SUBJECT)
    session = make_session(tenant_id, SUBJECT, sql.clock.now())
    with sql.uow_factory(tenant_id) as uow:
        uow.sessions.add(session)
        assert uow.sessions.get(session.id) is not None
        uow.commit()
    with sql.uow_factory(tenant_id) as uow:
        assert uow.sessions.get(session.id) is not None


def test_every_session_has_one_opened_event_returning_new_and_erased_subjects(
    sql: Store, keyring: Keyring, tenant_id: str
) -> None:
    opened = [_open(sql, tenant_id, SUBJECT) for _ in range(3)]  # new, then returning
    opened.append(_open(sql, tenant_id, "cust-alone-2"))
    with sql.uow_factory(tenant_id) as uow:
        uow.erasure.erase_subject(SUBJECT)
        uow.commit()
    events_after_erasure = _opened_events(sql, tenant_id)
    again = _open(sql, tenant_id, SUBJECT)  # an erased subject starting over

    with sql.uow_factory(tenant_id) as uow:
        assert [s.id for s in uow.sessions.list_for_subject(SUBJECT)] == [again]
        assert uow.subjects.lock_if_present(SUBJECT) is True
        assert {s.id for s in uow.sessions.list_for_subject("cust-alone-2")} == {opened[-1]}
    assert _opened_events(sql, tenant_id) == events_after_erasure + 1
    assert _count(sql, SESSIONS, tenant_id) == 2  # the erased subject's three went with it
    assert keyring.store.destroy_keys(tenant_id, SUBJECT, at=sql.clock.now()) == 1


def test_a_unit_of_work_that_wrote_first_keeps_both_or_neither(sql: Store, tenant_id: str) -> None:
    _open(sql, tenant_id, SUBJECT)
    kept = make_session(tenant_id, SUBJECT, sql.clock.now())
    with sql.uow_factory(tenant_id) as uow:
        uow.subjects.lock(SUBJECT)  # a statement first: the session goes in the transaction
        uow.sessions.add(kept)
        uow.commit()
    lost = make_session(tenant_id, SUBJECT, sql.clock.now())
    with pytest.raises(RuntimeError), sql.uow_factory(tenant_id) as uow:
        uow.subjects.lock(SUBJECT)
        uow.sessions.add(lost)
        assert uow.sessions.get(lost.id) is not None
        raise RuntimeError("failed before the commit")
    with sql.uow_factory(tenant_id) as uow:
        assert uow.sessions.get(kept.id) is not None
        assert uow.sessions.get(lost.id) is None


@pytest.mark.postgres
def test_the_statement_writes_no_event_when_it_writes_no_session(
    pg_url: str, keyring: Keyring, clock: FixedClock, tenant_id: str
) -> None:
    with sql_store(pg_url, keyring, clock) as store:
        assert store.engine is not None
        session = make_session(tenant_id, "cust-alone-4", clock.now())
        event = make_event(tenant_id, session.subject_id, clock.now())
        with store.uow_factory(tenant_id) as uow:  # the event's row as the store queues it
            uow.audit.append(event)
            groups = uow._pending.take()  # type: ignore[attr-defined]
        values = {
            "id": session.id,
            "tenant_id": tenant_id,
            "subject_id": session.subject_id,
        }
        values |= session_columns(session)
        params = {f"s_{name}": value for name, value in values.items()} | bound_rows(groups)
        statement = rows_if_written(_alone_statement(tuple(values), keyed=False), shape_of(groups))
        with store.engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            assert connection.execute(statement, params).first() is None
        assert _count(store, SESSIONS, tenant_id) == 0
        assert _count(store, AUDIT, tenant_id) == 0
