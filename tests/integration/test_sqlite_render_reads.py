"""On SQLite, renders read outside any transaction (``database.reads_only``): no BEGIN, no
COMMIT, and the render engine refuses writes, as on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from memory_service.adapters.database import ReadOnlyViolation
from memory_service.adapters.statement_counter import count_statements
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.bootstrap import Container
from tests.support.containers import migrated_container


def _read_engine(container: Container) -> sa.Engine:
    reads = container.context.reads
    assert isinstance(reads, SqlUnitOfWorkFactory)
    return reads.engine


def test_on_sqlite_the_render_engine_sends_no_begin_and_refuses_writes(tmp_path: Path) -> None:
    container = migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path)})
    try:
        reads = _read_engine(container)
        with count_statements(reads, keep_sql=True) as found, reads.connect() as connection:
            assert connection.execute(sa.text("SELECT 1")).scalar_one() == 1
            connection.commit()
        assert (found.sql, found.commits) == (["SELECT 1"], 0)
        insert = sa.insert(sa.table("tenants", sa.column("id")))
        with reads.connect() as connection, pytest.raises(ReadOnlyViolation):
            connection.execute(insert, {"id": "t-x"})
        with reads.connect() as connection, pytest.raises(ReadOnlyViolation):
            connection.execute(sa.text("DELETE FROM tenants"))
        # The primary's pool still opens transactions and writes.
        with container.engine.begin() as connection:
            connection.execute(sa.text("CREATE TABLE yes (x int)"))
    finally:
        container.engine.dispose()
