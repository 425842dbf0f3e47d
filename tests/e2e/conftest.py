"""The assembled app over HTTP (in-process ASGI) on a migrated SQLite store.

One store for the whole run; every test makes its own random tenants, so nothing
needs cleaning up and tests never see each other's rows.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.core.model import Role
from tests.factories import random_subject_id
from tests.support.containers import migrated_container


@pytest.fixture(scope="session")
def service_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("service-home")


@pytest.fixture(scope="session")
def container(service_home: Path) -> Container:
    return migrated_container({"MEMORY_SERVICE_HOME": str(service_home)})


@pytest.fixture(scope="session")
def client(container: Container) -> Iterator[TestClient]:
    with TestClient(create_app(container), raise_server_exceptions=False) as test_client:
        yield test_client


@dataclass(frozen=True)
class Tenant:
    id: str
    agent: dict[str, str]
    admin: dict[str, str]
    agent_key_id: str


def create_tenant(container: Container) -> Tenant:
    """A random tenant with one agent key and one admin key, as bearer headers."""
    tenant_id = f"t-{secrets.token_hex(6)}"
    agent_record, agent_key = container.keys.create(tenant_id, Role.AGENT)
    _, admin_key = container.keys.create(tenant_id, Role.ADMIN)
    return Tenant(
        id=tenant_id,
        agent={"Authorization": f"Bearer {agent_key}"},
        admin={"Authorization": f"Bearer {admin_key}"},
        agent_key_id=agent_record.id,
    )


@pytest.fixture
def make_tenant(container: Container) -> Callable[[], Tenant]:
    return lambda: create_tenant(container)


@pytest.fixture
def tenant(make_tenant: Callable[[], Tenant]) -> Tenant:
    return make_tenant()


def new_subject() -> str:
    return random_subject_id("subject")


def open_session(client: TestClient, tenant: Tenant, subject: str | None = None) -> str:
    response = client.post(
        "/v1/sessions", json={"subject_id": subject or new_subject()}, headers=tenant.agent
    )
    assert response.status_code == 201, response.text
    session_id: str = response.json()["session_id"]
    return session_id
