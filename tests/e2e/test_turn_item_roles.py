"""A turn item whose role is not text is refused as 422, never a 500 (found by the fuzzer)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.e2e.conftest import Tenant, open_session


@pytest.mark.parametrize("role", [{}, [], ["user"], {"user": 1}, 3, None])
def test_an_item_role_that_is_not_a_chat_role_string_is_refused(
    client: TestClient, tenant: Tenant, role: Any
) -> None:
    session_id = open_session(client, tenant)
    answer = client.post(
        f"/v1/sessions/{session_id}/turns",
        json={"items": [{"role": role, "content": "hello"}]},
        headers=tenant.agent,
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "invalid_request"
