"""An unexpected exception answers a generic 500 and its message reaches neither the
caller nor any log line: driver and library messages can quote note text."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from memory_service.api.app import create_app
from memory_service.bootstrap import Container

MARKER = "note-text-marker-7f3a"


def test_an_unexpected_error_is_a_generic_500_and_is_not_re_raised(
    container: Container, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(container)

    @app.get("/boom")
    def boom() -> None:
        try:
            raise KeyError(MARKER)
        except KeyError as cause:
            raise ValueError(f"failed while saving {MARKER}") from cause

    caplog.set_level(logging.DEBUG)
    # raise_server_exceptions=True: if anything re-raised, the client would raise here.
    with TestClient(app, raise_server_exceptions=True) as client:
        response = client.get("/boom")
    assert response.status_code == 500
    body = response.json()
    assert body["error"]["code"] == "internal"
    assert "request id" in body["error"]["message"]
    assert MARKER not in response.text
    assert "ValueError" in caplog.text
    assert MARKER not in caplog.text


def test_unknown_field_names_are_counted_not_echoed(
    client: TestClient, container: Container
) -> None:
    from memory_service.core.model import Role

    _, key = container.keys.create("t-echo", Role.AGENT)
    response = client.post(
        "/v1/sessions",
        json={"subject_id": "subject-1", f"Jane Doe lives at {MARKER}": 1},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 422
    assert MARKER not in response.text
    assert "1 unknown field" in response.json()["error"]["message"]
