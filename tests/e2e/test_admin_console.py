"""The admin console over HTTP: sign-in, cookie, CSRF, escaping and the same audit as the API.

These run in-process (TestClient); ``test_admin_console_browser.py`` walks the same pages
in Chromium. Each test has its own client, so cookies never leak between tests.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from memory_service.api.app import create_app
from memory_service.api.console.session import SESSION_COOKIE
from memory_service.bootstrap import Container
from memory_service.core.errors import DependencyUnavailable
from tests.e2e.conftest import Tenant, new_subject
from tests.e2e.console_helpers import (
    XSS_NOTES,
    admin_key,
    agent_key,
    csrf_of,
    seed_memory,
    sign_in,
)


@pytest.fixture
def browser(container: Container) -> Iterator[TestClient]:
    with TestClient(create_app(container), raise_server_exceptions=False) as client:
        yield client


def _kinds(client: TestClient, tenant: Tenant, subject: str) -> list[str]:
    response = client.get(f"/v1/admin/subjects/{subject}/history", headers=tenant.admin)
    return [event["kind"] for event in response.json()["events"]]


def test_pages_need_a_sign_in(browser: TestClient) -> None:
    for path in ("/admin/", "/admin/subjects/s-1", "/admin/subjects/s-1/export"):
        response = browser.get(path, follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == "/admin/login"


def test_the_cookie_is_a_signed_reference_never_the_key(
    browser: TestClient, tenant: Tenant
) -> None:
    token = csrf_of(browser.get("/admin/login").text)
    response = browser.post(
        "/admin/login", data={"key": admin_key(tenant), "csrf": token}, follow_redirects=False
    )
    assert response.status_code == 303
    cookie = next(
        header
        for header in response.headers.get_list("set-cookie")
        if header.startswith(SESSION_COOKIE)
    )
    attributes = cookie.lower()
    assert "httponly" in attributes and "samesite=strict" in attributes
    assert "path=/admin" in attributes and "max-age=3600" in attributes
    secret_part = admin_key(tenant).removeprefix("msk_")
    assert secret_part not in cookie and secret_part[:12] not in cookie


@pytest.mark.parametrize("which", ["agent", "unknown", "empty"])
def test_only_an_active_admin_key_signs_in(browser: TestClient, tenant: Tenant, which: str) -> None:
    key = {"agent": agent_key(tenant), "unknown": "msk_" + "x" * 43, "empty": ""}[which]
    token = csrf_of(browser.get("/admin/login").text)
    response = browser.post("/admin/login", data={"key": key, "csrf": token})
    assert response.status_code == 401
    assert "not an active admin key" in response.text
    assert SESSION_COOKIE not in browser.cookies


def test_revoking_the_key_ends_its_console_session(
    browser: TestClient, container: Container, tenant: Tenant
) -> None:
    sign_in(browser, admin_key(tenant))
    assert browser.get("/admin/", follow_redirects=False).status_code == 200
    admin_id = container.keys.authenticate(admin_key(tenant))
    assert admin_id is not None
    assert container.keys.revoke(tenant.id, admin_id.id)
    assert browser.get("/admin/", follow_redirects=False).status_code == 303


def test_a_forged_or_tampered_cookie_is_refused(browser: TestClient, tenant: Tenant) -> None:
    sign_in(browser, admin_key(tenant))
    cookie = browser.cookies[SESSION_COOKIE]
    body, mac = cookie.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    other_tenant = base64.urlsafe_b64encode(json.dumps({**payload, "t": "t-other"}).encode())
    for forged in (f"{body}.{mac[::-1]}", f"{other_tenant.decode().rstrip('=')}.{mac}", body):
        browser.cookies.clear()
        browser.cookies.set(SESSION_COOKIE, forged)
        assert browser.get("/admin/", follow_redirects=False).status_code == 303


def test_a_form_without_the_csrf_token_changes_nothing(
    browser: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    memory = seed_memory(container, tenant, subject, "Prefers window seats.")
    sign_in(browser, admin_key(tenant))
    for token in ("", "forged-token"):
        for path, data in (
            (f"/admin/memories/{memory.id}/delete", {}),
            (f"/admin/memories/{memory.id}/correct", {"text": "Prefers aisle seats."}),
            (f"/admin/subjects/{subject}/erase", {"confirm": subject}),
        ):
            response = browser.post(path, data={**data, "reason": "inaccurate", "csrf": token})
            assert response.status_code == 403
            assert "csrf_failed" in response.text
    listed = browser.get(f"/v1/subjects/{subject}/memories", headers=tenant.admin).json()
    assert [(m["id"], m["status"]) for m in listed["memories"]] == [(memory.id, "active")]
    assert _kinds(browser, tenant, subject) == []


def test_a_sign_in_form_from_elsewhere_is_refused(browser: TestClient, tenant: Tenant) -> None:
    response = browser.post("/admin/login", data={"key": admin_key(tenant), "csrf": "x"})
    assert response.status_code == 403
    assert SESSION_COOKIE not in browser.cookies


@pytest.mark.parametrize("note", XSS_NOTES)
def test_memory_text_renders_escaped(
    browser: TestClient, container: Container, tenant: Tenant, note: str
) -> None:
    subject = new_subject()
    seed_memory(container, tenant, subject, note)
    sign_in(browser, admin_key(tenant))
    page = browser.get(f"/admin/subjects/{subject}")
    assert page.status_code == 200
    assert note not in page.text
    shown = re.search(r'<p class="text">(.*?)</p>', page.text, re.DOTALL)
    assert shown is not None and "<" not in shown.group(1)
    assert html.unescape(shown.group(1)) == note
    # The correction form's textarea holds it escaped too, so it cannot close the element.
    assert page.text.count("</textarea>") == 1
    assert "script-src" not in page.headers["content-security-policy"]  # none at all
    assert "default-src 'none'" in page.headers["content-security-policy"]


def test_correcting_through_the_console_leaves_the_api_audit(
    browser: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    memory = seed_memory(container, tenant, subject, "Prefers window seats.")
    token = sign_in(browser, admin_key(tenant))
    response = browser.post(
        f"/admin/memories/{memory.id}/correct",
        data={
            "csrf": token,
            "subject_id": subject,
            "text": "Prefers aisle seats.",
            "reason": "inaccurate",
        },
    )
    assert response.status_code == 200
    assert "The memory was corrected" in response.text
    listed = browser.get(f"/v1/subjects/{subject}/memories", headers=tenant.admin).json()
    by_status = {m["status"]: m for m in listed["memories"]}
    assert by_status["superseded"]["id"] == memory.id
    assert by_status["active"]["text"] == "Prefers aisle seats."
    assert by_status["active"]["provenance"]["actor"].startswith("key:")
    assert _kinds(browser, tenant, subject) == ["memory.corrected", "memory.created"]


def test_a_refused_correction_shows_its_reason_codes_and_stores_nothing(
    browser: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    memory = seed_memory(container, tenant, subject, "Prefers window seats.")
    token = sign_in(browser, admin_key(tenant))
    secret = "My password is Hunter2-Zebra-91!"
    response = browser.post(
        f"/admin/memories/{memory.id}/correct",
        data={"csrf": token, "subject_id": subject, "text": secret, "reason": "inaccurate"},
    )
    assert response.status_code == 422
    assert "The correction was refused" in response.text
    assert 'class="reason">secret<' in response.text
    assert "Hunter2" not in response.text
    listed = browser.get(f"/v1/subjects/{subject}/memories", headers=tenant.admin).json()
    assert [(m["id"], m["status"]) for m in listed["memories"]] == [(memory.id, "active")]


def test_delete_erase_and_export_leave_the_api_audit(
    browser: TestClient, container: Container, tenant: Tenant
) -> None:
    subject = new_subject()
    first = seed_memory(container, tenant, subject, "Prefers window seats.")
    seed_memory(container, tenant, subject, "Travels with a bicycle.")
    token = sign_in(browser, admin_key(tenant))

    deleted = browser.post(f"/admin/memories/{first.id}/delete", data={"csrf": token})
    assert "The memory was deleted" in deleted.text

    export = browser.get(f"/admin/subjects/{subject}/export")
    assert export.headers["content-disposition"].startswith("attachment;")
    document = json.loads(export.text)
    assert document["format"] == "memory-service.subject-export/v1"
    assert len(document["memories"]) == 2

    mismatch = browser.post(
        f"/admin/subjects/{subject}/erase", data={"csrf": token, "confirm": "someone-else"}
    )
    assert mismatch.status_code == 422 and "nothing was erased" in mismatch.text
    erased = browser.post(
        f"/admin/subjects/{subject}/erase", data={"csrf": token, "confirm": subject}
    )
    assert erased.status_code == 200
    assert 'class="count-memories">2<' in erased.text
    assert 'download="erasure-receipt-' in erased.text

    assert _kinds(browser, tenant, subject) == [
        "memory.deleted",
        "subject.exported",
        "subject.erased",
    ]


def test_another_tenants_memory_is_not_found(
    browser: TestClient, container: Container, make_tenant: object
) -> None:
    assert callable(make_tenant)
    owner, stranger = make_tenant(), make_tenant()
    memory = seed_memory(container, owner, new_subject(), "Prefers window seats.")
    token = sign_in(browser, admin_key(stranger))
    response = browser.post(f"/admin/memories/{memory.id}/delete", data={"csrf": token})
    assert response.status_code == 404
    assert "not_found" in response.text


def test_a_malformed_subject_id_is_a_clear_error(browser: TestClient, tenant: Tenant) -> None:
    sign_in(browser, admin_key(tenant))
    response = browser.get("/admin/subjects", params={"subject_id": "jane@example.com"})
    assert response.status_code == 422
    assert "jane@example.com" not in response.text


def test_a_database_outage_answers_a_503_page(
    browser: TestClient, container: Container, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_in(browser, admin_key(tenant))

    def unreachable(*_: object) -> None:
        raise DependencyUnavailable("the database is unavailable")

    monkeypatch.setattr(container.keys, "active", unreachable)
    response = browser.get("/admin/", follow_redirects=False)
    assert response.status_code == 503
    assert response.headers["retry-after"]
    assert response.headers["content-type"].startswith("text/html")
    assert "cannot reach its database" in response.text
