"""Revoking a key names its tenant: another tenant's key id revokes nothing.

On the key store (fake, SQLite, PostgreSQL) and through ``memory-service keys revoke
--tenant T KEY_ID`` on the embedded store.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from memory_service.bootstrap import Container
from memory_service.cli import app
from memory_service.core.model import Role
from tests.integration.conftest import Store
from tests.support.containers import migrated_container

runner = CliRunner()


def test_a_key_is_revoked_only_through_its_own_tenant(
    store: Store, tenant_id: str, other_tenant_id: str
) -> None:
    record, clear_key = store.keys.create(tenant_id, Role.AGENT)
    store.keys.create(other_tenant_id, Role.ADMIN)

    assert store.keys.revoke(other_tenant_id, record.id) is False
    assert store.keys.authenticate(clear_key) == record

    assert store.keys.revoke(tenant_id, record.id) is True
    assert store.keys.authenticate(clear_key) is None
    assert store.keys.revoke(tenant_id, record.id) is False


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def container(home: Path) -> Container:
    # The CLI revokes in a process of its own, which this container's key cache is not told
    # about (it would trust the key for up to MEMORY_SERVICE_KEY_CACHE_SECONDS): off here.
    return migrated_container(
        {"MEMORY_SERVICE_HOME": str(home), "MEMORY_SERVICE_KEY_CACHE_SECONDS": "0"}
    )


def _revoke(home: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["keys", "revoke", *args], env={"MEMORY_SERVICE_HOME": str(home)})
    return result.exit_code, result.stdout, result.stderr


def test_the_cli_revokes_a_key_of_the_named_tenant_only(home: Path, container: Container) -> None:
    record, clear_key = container.keys.create("t-cli-a", Role.AGENT)

    code, _, err = _revoke(home, "--tenant", "t-cli-b", record.id)
    assert code == 1 and "no active key" in err
    assert container.keys.authenticate(clear_key) == record

    code, out, _ = _revoke(home, "--tenant", "t-cli-a", record.id)
    assert code == 0 and record.id in out
    assert container.keys.authenticate(clear_key) is None


def test_the_cli_wants_the_tenant(home: Path, container: Container) -> None:
    record, clear_key = container.keys.create("t-cli-a", Role.AGENT)
    code, _, _ = _revoke(home, record.id)
    assert code != 0
    assert container.keys.authenticate(clear_key) == record
