"""Helpers shared by the console tests: sign in, read a form's CSRF token, seed memories."""

from __future__ import annotations

import re
from datetime import timedelta

from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from memory_service.core.model import Memory
from tests.e2e.conftest import Tenant
from tests.factories import make_memory

XSS_NOTES = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><svg onload=alert(1)>",
)

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def admin_key(tenant: Tenant) -> str:
    return tenant.admin["Authorization"].removeprefix("Bearer ")


def agent_key(tenant: Tenant) -> str:
    return tenant.agent["Authorization"].removeprefix("Bearer ")


def csrf_of(page: str) -> str:
    found = _CSRF.search(page)
    assert found, "the page has no CSRF token"
    return found.group(1)


def sign_in(client: TestClient, key: str) -> str:
    """Sign in through the form; returns a CSRF token of the signed-in session."""
    token = csrf_of(client.get("/admin/login").text)
    response = client.post("/admin/login", data={"key": key, "csrf": token})
    assert response.status_code == 200, response.text  # followed the redirect to /admin/
    return csrf_of(response.text)


def seed_memory(container: Container, tenant: Tenant, subject: str, text: str) -> Memory:
    """A stored global memory, put there straight through the repository (no guard ran)."""
    at = container.clock.now() - timedelta(hours=1)
    memory = make_memory(text, at=at, tenant_id=tenant.id, subject_id=subject)
    with container.uow_factory(tenant.id) as uow:
        uow.memories.add(memory)
        uow.commit()
    return memory
