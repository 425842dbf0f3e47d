"""The happy paths of issue 2's endpoints, checked through the store and the audit history."""

from __future__ import annotations

from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from memory_service.core.model import SessionStatus
from tests.e2e.conftest import Tenant, new_subject, open_session


def test_opening_a_session_stores_it_open_for_the_callers_tenant(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    response = client.post(
        "/v1/sessions", json={"subject_id": subject, "purpose": "travel"}, headers=tenant.agent
    )
    assert response.status_code == 201
    body = response.json()
    with container.uow_factory(tenant.id) as uow:
        session = uow.sessions.get(body["session_id"])
    assert session is not None
    assert (session.subject_id, session.purpose, session.status) == (
        subject,
        "travel",
        SessionStatus.OPEN,
    )


def test_ending_a_session_marks_it_ended_and_audits_both_steps(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    session_id = open_session(client, tenant, subject)
    response = client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent)
    assert response.status_code == 202
    assert response.json()["status"] in {"ended", "consolidated"}
    with container.uow_factory(tenant.id) as uow:
        session = uow.sessions.get(session_id)
        kinds = [event.kind for event in uow.audit.list_for_subject(subject)]
    assert session is not None and session.ended_at is not None
    assert kinds[:2] == ["session.opened", "session.ended"]


def test_state_is_replaced_whole(client: TestClient, container: Container, tenant: Tenant) -> None:
    subject = new_subject()
    url = f"/v1/subjects/{subject}/state"
    first = {"plan": "pro", "seats": 3, "tags": ["a", "b"]}
    assert client.put(url, json={"state": first}, headers=tenant.agent).status_code == 200
    second = {"plan": "free"}
    assert client.put(url, json={"state": second}, headers=tenant.agent).status_code == 200
    with container.uow_factory(tenant.id) as uow:
        stored = uow.subjects.get_state(subject)
        events = uow.audit.list_for_subject(subject)
    assert stored is not None and stored.state == second
    assert [event.kind for event in events] == ["state.replaced", "state.replaced"]
    assert all("pro" not in str(event.details) for event in events)


def test_health_reports_the_database(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"]["database"] == "ok"


def test_the_openapi_document_lists_every_spec_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    expected = {
        ("post", "/v1/sessions"),
        ("post", "/v1/sessions/{session_id}/notes"),
        ("post", "/v1/sessions/{session_id}/end"),
        ("get", "/v1/subjects/{subject_id}/context"),
        ("put", "/v1/subjects/{subject_id}/state"),
        ("get", "/v1/subjects/{subject_id}/memories"),
        ("post", "/v1/admin/memories/{memory_id}/correct"),
        ("delete", "/v1/admin/memories/{memory_id}"),
        ("delete", "/v1/admin/subjects/{subject_id}"),
        ("get", "/v1/admin/subjects/{subject_id}/export"),
        ("get", "/v1/admin/subjects/{subject_id}/history"),
        ("get", "/healthz"),
    }
    listed = {(method, path) for path, item in paths.items() for method in item}
    assert expected <= listed
