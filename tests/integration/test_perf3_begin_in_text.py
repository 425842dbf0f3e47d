"""A save's transaction opens in its first statement's text (PostgreSQL, session 8).

``database.begin_with_first_statement``: the connection is taken in autocommit and the
session read with its subject's lock goes as ``BEGIN; SELECT ... FOR UPDATE`` in one query.
What must hold: the statements after it run in that one transaction (the lock is held until
it ends, a failure before the commit keeps nothing), the commit commits, and the connection
goes back to the pool as it came (not in autocommit, binding server-side).
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import begin_with_first_statement
from memory_service.adapters.statement_counter import count_statements
from memory_service.adapters.tables import AuditEventRow, SubjectRow
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services.sessions import open_session
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_event
from tests.support.fakes import FixedClock

pytestmark = pytest.mark.postgres

SUBJECT = "cust-begin-1"
AUDIT: sa.Table = AuditEventRow.__table__  # type: ignore[attr-defined]
SUBJECTS: sa.Table = SubjectRow.__table__  # type: ignore[attr-defined]


@pytest.fixture
def pg(pg_url: str, keyring: Keyring, clock: FixedClock) -> Iterator[Store]:
    with sql_store(pg_url, keyring, clock) as backend:
        yield backend


def _session_id(store: Store, tenant_id: str) -> str:
    scope = TenantScope(tenant_id, Role.AGENT, "key:test")
    return open_session(scope, SUBJECT, uow_factory=store.uow_factory, clock=store.clock).id


def _lock_taken_elsewhere(store: Store, tenant_id: str) -> bool:
    assert store.engine is not None
    statement = (
        sa.select(SUBJECTS.c.subject_id)
        .where(SUBJECTS.c.tenant_id == tenant_id, SUBJECTS.c.subject_id == SUBJECT)
        .with_for_update(nowait=True)
    )
    with store.engine.connect() as other:
        try:
            other.execute(statement).all()
        except OperationalError as exc:
            assert isinstance(exc.orig, psycopg.errors.LockNotAvailable)
            return False
        other.rollback()
    return True


def test_the_lock_is_held_until_the_transaction_ends(pg: Store, tenant_id: str) -> None:
    session_id = _session_id(pg, tenant_id)
    assert pg.engine is not None
    with count_statements(pg.engine, keep_sql=True) as count, pg.uow_factory(tenant_id) as uow:
        assert uow.notes.session_with_subject(session_id, lock=True) is not None
        assert not _lock_taken_elsewhere(pg, tenant_id)  # held: the transaction is open
        uow.commit()
    assert count.sql[0].startswith("BEGIN; SELECT")
    assert count.commits == 1
    assert _lock_taken_elsewhere(pg, tenant_id)  # released by the commit


def test_a_failure_before_the_commit_keeps_nothing(pg: Store, tenant_id: str) -> None:
    session_id = _session_id(pg, tenant_id)
    assert pg.engine is not None
    with pytest.raises(RuntimeError), pg.uow_factory(tenant_id) as uow:
        assert uow.notes.session_with_subject(session_id, lock=True) is not None
        uow.audit.append(make_event(tenant_id, SUBJECT, pg.clock.now()))
        uow._pending.send()  # type: ignore[attr-defined]  # the INSERT is sent
        raise RuntimeError("failed before the commit")
    with pg.engine.connect() as connection:
        kinds = connection.execute(
            sa.select(AUDIT.c.kind).where(AUDIT.c.tenant_id == tenant_id)
        ).scalars()
        assert list(kinds) == ["session.opened"]
    assert _lock_taken_elsewhere(pg, tenant_id)


def test_the_connection_goes_back_to_the_pool_as_it_came(pg: Store, tenant_id: str) -> None:
    session_id = _session_id(pg, tenant_id)
    assert pg.engine is not None
    for _ in range(3):
        with pg.uow_factory(tenant_id) as uow:
            uow.notes.session_with_subject(session_id, lock=True)
            uow.commit()
        with pg.engine.connect() as connection:
            driver = connection.connection.driver_connection
            assert isinstance(driver, psycopg.Connection)
            assert driver.autocommit is False
            assert driver.cursor_factory is psycopg.Cursor
            assert connection.execute(sa.text("SELECT 1")).scalar_one() == 1


def test_a_first_statement_of_many_parameter_sets_gets_a_begin_of_its_own(
    pg: Store, tenant_id: str
) -> None:
    """``executemany`` cannot carry the ``BEGIN`` in its text: it is sent alone first, so
    the statement still runs in the transaction, never in autocommit."""
    with pg.uow_factory(tenant_id) as uow:
        session = uow._session  # type: ignore[attr-defined]
        connection = begin_with_first_statement(session)
        connection.execute(sa.text("SELECT CAST(:x AS int)"), [{"x": 1}, {"x": 2}])
        driver = connection.connection.driver_connection
        assert isinstance(driver, psycopg.Connection)
        assert driver.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert driver.cursor_factory is psycopg.Cursor
