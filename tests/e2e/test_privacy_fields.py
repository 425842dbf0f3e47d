"""Every field that reaches storage goes through the privacy guards or a strict shape (issue 10)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant, new_subject, open_session


def test_a_state_holding_personal_data_or_a_secret_is_refused_by_path_and_reason(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    state = {
        "plan": "gold",
        "contact": {"email": "jane.doe@example.com"},
        "wifi": "password: Hunter2-Tango",
    }

    response = client.put(
        f"/v1/subjects/{subject}/state", json={"state": state}, headers=tenant.agent
    )

    assert response.status_code == 422
    body = response.json()["error"]
    assert body["code"] == "invalid_request"
    assert "contact.email: pii" in body["message"] and "wifi: secret" in body["message"]
    assert "jane" not in response.text and "Hunter2" not in response.text
    with container.uow_factory(tenant.id) as uow:
        assert uow.subjects.get_state(subject) is None


def test_a_turn_item_with_a_free_text_role_is_refused_and_nothing_is_stored(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    session_id = open_session(client, tenant, new_subject())
    items = [{"role": "password hunter2", "content": "hi"}]

    response = client.post(
        f"/v1/sessions/{session_id}/turns", json={"items": items}, headers=tenant.agent
    )

    assert response.status_code == 422
    assert "hunter2" not in response.text
    read = client.get(f"/v1/sessions/{session_id}/turns", headers=tenant.agent)
    assert read.json()["items"] == []


def test_a_secret_shaped_tool_call_id_is_refused_without_echoing_it(
    client: TestClient, tenant: Tenant
) -> None:
    session_id = open_session(client, tenant, new_subject())
    note = {"text": "Prefers aisle seats.", "tool_call_id": "call_4152488713445952"}

    response = client.post(f"/v1/sessions/{session_id}/notes", json=note, headers=tenant.agent)

    assert response.status_code == 200 and response.json()["status"] == "rejected"
    assert [r["code"] for r in response.json()["reasons"]] == ["invalid"]
    assert "4152488713445952" not in response.text
