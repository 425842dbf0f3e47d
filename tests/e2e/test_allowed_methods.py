"""``OPTIONS`` and a 405's ``Allow`` name every method of the path, as the OpenAPI document does."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.e2e.conftest import Tenant, open_session

HTTP_METHODS = ("get", "put", "post", "delete", "patch")


def documented_methods(client: TestClient) -> dict[str, set[str]]:
    paths = client.get("/openapi.json").json()["paths"]
    return {
        path: {method.upper() for method in operations if method in HTTP_METHODS}
        for path, operations in paths.items()
    }


def listed(allow: str) -> set[str]:
    return {method.strip() for method in allow.split(",") if method.strip()}


def concrete(path: str) -> str:
    return (
        path.replace("{session_id}", "s_0123456789abcdef")
        .replace("{subject_id}", "subject-7")
        .replace("{memory_id}", "m_0123456789abcdef")
    )


def test_options_lists_every_documented_method_of_each_path_without_a_key(
    client: TestClient,
) -> None:
    documented = documented_methods(client)
    assert documented["/v1/sessions/{session_id}/turns"] == {"GET", "POST", "DELETE"}
    for path, methods in documented.items():
        answer = client.options(concrete(path))
        assert answer.status_code == 204, path
        assert listed(answer.headers["allow"]) == methods | {"OPTIONS"}, path


def test_a_405_lists_the_methods_of_the_path_not_of_one_route(
    client: TestClient, tenant: Tenant
) -> None:
    session_id = open_session(client, tenant)
    turns = f"/v1/sessions/{session_id}/turns"
    refused = client.patch(turns, json={}, headers=tenant.agent)
    assert refused.status_code == 405
    assert refused.json()["error"]["code"] == "method_not_allowed"
    assert listed(refused.headers["allow"]) == {"GET", "POST", "DELETE"}
    # Every multi-method path, with a method none of its routes takes.
    for path, methods in documented_methods(client).items():
        unused = next(m for m in ("PATCH", "PUT", "DELETE", "POST") if m not in methods)
        answer = client.request(unused, concrete(path), headers=tenant.admin)
        assert answer.status_code == 405, (unused, path)
        assert listed(answer.headers["allow"]) == methods, path


def test_options_on_an_unknown_path_is_not_found(client: TestClient) -> None:
    assert client.options("/v1/nowhere").status_code == 404


def test_the_console_static_files_take_get_and_head_only(client: TestClient) -> None:
    answer = client.options("/admin/static/nothing-here.css")
    assert answer.status_code == 204
    assert listed(answer.headers["allow"]) == {"GET", "HEAD", "OPTIONS"}
    refused = client.post("/admin/static/nothing-here.css")
    assert refused.status_code == 405
    assert listed(refused.headers["allow"]) == {"GET", "HEAD"}
