"""A bad, missing or revoked key gets 401 on every endpoint; an agent key gets 403 on admin ones."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant, open_session
from tests.e2e.endpoints import ADMIN_ENDPOINTS, ENDPOINTS, Endpoint

IDS = {"session_id": "s-unknown", "subject_id": "subject-1", "memory_id": "m-unknown"}

BAD_HEADERS = {
    "missing": {},
    "not bearer": {"Authorization": "Basic dXNlcjpwYXNz"},
    "empty bearer": {"Authorization": "Bearer "},
    "made-up key": {"Authorization": "Bearer msk_this-key-was-never-issued"},
    "oversized key": {"Authorization": "Bearer " + "k" * 5000},
}


def _call(
    client: TestClient, endpoint: Endpoint, headers: dict[str, str], **ids: str
) -> httpx.Response:
    return client.request(
        endpoint.method, endpoint.url(**(IDS | ids)), json=endpoint.body, headers=headers
    )


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@pytest.mark.parametrize("case", sorted(BAD_HEADERS))
def test_a_bad_or_missing_key_is_unauthenticated(
    client: TestClient, endpoint: Endpoint, case: str
) -> None:
    response = _call(client, endpoint, BAD_HEADERS[case])
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "unauthenticated"
    assert response.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_a_revoked_key_is_unauthenticated(
    client: TestClient, container: Container, tenant: Tenant, endpoint: Endpoint
) -> None:
    session_id = open_session(client, tenant)
    assert container.keys.revoke(tenant.id, tenant.agent_key_id)
    response = _call(client, endpoint, tenant.agent, session_id=session_id)
    assert response.status_code == 401


@pytest.mark.parametrize("endpoint", ADMIN_ENDPOINTS, ids=str)
def test_an_agent_key_is_forbidden_on_admin_endpoints(
    client: TestClient, tenant: Tenant, endpoint: Endpoint
) -> None:
    response = _call(client, endpoint, tenant.agent)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"


def test_the_key_is_never_echoed_in_an_error(client: TestClient) -> None:
    secret = "msk_marker-" + "z" * 20
    response = client.get("/v1/subjects/s/context", headers={"Authorization": f"Bearer {secret}"})
    assert response.status_code == 401
    assert "marker" not in response.text
