"""The statements warmed in each worker process before its first task: nothing kept.

``memory_service.warm.warm_statements`` runs the hot paths (open, save, render, end,
consolidate) on a throwaway tenant in one transaction that is rolled back. Checked on SQLite
and PostgreSQL: every table of both databases (data, key store) holds the same rows after as
before; the hot requests still cost their pinned statements; and a consolidation run right
after the warm-up (a worker's first task) compiles nothing that a later task would find
cached: no statement it sends misses SQLAlchemy's compiled cache (structure, not timing).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine.default import CACHE_MISS

from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.bootstrap import Container
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services import consolidation, notes, sessions
from memory_service.warm import warm_statements
from tests.integration.test_statement_counts import (
    EXPECTED,
    KEY_STORE_EXPECTED,
    App,
    app,  # noqa: F401  (the pinned counts' fixture: the same app on both databases)
    measure,
)
from tests.support.containers import ended_session, migrated_container
from tests.support.scratch_database import scratch_postgres_service


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    home = {"MEMORY_SERVICE_HOME": str(tmp_path), "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
    if request.param == "sqlite":
        yield "sqlite", home
        return
    with scratch_postgres_service(request.getfixturevalue("postgres_url")) as found:
        yield "postgres", found | home


AUDIT_SEQUENCE = "audit_events_seq_seq"


def _rows(engine: sa.Engine) -> dict[str, int]:
    tables = sa.inspect(engine).get_table_names()
    with engine.connect() as connection:
        return {
            table: connection.execute(sa.text(f'SELECT count(*) FROM "{table}"')).scalar_one()
            for table in tables
        }


def _sequences(engine: sa.Engine) -> dict[str, int]:
    if engine.dialect.name != "postgresql":
        return {}
    with engine.connect() as connection:
        found = connection.execute(
            sa.text("SELECT sequencename, coalesce(last_value, 0) FROM pg_sequences")
        )
        return {name: value for name, value in found}


def _everything(container: Container) -> dict[str, object]:
    store = container.keyring.store
    assert isinstance(store, SqlDataKeyStore)
    return {
        "data": _rows(container.engine),
        "keys": _rows(store.engine),
        "sequences": _sequences(container.engine),
        "metrics": _metric_samples(container),
    }


def _metric_samples(container: Container) -> list[tuple[str, float]]:
    registry: Any = getattr(container.metrics, "registry", None)
    if registry is None:
        return []
    return sorted(
        (sample.name + str(sorted(sample.labels.items())), sample.value)
        for family in registry.collect()
        for sample in family.samples
        if not sample.name.endswith("_created")
    )


def _a_subject_with_data(container: Container) -> None:
    """Something already stored, so 'nothing changed' is checked against rows."""
    scope = TenantScope(f"t-{secrets.token_hex(4)}", Role.AGENT, "key:test")
    session = sessions.open_session(
        scope, "subject-1", uow_factory=container.uow_factory, clock=container.clock
    )
    notes.save_memory_note(
        scope,
        session.id,
        {"text": "Prefers tea to coffee.", "keywords": ["tea"]},
        deps=container.notes,
    )


def test_the_warm_up_leaves_nothing_behind(
    env: tuple[str, dict[str, str]], caplog: pytest.LogCaptureFixture
) -> None:
    container = migrated_container(env[1])
    try:
        _a_subject_with_data(container)
        before = _everything(container)
        with caplog.at_level(logging.INFO):
            assert warm_statements(container, rounds=2, budget_seconds=60) == 2
        after = _everything(container)
        # A rolled-back INSERT still takes its number from a sequence (as a failed save
        # does): the audit events' ``seq`` orders events of one instant, and gaps in it are
        # ordinary. No other sequence moves.
        moved, was = after.pop("sequences"), before.pop("sequences")
        assert isinstance(moved, dict) and isinstance(was, dict)
        assert moved.pop(AUDIT_SEQUENCE, 0) >= was.pop(AUDIT_SEQUENCE, 0)
        assert moved == was
        assert after == before
        assert container.manifests is not None
        container.manifests.flush()
        assert _rows(container.engine) == before["data"]
        # Only the warm-up's own line: no service's log line names the throwaway session.
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
        assert len(lines) == 1 and lines[0].startswith("statements warmed"), lines
    finally:
        container.engine.dispose()


def test_a_first_consolidation_after_the_warm_up_compiles_nothing(
    env: tuple[str, dict[str, str]],
) -> None:
    container = migrated_container(env[1])
    try:
        scope = TenantScope(f"t-{secrets.token_hex(4)}", Role.AGENT, "key:test")
        # Set up in another process's stead: on an engine of its own.
        setup = migrated_container(env[1])
        session_id = ended_session(
            setup,
            scope,
            "subject-1",
            (("Now uses Vim as editor.", "editor"), ("Drinks tea.", "tea")),
        )
        setup.engine.dispose()

        assert warm_statements(container, rounds=1, budget_seconds=60) == 1
        hits: list[object] = []

        def on_execute(*args: Any) -> None:
            context = args[4]
            if context.compiled is not None:
                hits.append((context.cache_hit, args[2][:150]))

        sa.event.listen(container.engine, "after_cursor_execute", on_execute)
        try:
            report = consolidation.consolidate_session(
                scope.tenant_id, session_id, deps=container.consolidation
            )
        finally:
            sa.event.remove(container.engine, "after_cursor_execute", on_execute)
        assert report is not None and report.created >= 1
        # A miss is a statement compiled now and cached for the next task: the warm-up's job.
        # One with no cache key (a multi-row VALUES) is compiled at every task, first or tenth.
        assert hits and not [found for found in hits if found[0] == CACHE_MISS], hits
    finally:
        container.engine.dispose()


def test_the_hot_requests_cost_their_pinned_statements_after_the_warm_up(app: App) -> None:  # noqa: F811
    assert warm_statements(app.container, budget_seconds=60) > 0
    counts = measure(app)
    found = {name: (count.statements, count.commits) for name, (count, _) in counts.items()}
    assert found == EXPECTED[app.backend], {name: count.sql for name, (count, _) in counts.items()}
    key_store = {name: keys for name, (_, keys) in counts.items() if keys}
    assert key_store == KEY_STORE_EXPECTED[app.backend]
