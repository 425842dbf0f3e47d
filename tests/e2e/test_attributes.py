"""Attributes over HTTP: sent with a note, deciding the consolidation, shown in the export."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.e2e.conftest import Tenant, new_subject, open_session


def _note(client: TestClient, tenant: Tenant, session_id: str, body: dict[str, Any]) -> Any:
    response = client.post(f"/v1/sessions/{session_id}/notes", json=body, headers=tenant.agent)
    assert response.status_code == 200, response.text
    return response.json()


def _end(client: TestClient, tenant: Tenant, session_id: str) -> None:
    response = client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent)
    assert response.status_code == 202, response.text


def test_a_single_valued_attribute_supersedes_without_a_change_word(
    client: TestClient, tenant: Tenant
) -> None:
    subject = new_subject()
    city = {"key": "home_city", "cardinality": "single"}
    for text in ("Lives in Paris.", "Lives in Lyon."):
        session_id = open_session(client, tenant, subject)
        assert _note(client, tenant, session_id, {"text": text, "attribute": city})["status"] == (
            "saved"
        )
        _end(client, tenant, session_id)

    export = client.get(f"/v1/admin/subjects/{subject}/export", headers=tenant.admin)

    assert export.status_code == 200, export.text
    memories = [m for m in export.json()["memories"] if m["scope"] == "global"]
    active = [(m["text"], m["attribute"]) for m in memories if m["status"] == "active"]
    assert active == [("Lives in Lyon.", city)]
    assert {m["status"] for m in memories} == {"active", "superseded"}


def test_a_malformed_attribute_is_a_rejection_naming_the_rule_not_the_value(
    client: TestClient, tenant: Tenant
) -> None:
    session_id = open_session(client, tenant)

    answer = _note(
        client,
        tenant,
        session_id,
        {"text": "Lives in Lyon.", "attribute": {"key": "Rue Victor Hugo 12", "cardinality": "x"}},
    )

    assert answer["status"] == "rejected"
    assert {r["code"] for r in answer["reasons"]} == {"invalid"}
    assert "Victor" not in str(answer)
