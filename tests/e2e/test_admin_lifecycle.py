"""The admin endpoints over HTTP: correct, delete, erase, export, history.

Memories are seeded through the store (the notes endpoint is another feature); everything
else goes through the assembled app with real keys.
"""

from __future__ import annotations

import secrets
import string
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from memory_service.core.erasure import ERASED_KINDS
from memory_service.core.model import SubjectState
from tests.e2e.conftest import Tenant, new_subject, open_session
from tests.e2e.endpoints import ADMIN_ENDPOINTS, Endpoint
from tests.integration.records import make_memory


def _marker() -> str:
    # Letters only: a random letter-digit code is refused as an identifier (state included).
    return "okapi" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(12))


def _seed_memory(container: Container, tenant: Tenant, subject: str, text: str) -> str:
    memory = make_memory(tenant.id, subject, container.clock.now(), text=text)
    with container.uow_factory(tenant.id) as uow:
        uow.memories.add(memory)
        uow.commit()
    return memory.id


def _assert_json_error(response: httpx.Response, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    if code is not None:
        assert body["error"]["code"] == code


@pytest.mark.parametrize("endpoint", ADMIN_ENDPOINTS, ids=str)
def test_an_agent_key_is_forbidden_on_every_admin_endpoint_and_nothing_changes(
    client: TestClient, container: Container, tenant: Tenant, endpoint: Endpoint
) -> None:
    subject = new_subject()
    memory_id = _seed_memory(container, tenant, subject, "Prefers window seats.")
    url = endpoint.url(subject_id=subject, memory_id=memory_id, session_id="s-1")
    response = client.request(endpoint.method, url, json=endpoint.body, headers=tenant.agent)
    _assert_json_error(response, 403, "forbidden")
    with container.uow_factory(tenant.id) as uow:
        memory = uow.memories.get(memory_id)
    assert memory is not None and memory.text == "Prefers window seats."


def test_a_correction_supersedes_the_memory_and_both_are_in_the_history(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    memory_id = _seed_memory(container, tenant, subject, "Prefers aisle seats on long flights.")
    response = client.post(
        f"/v1/admin/memories/{memory_id}/correct",
        json={"text": "Prefers window seats on long flights.", "reason": "user_request"},
        headers=tenant.admin,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    new = body["memory"]
    assert body["superseded"] == memory_id
    assert new["source"] == "admin_correction" and new["scope"] == "global"
    assert new["provenance"]["derived_from"] == [memory_id]
    assert new["provenance"]["actor"].startswith("key:")

    listed = client.get(f"/v1/subjects/{subject}/memories", headers=tenant.admin).json()
    statuses = {memory["id"]: memory["status"] for memory in listed["memories"]}
    assert statuses == {memory_id: "superseded", new["id"]: "active"}
    history = client.get(f"/v1/admin/subjects/{subject}/history", headers=tenant.admin).json()
    kinds = {(event["kind"], event["memory_id"]) for event in history["events"]}
    assert ("memory.corrected", memory_id) in kinds and ("memory.created", new["id"]) in kinds


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Send the invoice to jane.doe@example.com from now on.", "pii"),
        ("Her name is Margaret Thornbury and she flies on Fridays.", "pii"),
        ("The api key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c.", "secret"),
        ("Maybe prefers tea, probably.", "speculative"),
        ("x" * 5000, "invalid"),
    ],
)
def test_a_correction_that_fails_a_guard_is_refused_like_a_note_and_stores_nothing(
    client: TestClient, container: Container, tenant: Tenant, text: str, code: str
) -> None:
    subject = new_subject()
    memory_id = _seed_memory(container, tenant, subject, "Prefers aisle seats.")
    response = client.post(
        f"/v1/admin/memories/{memory_id}/correct",
        json={"text": text, "reason": "inaccurate"},
        headers=tenant.admin,
    )
    _assert_json_error(response, 422, "correction_refused")
    assert f"{code}:" in response.json()["error"]["message"]
    assert text[:30] not in response.text
    listed = client.get(f"/v1/subjects/{subject}/memories", headers=tenant.admin).json()
    assert [(m["id"], m["status"]) for m in listed["memories"]] == [(memory_id, "active")]


BAD_CORRECTIONS: dict[str, Any] = {
    "unknown field": {"text": "Prefers tea.", "reason": "inaccurate", "subject_id": "x"},
    "missing reason": {"text": "Prefers tea."},
    "missing text": {"reason": "inaccurate"},
    "text not a string": {"text": ["Prefers tea."], "reason": "inaccurate"},
    "free-text reason": {"text": "Prefers tea.", "reason": "the customer phoned to say so"},
    "not an object": ["Prefers tea.", "inaccurate"],
}


@pytest.mark.parametrize("case", sorted(BAD_CORRECTIONS))
def test_malformed_correction_bodies_are_refused_without_echo(
    client: TestClient, container: Container, tenant: Tenant, case: str
) -> None:
    memory_id = _seed_memory(container, tenant, new_subject(), "Prefers aisle seats.")
    response = client.post(
        f"/v1/admin/memories/{memory_id}/correct", json=BAD_CORRECTIONS[case], headers=tenant.admin
    )
    _assert_json_error(response, 422)
    assert "customer phoned" not in response.text and "Prefers tea" not in response.text


def test_an_oversized_correction_body_is_refused_before_parsing(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    memory_id = _seed_memory(container, tenant, new_subject(), "Prefers aisle seats.")
    body = {"text": "a" * 1_000_000, "reason": "inaccurate"}
    response = client.post(
        f"/v1/admin/memories/{memory_id}/correct", json=body, headers=tenant.admin
    )
    _assert_json_error(response, 413, "payload_too_large")


@pytest.mark.parametrize("memory_id", ["x" * 65, "bad%20id", "semi;colon"])
def test_malformed_memory_ids_are_invalid(
    client: TestClient, tenant: Tenant, memory_id: str
) -> None:
    _assert_json_error(client.delete(f"/v1/admin/memories/{memory_id}", headers=tenant.admin), 422)


def test_delete_leaves_no_readable_text_and_repeats_harmlessly(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    marker = _marker()
    memory_id = _seed_memory(container, tenant, subject, f"Keeps an {marker} at home.")
    first = client.delete(f"/v1/admin/memories/{memory_id}", headers=tenant.admin)
    second = client.delete(f"/v1/admin/memories/{memory_id}", headers=tenant.admin)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert first.json()["status"] == "deleted"
    export = client.get(f"/v1/admin/subjects/{subject}/export", headers=tenant.admin)
    assert marker not in export.text
    assert [m["status"] for m in export.json()["memories"]] == ["deleted"]


def test_another_tenants_memory_answers_like_an_unknown_one(
    client: TestClient, container: Container, make_tenant: Any
) -> None:
    owner: Tenant = make_tenant()
    stranger: Tenant = make_tenant()
    memory_id = _seed_memory(container, owner, new_subject(), "Prefers aisle seats.")
    unknown = secrets.token_hex(8)
    for method, suffix, body in [
        ("DELETE", "", None),
        ("POST", "/correct", {"text": "Prefers window seats.", "reason": "inaccurate"}),
    ]:
        theirs = client.request(
            method, f"/v1/admin/memories/{memory_id}{suffix}", json=body, headers=stranger.admin
        )
        nowhere = client.request(
            method, f"/v1/admin/memories/{unknown}{suffix}", json=body, headers=stranger.admin
        )
        _assert_json_error(theirs, 404, "not_found")
        assert theirs.json() == nowhere.json()
    with container.uow_factory(owner.id) as uow:
        memory = uow.memories.get(memory_id)
    assert memory is not None and memory.status.value == "active"


def test_erasure_returns_a_kept_receipt_and_leaves_an_empty_export(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    marker = _marker()
    session_id = open_session(client, tenant, subject)
    _seed_memory(container, tenant, subject, f"Walks an {marker} daily.")
    client.put(
        f"/v1/subjects/{subject}/state", json={"state": {"pet": marker}}, headers=tenant.agent
    )

    erased = client.delete(f"/v1/admin/subjects/{subject}", headers=tenant.admin)
    assert erased.status_code == 200, erased.text
    receipt = erased.json()
    assert set(receipt["counts"]) == set(ERASED_KINDS)
    assert receipt["counts"]["memories"] == 1
    assert receipt["counts"]["sessions"] == 1
    assert receipt["counts"]["state"] == 1
    assert receipt["counts"]["data_key"] == 1

    export = client.get(f"/v1/admin/subjects/{subject}/export", headers=tenant.admin)
    document = export.json()
    assert document["memories"] == [] and document["sessions"] == []
    assert document["state"] is None
    assert [r["id"] for r in document["erasure_receipts"]] == [receipt["id"]]
    assert marker not in export.text
    history = client.get(f"/v1/admin/subjects/{subject}/history", headers=tenant.admin)
    events = history.json()["events"]
    assert marker not in history.text
    assert {"session.opened", "state.replaced", "subject.erased"} <= {e["kind"] for e in events}
    assert any(e["session_id"] == session_id for e in events)  # ids survive
    # The session is gone for the agent too.
    gone = client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent)
    _assert_json_error(gone, 404)


def test_erasing_twice_or_erasing_the_unknown_gives_zero_counts(
    client: TestClient, container: Container, make_tenant: Any
) -> None:
    owner: Tenant = make_tenant()
    stranger: Tenant = make_tenant()
    subject = new_subject()
    _seed_memory(container, owner, subject, "Prefers aisle seats.")
    assert client.delete(f"/v1/admin/subjects/{subject}", headers=stranger.admin).json()[
        "counts"
    ] == dict.fromkeys(ERASED_KINDS, 0)
    first = client.delete(f"/v1/admin/subjects/{subject}", headers=owner.admin).json()
    second = client.delete(f"/v1/admin/subjects/{subject}", headers=owner.admin).json()
    assert first["counts"]["memories"] == 1
    assert second["counts"] == dict.fromkeys(ERASED_KINDS, 0)
    assert first["id"] != second["id"]


def test_another_tenants_subject_exports_and_reads_as_empty(
    client: TestClient, container: Container, make_tenant: Any
) -> None:
    owner: Tenant = make_tenant()
    stranger: Tenant = make_tenant()
    subject = new_subject()
    _seed_memory(container, owner, subject, "Prefers aisle seats.")
    with container.uow_factory(owner.id) as uow:
        uow.subjects.put_state(
            SubjectState(owner.id, subject, {"plan": "pro"}, container.clock.now())
        )
        uow.commit()
    export = client.get(f"/v1/admin/subjects/{subject}/export", headers=stranger.admin).json()
    assert export["memories"] == export["sessions"] == export["audit_events"] == []
    assert export["state"] is None
    history = client.get(f"/v1/admin/subjects/{subject}/history", headers=stranger.admin).json()
    # Only the stranger's own export, recorded in the stranger's tenant; nothing of the owner's.
    assert [event["kind"] for event in history["events"]] == ["subject.exported"]


@pytest.mark.parametrize("subject", ["jane@example.com", "+33612345678", "Jane Doe"])
def test_personal_data_as_a_subject_id_is_refused_without_echo(
    client: TestClient, tenant: Tenant, subject: str
) -> None:
    for method, suffix in [("DELETE", ""), ("GET", "/export"), ("GET", "/history")]:
        response = client.request(
            method, f"/v1/admin/subjects/{subject}{suffix}", headers=tenant.admin
        )
        _assert_json_error(response, 422, "invalid_request")
        assert subject not in response.text
