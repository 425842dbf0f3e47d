"""Renders read only: on ``DATABASE_READ_URL`` when set, each statement on its own (no
transaction: its BEGIN and COMMIT were two round trips) on an engine that refuses anything
but a ``SELECT``, their manifests written afterwards by the queue (which skips erased
subjects)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from memory_service.adapters.database import ReadOnlyViolation
from memory_service.adapters.sql.manifests import write_manifests
from memory_service.adapters.statement_counter import count_statements
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.config import ConfigurationError, Settings
from memory_service.core.clock import new_id
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services.admin import erase_subject
from tests.support.containers import migrated_container
from tests.support.scratch_database import scratch_postgres_service
from tests.support.wire_trace import sent_messages, traced

pytestmark = pytest.mark.postgres


@pytest.fixture
def service(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Container, dict[str, str]]]:
    with scratch_postgres_service(postgres_url) as env:
        # The replica is the same database through a second engine: what it served is what
        # that engine counted.
        env = env | {"DATABASE_READ_URL": env["DATABASE_URL"], "MEMORY_SERVICE_HOME": str(tmp_path)}
        container = migrated_container(env)
        yield container, env
        assert container.manifests is not None
        container.manifests.close()
        container.engine.dispose()


def _read_engine(container: Container) -> sa.Engine:
    reads = container.context.reads
    assert isinstance(reads, SqlUnitOfWorkFactory)
    return reads.engine


def test_a_render_reads_on_the_replica_and_its_manifest_is_written_on_the_primary(
    service: tuple[Container, dict[str, str]],
) -> None:
    container, _ = service
    tenant = f"t-{secrets.token_hex(6)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    headers = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(container)) as client:
        opened = client.post("/v1/sessions", json={"subject_id": "subject-1"}, headers=headers)
        session_id = opened.json()["session_id"]
        with (
            count_statements(container.engine) as primary,
            count_statements(_read_engine(container)) as replica,
        ):
            response = client.get(
                "/v1/subjects/subject-1/context", params={"session_id": session_id}, headers=headers
            )
    assert response.status_code == 200, response.text
    # Nothing on the primary: the key was verified when the session opened and is read from the
    # API's key cache (a cold cache adds its one lookup there).
    assert (replica.statements, primary.statements) == (2, 0)
    assert container.manifests is not None
    container.manifests.flush()
    with container.uow_factory(tenant) as uow:
        stored = uow.manifests.get(response.json()["manifest"]["id"])
    assert stored is not None and stored.session_id == session_id


def test_the_read_connection_refuses_writes_and_leaves_the_primary_writable(
    service: tuple[Container, dict[str, str]],
) -> None:
    container, _ = service
    insert = sa.text(
        "INSERT INTO tenants (id, name, created_at, policy) VALUES (:id, 'x', now(), '{}')"
    )
    with _read_engine(container).connect() as connection, pytest.raises(ReadOnlyViolation):
        connection.execute(insert, {"id": f"t-{secrets.token_hex(6)}"})
    with container.engine.begin() as connection:  # the pool's connections are not left read only
        connection.execute(insert, {"id": f"t-{secrets.token_hex(6)}"})


def test_the_primary_is_read_only_for_renders_without_a_replica(
    postgres_url: str, tmp_path: Path
) -> None:
    with scratch_postgres_service(postgres_url) as env:
        container = migrated_container(env | {"MEMORY_SERVICE_HOME": str(tmp_path)})
        try:
            with _read_engine(container).connect() as connection, pytest.raises(ReadOnlyViolation):
                connection.execute(sa.text("CREATE TABLE nope (x int)"))
            # The refusal is the render engine's: the same pool still writes for the others.
            with container.engine.begin() as connection:
                connection.execute(sa.text("CREATE TABLE yes (x int)"))
        finally:
            container.engine.dispose()


def test_a_render_sends_its_two_selects_and_nothing_else(
    service: tuple[Container, dict[str, str]], tmp_path: Path
) -> None:
    """Counted on the wire (libpq's trace of the render's connection): no ping, no BEGIN,
    no COMMIT, two statements."""
    container, _ = service
    tenant = f"t-{secrets.token_hex(6)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    headers = {"Authorization": f"Bearer {key}"}
    trace = tmp_path / "trace.log"
    with TestClient(create_app(container)) as client:
        opened = client.post("/v1/sessions", json={"subject_id": "subject-1"}, headers=headers)
        path = "/v1/subjects/subject-1/context"
        params = {"session_id": opened.json()["session_id"]}
        assert client.get(path, params=params, headers=headers).status_code == 200  # warm
        with trace.open("w") as file, traced(_read_engine(container), file.fileno()):
            assert client.get(path, params=params, headers=headers).status_code == 200
    sent = sent_messages(trace)
    assert [kind for kind in sent if kind in ("Query", "Parse", "Execute")] == [
        "Parse",
        "Execute",
        "Parse",
        "Execute",
    ], sent


def test_a_replica_needs_postgresql(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "DATABASE_READ_URL": "postgresql://db/replica"}
    )
    with pytest.raises(ConfigurationError, match="DATABASE_READ_URL"):
        _ = settings.read_database_url
    with pytest.raises(ConfigurationError, match="DATABASE_READ_URL"):
        Settings.from_env({"DATABASE_READ_URL": "sqlite:///elsewhere.db"})


def test_the_manifests_of_a_subject_erased_before_their_batch_are_not_stored(
    service: tuple[Container, dict[str, str]],
) -> None:
    container, _ = service
    tenant = f"t-{secrets.token_hex(6)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    with TestClient(create_app(container)) as client:
        for subject in ("kept-1", "erased-2"):
            client.post(
                "/v1/sessions",
                json={"subject_id": subject},
                headers={"Authorization": f"Bearer {key}"},
            )
    now = container.clock.now()
    manifests = [
        StoredManifest(new_id(), tenant, subject, None, now, now + timedelta(days=1), {"items": []})
        for subject in ("kept-1", "erased-2", "never-3")
    ]
    erase_subject(TenantScope(tenant, Role.ADMIN, actor="test"), "erased-2", deps=container.admin)

    assert write_manifests(container.engine, manifests, clock=container.clock) == 2

    with container.engine.connect() as connection:
        stored = connection.execute(
            sa.text("SELECT subject_id FROM context_manifests WHERE tenant_id = :t"), {"t": tenant}
        ).scalars()
        assert sorted(stored) == ["kept-1", "never-3"]
