"""Round trips on the wire of a dry-run save and of a refused save, PostgreSQL.

Both only read, or write one audit event: their reads run in autocommit (no ``BEGIN``; a
READ COMMITTED transaction gave the two reads no common snapshot anyway, as for a render),
so nothing ends with a ``ROLLBACK``, which psycopg follows with a ``DEALLOCATE ALL`` of its
own once a statement was prepared on the connection (``psycopg/_preparing.py``: a rollback
drops every prepared statement), a round trip more and every preparation lost.

- save, dry run: the session, the check: 2 (was ``BEGIN``, the two, ``ROLLBACK``, and then
  ``DEALLOCATE ALL`` on a connection with prepared statements: 4 to 5);
- save refused (PII): the session, the audit event (its own commit): 2 (was ``BEGIN``, the
  two, ``COMMIT``: 4).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memory_service.bootstrap import Container
from tests.factories import random_subject_id
from tests.integration.test_wire_round_trips import _on_the_wire, service
from tests.support.wire_trace import round_trips

pytestmark = pytest.mark.postgres
_ = service  # the fixture


def test_a_dry_run_and_a_refused_save_cost_their_pinned_round_trips(
    service: tuple[Container, TestClient, dict[str, str]], tmp_path: Path
) -> None:
    container, client, headers = service
    opened = client.post(
        "/v1/sessions", json={"subject_id": random_subject_id("subject")}, headers=headers
    )
    notes = f"/v1/sessions/{opened.json()['session_id']}/notes"

    def save(number: int, *, dry_run: bool = False) -> Any:
        note = {"text": f"Prefers window seat number {number} on trains.", "keywords": ["trains"]}
        params = {"dry_run": "true"} if dry_run else {}
        return client.post(notes, json=note, headers=headers, params=params)

    def refused() -> Any:
        note = {"text": "Her e-mail address is jane.doe@example.com."}
        response = client.post(notes, json=note, headers=headers)
        assert response.json()["status"] == "rejected", response.text
        return response

    # Enough of each for psycopg to prepare the statements (its fifth run).
    for number in range(6):
        save(number)
        save(number, dry_run=True)
        refused()

    found = {
        "save, dry run": _on_the_wire(container, tmp_path, lambda: save(100, dry_run=True)),
        "save refused": _on_the_wire(container, tmp_path, refused),
        "save (saved)": _on_the_wire(container, tmp_path, lambda: save(101)),
    }
    trips = {name: round_trips(sent) for name, sent in found.items()}
    assert trips == {"save, dry run": 2, "save refused": 2, "save (saved)": 4}, found
