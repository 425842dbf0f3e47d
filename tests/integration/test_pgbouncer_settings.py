"""Behind PgBouncer in transaction mode: ``MEMORY_SERVICE_PG_PREPARED_STATEMENTS=0`` keeps
psycopg 3 from preparing statements on the server (a statement prepared on one server
connection is unknown to the next transaction's). Checked on the real server's own view of a
connection's prepared statements, after a statement ran more often than psycopg's threshold."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from memory_service.adapters.database import create_engine_for
from memory_service.config import Settings

pytestmark = pytest.mark.postgres

PREPARED = text("SELECT count(*) FROM pg_prepared_statements")


def prepared_after_repeats(url: str, *, prepared_statements: bool) -> int:
    engine = create_engine_for(url, prepared_statements=prepared_statements)
    try:
        with engine.connect() as connection:
            for _ in range(10):
                connection.execute(text("SELECT 1 WHERE 1 = :one"), {"one": 1}).all()
            count: int = connection.execute(PREPARED).scalar_one()
            return count
    finally:
        engine.dispose()


def test_prepared_statements_can_be_turned_off_for_transaction_pooling(pg_url: str) -> None:
    assert prepared_after_repeats(pg_url, prepared_statements=True) >= 1  # psycopg's default
    assert prepared_after_repeats(pg_url, prepared_statements=False) == 0


def test_the_setting_reads_the_environment() -> None:
    assert Settings.from_env({}).pg_prepared_statements is True
    off = Settings.from_env({"MEMORY_SERVICE_PG_PREPARED_STATEMENTS": "0"})
    assert off.pg_prepared_statements is False
