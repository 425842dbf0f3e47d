"""The notes rate limit over HTTP: 429 ``rate_limited`` with ``Retry-After``, per API key."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from memory_service.adapters import migrate
from memory_service.api.app import create_app
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.model import Role
from tests.e2e.conftest import new_subject

RATE = 3


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Container]]:
    home: Path = tmp_path_factory.mktemp("rate-limited")
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(home), "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": str(RATE)}
    )
    migrate.upgrade(settings.database_url)
    container = build_container(settings)
    with TestClient(create_app(container), raise_server_exceptions=False) as client:
        yield client, container


def _key(container: Container, tenant: str, role: Role = Role.AGENT) -> dict[str, str]:
    _, clear = container.keys.create(tenant, role)
    return {"Authorization": f"Bearer {clear}"}


def _session(client: TestClient, headers: dict[str, str]) -> str:
    response = client.post("/v1/sessions", json={"subject_id": new_subject()}, headers=headers)
    assert response.status_code == 201, response.text
    return str(response.json()["session_id"])


def test_a_key_over_its_rate_gets_429_with_retry_after_and_nothing_stored(
    limited: tuple[TestClient, Container],
) -> None:
    client, container = limited
    tenant = f"t-{secrets.token_hex(4)}"
    agent, admin = _key(container, tenant), _key(container, tenant, Role.ADMIN)
    session_id = _session(client, agent)
    notes = f"/v1/sessions/{session_id}/notes"

    answers = [
        client.post(notes, json={"text": "Prefers aisle seats."}, headers=agent),
        client.post(notes, json={"text": "Maybe likes jazz?"}, headers=agent),  # rejected
        client.post(notes + "?dry_run=true", json={"text": "Vegetarian."}, headers=agent),
        client.post(notes, json={"text": "Speaks Portuguese at home."}, headers=agent),
    ]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused.json() == {
        "error": {"code": "rate_limited", "message": "too many notes for this API key; retry later"}
    }
    assert 1 <= int(refused.headers["Retry-After"]) <= 60 // RATE
    still_open = client.get(f"/v1/sessions/{session_id}/turns", headers=agent)
    assert still_open.status_code == 200
    listed = client.get(
        f"/v1/subjects/{_subject_of(container, tenant, session_id)}/memories", headers=admin
    ).json()
    assert "Speaks Portuguese" not in str(listed)
    assert len(listed["memories"]) == 1


def _subject_of(container: Container, tenant: str, session_id: str) -> str:
    with container.uow_factory(tenant) as uow:
        session = uow.sessions.get(session_id)
    assert session is not None
    return session.subject_id


def test_the_limit_is_per_key_and_other_endpoints_are_not_limited(
    limited: tuple[TestClient, Container],
) -> None:
    client, container = limited
    tenant = f"t-{secrets.token_hex(4)}"
    noisy, quiet = _key(container, tenant), _key(container, tenant)
    session_id = _session(client, noisy)
    notes = f"/v1/sessions/{session_id}/notes"
    for n in range(RATE):
        client.post(notes, json={"text": f"Prefers seat row {n + 10}."}, headers=noisy)
    assert client.post(notes, json={"text": "Likes tea."}, headers=noisy).status_code == 429

    assert client.post(notes, json={"text": "Likes tea."}, headers=quiet).status_code == 200
    assert client.post(f"/v1/sessions/{session_id}/end", headers=noisy).status_code == 202


def test_a_bad_key_is_401_not_429(limited: tuple[TestClient, Container]) -> None:
    client, container = limited
    tenant = f"t-{secrets.token_hex(4)}"
    agent = _key(container, tenant)
    session_id = _session(client, agent)
    notes = f"/v1/sessions/{session_id}/notes"
    for _ in range(RATE + 1):
        client.post(notes, json={"text": "Prefers trains."}, headers=agent)

    response = client.post(notes, json={"text": "x"}, headers={"Authorization": "Bearer msk_no"})

    assert response.status_code == 401
