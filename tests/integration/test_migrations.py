"""Alembic alone builds the schema: up, down to nothing, up again, and it matches the tables."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from memory_service.adapters import migrate
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.tables import SQLModel


def _table_names(url: str) -> set[str]:
    engine = create_engine_for(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _schema_differences(url: str) -> list[object]:
    engine = create_engine_for(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, SQLModel.metadata))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def migrated_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url"))


def test_upgrade_downgrade_upgrade_ends_matching_the_tables(migrated_url: str) -> None:
    expected = {table.name for table in SQLModel.metadata.sorted_tables}
    assert _table_names(migrated_url) == expected

    migrate.downgrade(migrated_url, "base")
    assert _table_names(migrated_url) == set()

    migrate.upgrade(migrated_url)
    assert _table_names(migrated_url) == expected
    assert _schema_differences(migrated_url) == []


def test_the_migrated_schema_has_the_hot_query_indexes(migrated_url: str) -> None:
    engine = create_engine_for(migrated_url)
    try:
        indexes = {
            index["name"]: index["column_names"]
            for index in inspect(engine).get_indexes("memories")
        }
    finally:
        engine.dispose()
    assert indexes["ix_memories_subject_recent"] == [
        "tenant_id",
        "subject_id",
        "status",
        "scope",
        "updated_at",
    ]
    assert indexes["ix_memories_fingerprint"] == ["tenant_id", "subject_id", "text_fingerprint"]
