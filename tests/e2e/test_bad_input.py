"""Malformed, oversized and hostile bodies get a 4xx JSON error, never a 500, and store nothing."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant, new_subject, open_session
from tests.e2e.endpoints import ENDPOINTS, Endpoint

NESTED = ("[" * 100_000 + "]" * 100_000).encode()


def _audit_count(container: Container, tenant: Tenant, subject: str) -> int:
    with container.uow_factory(tenant.id) as uow:
        return len(uow.audit.list_for_subject(subject))


def _assert_json_error(response: httpx.Response, status: int | tuple[int, ...]) -> None:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}


RAW_BODIES = {
    "not json": b"{subject_id: nope",
    "invalid utf-8": b'{"subject_id": "\xff\xfe"}',
    "deeply nested": NESTED[:60_000],
    "json array": b"[1, 2, 3]",
    "json string": b'"subject"',
    "null bytes": b'{"subject_id": "sub\\u0000ject"}',
    "empty": b"",
}


@pytest.mark.parametrize("case", sorted(RAW_BODIES))
def test_malformed_bodies_on_open_session_are_refused(
    client: TestClient, tenant: Tenant, case: str
) -> None:
    response = client.post(
        "/v1/sessions",
        content=RAW_BODIES[case],
        headers=tenant.agent | {"Content-Type": "application/json"},
    )
    # Invalid UTF-8 and deep nesting too: the documented 422, never the framework's 400.
    _assert_json_error(response, 422)
    assert response.json()["error"]["code"] == "invalid_request"


FIELD_CASES = {
    "unknown field": {"subject_id": "subject-1", "tenant_id": "other"},
    "wrong type": {"subject_id": 12345},
    "list subject": {"subject_id": ["a"]},
    "missing subject": {"purpose": "travel"},
    "e-mail subject": {"subject_id": "jane.doe@example.com"},
    "phone subject": {"subject_id": "+33612345678"},
    "spaced phone subject": {"subject_id": "06-12-34-56-78"},
    "name subject": {"subject_id": "Jane Doe"},
    "oversized subject": {"subject_id": "s" * 129},
    "bad purpose": {"subject_id": "subject-1", "purpose": "Travel Plans!"},
}


@pytest.mark.parametrize("case", sorted(FIELD_CASES))
def test_bad_fields_on_open_session_are_refused_without_echo(
    client: TestClient, tenant: Tenant, case: str
) -> None:
    response = client.post("/v1/sessions", json=FIELD_CASES[case], headers=tenant.agent)
    _assert_json_error(response, 422)
    assert response.json()["error"]["code"] == "invalid_request"
    for value in FIELD_CASES[case].values():
        if isinstance(value, str) and len(value) > 3:
            assert value not in response.text


def test_a_one_megabyte_body_is_refused_before_parsing(client: TestClient, tenant: Tenant) -> None:
    body = b'{"subject_id": "' + b"a" * 1_000_000 + b'"}'
    response = client.post(
        "/v1/sessions", content=body, headers=tenant.agent | {"Content-Type": "application/json"}
    )
    _assert_json_error(response, 413)
    assert response.json()["error"]["code"] == "payload_too_large"


STATE_CASES = {
    "not an object": {"state": ["a", "b"]},
    "too deep": {"state": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}},
    "too large": {"state": {f"k{i}": "v" * 200 for i in range(200)}},
    "nul in value": {"state": {"plan": "pro\u0000"}},
    "empty key": {"state": {"": "x"}},
    "missing state": {"plan": "pro"},
}


@pytest.mark.parametrize("case", sorted(STATE_CASES))
def test_bad_state_is_refused_and_stores_nothing(
    client: TestClient, container: Container, tenant: Tenant, case: str
) -> None:
    subject = new_subject()
    response = client.put(
        f"/v1/subjects/{subject}/state", json=STATE_CASES[case], headers=tenant.agent
    )
    _assert_json_error(response, (413, 422))
    with container.uow_factory(tenant.id) as uow:
        assert uow.subjects.get_state(subject) is None
    assert _audit_count(container, tenant, subject) == 0


def test_a_malformed_path_id_is_a_clean_error(client: TestClient, tenant: Tenant) -> None:
    response = client.post("/v1/sessions/" + "x" * 500 + "/end", headers=tenant.agent)
    _assert_json_error(response, (404, 422))


def test_unknown_routes_and_methods_answer_in_the_error_format(
    client: TestClient, tenant: Tenant
) -> None:
    _assert_json_error(client.get("/v1/nothing-here", headers=tenant.agent), 404)
    _assert_json_error(client.delete("/v1/sessions", headers=tenant.agent), 405)


def test_ending_a_session_twice_is_a_conflict(client: TestClient, tenant: Tenant) -> None:
    session_id = open_session(client, tenant)
    assert client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent).status_code == 202
    again = client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent)
    _assert_json_error(again, 409)


def test_infinite_numbers_in_state_are_refused(
    client: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    response = client.put(
        f"/v1/subjects/{subject}/state",
        content=b'{"state": {"score": Infinity}}',
        headers=tenant.agent | {"Content-Type": "application/json"},
    )
    _assert_json_error(response, 422)
    with container.uow_factory(tenant.id) as uow:
        assert uow.subjects.get_state(subject) is None


# Text Python can hold but UTF-8 cannot encode: lone surrogates, as JSON may spell them.
UNENCODABLE = ("\ud800", "\udfff", "a\udc80b")


def _carrying(value: object, text: str) -> object:
    """``value`` with ``text`` put into every string, keys included."""
    if isinstance(value, str):
        return value + text
    if isinstance(value, dict):
        return {_carrying(k, text): _carrying(v, text) for k, v in value.items()}
    if isinstance(value, list):
        return [_carrying(item, text) for item in value]
    return value


BODY_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if endpoint.body]
EXTRA_BODIES = [
    ("PUT", "/v1/subjects/{subject_id}/state", {"state": {"a": "\ud800"}}),
    ("PUT", "/v1/subjects/{subject_id}/state", {"state": {"\ud800": "a"}}),
    ("POST", "/v1/sessions/{session_id}/turns", {"items": [{"role": "\ud800", "content": "x"}]}),
    ("POST", "/v1/sessions/{session_id}/notes", {"text": "Likes tea.", "keywords": ["\ud800"]}),
]


@pytest.mark.parametrize("text", UNENCODABLE, ids=["high", "low", "inside"])
@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS, ids=str)
def test_text_utf8_cannot_encode_is_refused_as_invalid_request(
    client: TestClient, tenant: Tenant, endpoint: Endpoint, text: str
) -> None:
    assert endpoint.body is not None
    subject = new_subject()
    session_id = open_session(client, tenant, subject)
    headers = tenant.admin if endpoint.role == "admin" else tenant.agent
    extras = [body for *where, body in EXTRA_BODIES if where == [endpoint.method, endpoint.path]]
    for body in [_carrying(endpoint.body, text), *extras]:
        response = client.request(
            endpoint.method,
            endpoint.url(session_id=session_id, subject_id=subject, memory_id="m-1"),
            # ASCII-escaped JSON, as a client in another language would send it.
            content=json.dumps(body).encode(),
            headers=headers | {"Content-Type": "application/json"},
        )
        _assert_json_error(response, 422)
        assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize(
    "url",
    [
        "/v1/subjects/s-1/context?purpose=%ED%A0%80",  # UTF-8 of a lone surrogate
        "/v1/subjects/s-%ED%A0%80/context",
        "/v1/subjects/s-1/context?session_id=%FF%FE",  # not UTF-8 at all
        "/v1/sessions/%ED%A0%80/turns",
    ],
)
def test_undecodable_text_in_a_path_or_query_is_a_clean_4xx(
    client: TestClient, tenant: Tenant, url: str
) -> None:
    """The server decodes paths and queries with replacement characters: never a 500."""
    response = client.get(url, headers=tenant.agent)
    _assert_json_error(response, (404, 422))
