"""Round trips on the wire (libpq's trace) of a save and of opening a session, PostgreSQL.

``test_statement_counts.py`` counts statements as SQLAlchemy sends them (issue 14's method);
the wire also carries psycopg's own ``BEGIN`` (a ``Query`` of its own, answered before the
first statement) and ``COMMIT``. Each ``Sync`` or ``Query`` the client sends waits for the
server: one round trip. The render's two (no transaction) are pinned in
``test_render_reads.py``. Pinned here, after a warm-up of each request:

- save a note (saved): ``BEGIN; SELECT`` the session with its subject's lock, as one
  simple-protocol query (``database.begin_with_first_statement``: its values bound
  client-side), the check, the note with its audit event, ``COMMIT``: 4 (was 5 with the
  ``BEGIN`` a round trip of its own, until session 8);
- open a session, a returning subject's: the one statement, in autocommit (the session, and
  its audit event only if the session was written): 1 (was 3 with ``BEGIN`` and ``COMMIT``
  until session 8);
- a new subject's first session: that statement, writing nothing, then (the new key in the
  key store, another database) the statement that keys the subject and inserts the
  session, in autocommit: 2 (was 3).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.core.model import Role
from tests.factories import random_subject_id
from tests.support.containers import migrated_container
from tests.support.scratch_database import scratch_postgres_service
from tests.support.wire_trace import round_trips, sent_messages, traced

pytestmark = pytest.mark.postgres


@pytest.fixture
def service(
    postgres_url: str, tmp_path: Path
) -> Iterator[tuple[Container, TestClient, dict[str, str]]]:
    with scratch_postgres_service(postgres_url) as env:
        env = env | {
            "MEMORY_SERVICE_HOME": str(tmp_path),
            "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0",
        }
        container = migrated_container(env)
        _, key = container.keys.create(f"t-{secrets.token_hex(6)}", Role.AGENT)
        with TestClient(create_app(container)) as client:
            yield container, client, {"Authorization": f"Bearer {key}"}
        assert container.manifests is not None
        container.manifests.close()
        container.engine.dispose()


def _on_the_wire(container: Container, tmp_path: Path, request: Callable[[], Any]) -> list[str]:
    trace = tmp_path / f"trace-{secrets.token_hex(3)}.log"
    with trace.open("w") as file, traced(container.engine, file.fileno()):
        response = request()
    assert response.status_code < 300, response.text
    return sent_messages(trace)


def test_a_save_and_opening_a_session_cost_their_pinned_round_trips(
    service: tuple[Container, TestClient, dict[str, str]], tmp_path: Path
) -> None:
    container, client, headers = service
    subject = random_subject_id("subject")

    def open_session(subject_id: str) -> Any:  # the test client's response
        return client.post("/v1/sessions", json={"subject_id": subject_id}, headers=headers)

    session_id = open_session(subject).json()["session_id"]
    notes = f"/v1/sessions/{session_id}/notes"

    def save(number: int) -> Any:
        note = {"text": f"Prefers window seat number {number} on trains.", "keywords": ["trains"]}
        response = client.post(notes, json=note, headers=headers)
        assert response.json()["status"] == "saved", response.text
        return response

    save(0)
    open_session(subject)
    open_session(random_subject_id("warm"))

    found = {
        "save a note (saved)": _on_the_wire(container, tmp_path, lambda: save(1)),
        "open a session": _on_the_wire(container, tmp_path, lambda: open_session(subject)),
        "open, new subject": _on_the_wire(
            container, tmp_path, lambda: open_session(random_subject_id("new"))
        ),
    }

    trips = {name: round_trips(sent) for name, sent in found.items()}
    assert trips == {"save a note (saved)": 4, "open a session": 1, "open, new subject": 2}, found
