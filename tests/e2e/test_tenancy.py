"""Tenant A's keys cannot read, write, end, or learn of tenant B's sessions, subjects or memories.

For every endpoint, a call by tenant A naming tenant B's ids must answer exactly as the same call
naming ids that exist nowhere; afterwards tenant B's data is as it was.
"""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from memory_service.core.model import SessionStatus
from tests.e2e.conftest import Tenant, new_subject, open_session
from tests.e2e.endpoints import ENDPOINTS, Endpoint

VOLATILE = {"session_id", "opened_at", "updated_at", "ended_at", "subject_id", "id", "erased_at"}


def _stable(body: Any) -> Any:
    """The response with per-call values (fresh ids, times, echoed subject) blanked out."""
    if isinstance(body, dict):
        return {key: "*" if key in VOLATILE else _stable(value) for key, value in body.items()}
    if isinstance(body, list):
        return [_stable(item) for item in body]
    return body


def _call(
    client: TestClient, endpoint: Endpoint, headers: dict[str, str], ids: dict[str, str]
) -> httpx.Response:
    return client.request(endpoint.method, endpoint.url(**ids), json=endpoint.body, headers=headers)


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
def test_another_tenants_ids_answer_like_ids_that_do_not_exist(
    client: TestClient,
    container: Container,
    make_tenant: Any,
    endpoint: Endpoint,
) -> None:
    tenant_a: Tenant = make_tenant()
    tenant_b: Tenant = make_tenant()
    subject_b = new_subject()
    session_b = open_session(client, tenant_b, subject_b)
    state_b = {"plan": "enterprise"}
    put = client.put(
        f"/v1/subjects/{subject_b}/state", json={"state": state_b}, headers=tenant_b.agent
    )
    assert put.status_code == 200
    b_ids = {"session_id": session_b, "subject_id": subject_b, "memory_id": secrets.token_hex(8)}
    unknown_ids = {
        "session_id": secrets.token_hex(8),
        "subject_id": new_subject(),
        "memory_id": secrets.token_hex(8),
    }
    headers = tenant_a.admin if endpoint.role == "admin" else tenant_a.agent

    against_b = _call(client, endpoint, headers, b_ids)
    against_nothing = _call(client, endpoint, headers, unknown_ids)

    assert against_b.status_code == against_nothing.status_code
    assert _stable(against_b.json()) == _stable(against_nothing.json())
    assert against_b.status_code != 500

    with container.uow_factory(tenant_b.id) as uow:
        session = uow.sessions.get(session_b)
        state = uow.subjects.get_state(subject_b)
    assert session is not None and session.status is SessionStatus.OPEN
    assert state is not None and state.state == state_b


def test_a_session_is_invisible_to_another_tenants_repositories(
    client: TestClient, container: Container, make_tenant: Any
) -> None:
    owner: Tenant = make_tenant()
    stranger: Tenant = make_tenant()
    session_id = open_session(client, owner)
    with container.uow_factory(stranger.id) as uow:
        assert uow.sessions.get(session_id) is None
    with container.uow_factory(owner.id) as uow:
        assert uow.sessions.get(session_id) is not None
