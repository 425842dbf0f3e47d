"""``memory-service reindex`` on the embedded store: the backfill of the term index."""

from __future__ import annotations

import secrets
from pathlib import Path

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from memory_service.adapters import migrate
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.tables import MemoryTermRow
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.bootstrap import build_keyring
from memory_service.cli import app
from memory_service.config import Settings
from memory_service.core.consolidation import candidate_terms
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock

runner = CliRunner()


def test_reindex_files_the_global_memories_an_upgrade_left_unindexed(tmp_path: Path) -> None:
    env = {"MEMORY_SERVICE_HOME": str(tmp_path)}
    settings = Settings.from_env(env)
    migrate.upgrade(settings.database_url)
    engine = create_engine_for(settings.database_url)
    tenant = f"t-{secrets.token_hex(5)}"
    memories = [
        make_memory(tenant, subject, FixedClock().now(), text="Uses VS Code as editor.")
        for subject in ("cust-1", "cust-2")
    ]
    try:
        factory = SqlUnitOfWorkFactory(engine, build_keyring(settings))
        with factory(tenant) as uow:
            for memory in memories:
                uow.memories.add(memory)
            uow.commit()
        # As a database upgraded to the revision that added the table finds itself.
        with Session(engine) as db:
            db.execute(delete(MemoryTermRow))
            db.commit()

        result = runner.invoke(app, ["reindex", "--tenant", tenant], env=env)

        assert result.exit_code == 0, result.stderr
        assert result.stdout.strip() == "re-indexed 2 global memories of 2 subjects"
        with Session(engine) as db:
            rows = db.scalar(select(func.count()).select_from(MemoryTermRow))
        assert rows == sum(len(candidate_terms(memory)) for memory in memories)
    finally:
        engine.dispose()


def test_reindex_refuses_a_malformed_tenant(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["reindex", "--tenant", "Not A Slug"], env={"MEMORY_SERVICE_HOME": str(tmp_path)}
    )

    assert result.exit_code == 2
    assert "tenant must be" in result.stderr
