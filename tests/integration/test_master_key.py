"""One master key or none: only the embedded default makes one; a wrong one stops at start.

A canary sealed at the first start lets every later process (and ``/healthz``) check that
its master key opens the key store's data keys, instead of failing on the first read.
``keys rotate-master`` re-wraps every data key without touching the data.
"""

from __future__ import annotations

import base64
import secrets
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_service.adapters.crypto import Keyring
from memory_service.bootstrap import Container, build_keyring
from memory_service.cli import app
from memory_service.config import ConfigurationError, Settings
from memory_service.core.model import SubjectState
from tests.support.containers import migrated_container
from tests.support.fakes import FixedClock


def _put_state(container: Container, tenant: str, subject: str) -> None:
    with container.uow_factory(tenant) as uow:
        uow.subjects.put_state(SubjectState(tenant, subject, {"plan": "pro"}, FixedClock().now()))
        uow.commit()


def _state(container: Container, tenant: str, subject: str) -> object:
    with container.uow_factory(tenant) as uow:
        state = uow.subjects.get_state(subject)
    return state.state if state else None


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return list(connection.iterdump())


def test_a_process_with_another_data_directory_is_refused_at_start(tmp_path: Path) -> None:
    """The data sits in home A; a process started with home B must not make its own key."""
    home_a = tmp_path / "a"
    migrated_container({"MEMORY_SERVICE_HOME": str(home_a)}).engine.dispose()
    elsewhere = Settings.from_env(
        {
            "MEMORY_SERVICE_HOME": str(tmp_path / "b"),
            "DATABASE_URL": f"sqlite:///{home_a / 'memory.db'}",
        }
    )
    with pytest.raises(ConfigurationError, match="MEMORY_SERVICE_MASTER_KEY is required"):
        build_keyring(elsewhere)
    assert not (tmp_path / "b" / "master.key").exists()


def test_postgresql_without_a_master_key_is_refused(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "MEMORY_SERVICE_HOME": str(tmp_path),
            "DATABASE_URL": "postgresql://db/memory",
            "KEYSTORE_URL": "postgresql://db/keys",
        }
    )
    with pytest.raises(ConfigurationError, match="MEMORY_SERVICE_MASTER_KEY"):
        settings.master_key()
    assert not (tmp_path / "master.key").exists()


def test_postgresql_without_a_key_store_is_refused(tmp_path: Path) -> None:
    settings = Settings.from_env({"DATABASE_URL": "postgresql://db/memory"})
    with pytest.raises(ConfigurationError, match="KEYSTORE_URL"):
        _ = settings.keystore_url


def test_the_key_store_cannot_be_the_memory_database(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "MEMORY_SERVICE_HOME": str(tmp_path),
            "KEYSTORE_URL": f"sqlite:///{tmp_path / 'memory.db'}",
        }
    )
    with pytest.raises(ConfigurationError, match="another database"):
        build_keyring(settings)


def test_a_wrong_master_key_stops_at_start_and_fails_the_health_check(tmp_path: Path) -> None:
    env = {"MEMORY_SERVICE_HOME": str(tmp_path)}
    container = migrated_container(env)
    _put_state(container, "t-1", "s-1")
    wrong = base64.b64encode(secrets.token_bytes(32)).decode()

    with pytest.raises(ConfigurationError, match="does not open"):
        build_keyring(Settings.from_env(env | {"MEMORY_SERVICE_MASTER_KEY": wrong}))
    assert container.check_dependencies()["keys"] == "ok"
    # A process that somehow runs with the wrong key reports it instead of answering 500s.
    container.keyring = Keyring(secrets.token_bytes(32), container.keyring.store)
    assert container.check_dependencies()["keys"] == "wrong_master_key"
    container.engine.dispose()


def test_rotating_the_master_key_rewraps_every_data_key_and_leaves_the_data(
    tmp_path: Path,
) -> None:
    env = {"MEMORY_SERVICE_HOME": str(tmp_path)}
    container = migrated_container(env)
    for subject in ("s-1", "s-2"):
        _put_state(container, "t-1", subject)
    data_before = _dump(tmp_path / "memory.db")
    old_key = (tmp_path / "master.key").read_text()
    container.engine.dispose()

    result = CliRunner().invoke(app, ["keys", "rotate-master"], env=env)

    assert result.exit_code == 0, result.output
    assert "re-wrapped 2 data keys" in result.output
    assert (tmp_path / "master.key").read_text() != old_key
    assert (tmp_path / "master.key").stat().st_mode & 0o777 == 0o600
    assert _dump(tmp_path / "memory.db") == data_before  # the data is not touched
    rotated = migrated_container(env)
    assert _state(rotated, "t-1", "s-1") == {"plan": "pro"}
    rotated.engine.dispose()
    with pytest.raises(ConfigurationError, match="does not open"):
        build_keyring(Settings.from_env(env | {"MEMORY_SERVICE_MASTER_KEY": old_key}))


def test_data_files_are_created_owner_only(tmp_path: Path) -> None:
    container = migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path)})
    _put_state(container, "t-1", "s-1")
    for name in ("memory.db", "memory.db-wal", "keys.db", "master.key"):
        path = tmp_path / name
        assert path.exists(), name
        assert path.stat().st_mode & 0o777 == 0o600, name
    container.engine.dispose()


@pytest.mark.parametrize("command", ["serve", "worker", "beat"])
def test_serve_worker_and_beat_stop_at_start_on_a_wrong_master_key(
    tmp_path: Path, command: str
) -> None:
    env = {"MEMORY_SERVICE_HOME": str(tmp_path)}
    migrated_container(env).engine.dispose()  # the canary is sealed with the generated key
    wrong = base64.b64encode(secrets.token_bytes(32)).decode()
    result = CliRunner().invoke(
        app,
        [command],
        env=env | {"MEMORY_SERVICE_MASTER_KEY": wrong, "REDIS_URL": "redis://127.0.0.1:1/0"},
    )
    assert result.exit_code == 2
    assert "does not open" in result.output
