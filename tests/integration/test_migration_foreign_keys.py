"""SQLite migrations run with foreign keys off, then check them before they commit.

A batch migration rebuilds a table by copying it and dropping the original; with foreign
keys on, that ``DROP TABLE`` deletes the rows first and cascades to the children (a
session's turns and history). Each test adds one revision of its own on top of the real
ones, in a copy of the migrations directory.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from memory_service.adapters import migrate
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.core.trimming import Turn
from tests.integration.conftest import sql_store
from tests.integration.records import make_session
from tests.support.fakes import FixedClock

TENANT = "t-migrations"
SUBJECT = "cust-migrations-1"

REBUILD_SESSIONS = """
def upgrade() -> None:
    with op.batch_alter_table("sessions", recreate="always"):
        pass
"""

ORPHAN_TURN = """
def upgrade() -> None:
    op.execute(
        "INSERT INTO session_turns (tenant_id, session_id, turn, role, content_ciphertext,"
        " created_at) VALUES ('t-none', 'no-such-session', 1, 'user', x'00',"
        " '2026-01-01 00:00:00')"
    )
"""


def _with_revision(tmp_path: Path, url: str, body: str) -> tuple[Config, str]:
    """A copy of the migrations with one more revision on top; returns its config and head."""
    source = Path(migrate.alembic_config(url).get_main_option("script_location") or "")
    scripts = tmp_path / "migrations"
    shutil.copytree(source, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    head = ScriptDirectory(str(source)).get_current_head()
    (scripts / "versions" / "9999_test_only.py").write_text(
        f'"""Test only."""\n\nfrom alembic import op\n\nrevision = "9999"\n'
        f"down_revision = {head!r}\nbranch_labels = None\ndepends_on = None\n"
        f"{body}\n\ndef downgrade() -> None:\n    pass\n"
    )
    config = Config()
    config.set_main_option("script_location", str(scripts))
    config.attributes["database_url"] = url
    assert head is not None
    return config, head


def _version(url: str) -> str:
    engine = create_engine_for(url)
    try:
        with engine.connect() as connection:
            return str(connection.execute(text("SELECT version_num FROM alembic_version")).scalar())
    finally:
        engine.dispose()


def test_rebuilding_a_parent_table_keeps_its_children(
    sqlite_url: str, tmp_path: Path, keyring: Keyring, clock: FixedClock
) -> None:
    session = make_session(TENANT, SUBJECT, clock.now())
    turn = Turn(index=1, role="user", content="Hello there.", created_at=clock.now())
    with sql_store(sqlite_url, keyring, clock) as store:
        with store.uow_factory(TENANT) as uow:
            uow.sessions.add(session)
            uow.turns.put(session, turn)
            uow.commit()
        config, _ = _with_revision(tmp_path, sqlite_url, REBUILD_SESSIONS)

        command.upgrade(config, "head")

        assert _version(sqlite_url) == "9999"
        with store.uow_factory(TENANT) as uow:
            assert uow.sessions.get(session.id) == session
            assert uow.turns.list(session) == [turn]


def test_a_migration_that_breaks_a_foreign_key_is_rolled_back(
    sqlite_url: str, tmp_path: Path
) -> None:
    config, head = _with_revision(tmp_path, sqlite_url, ORPHAN_TURN)

    with pytest.raises(RuntimeError, match="session_turns"):
        command.upgrade(config, "head")

    assert _version(sqlite_url) == head
    engine = create_engine_for(sqlite_url)
    try:
        with engine.connect() as connection:
            orphans = connection.execute(text("SELECT COUNT(*) FROM session_turns")).scalar()
            foreign_keys = connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
    finally:
        engine.dispose()
    assert orphans == 0
    assert foreign_keys == 1  # the service's own connections keep them on
