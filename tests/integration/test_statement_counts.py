"""The round trips each hot request costs, pinned on SQLite and PostgreSQL.

Counted through the assembled app (``TestClient``) with the shared statement counter on the
data database, after a warm-up request of the same kind. The bearer key is verified from the
API's in-process key cache (``MEMORY_SERVICE_KEY_CACHE_SECONDS``, on by default), so a warm
request sends no key lookup; a cold one adds one ``SELECT`` (and its ``BEGIN`` on SQLite). On
SQLite each transaction's ``BEGIN`` is counted (SQLAlchemy sends it as a statement there;
psycopg sends PostgreSQL's with the first one).
The key store (another database) is counted apart: a request for a subject whose key this
process unwrapped in the last five minutes sends it nothing (the keyring caches the cipher by
the key id the data names: it sent a lookup of the wrapped key per request before, on
SQLite a ``BEGIN`` with it); a new subject's key is written there (``INSERT``, and on SQLite
its ``BEGIN``).

A count is exact, so these are not timing assertions. A change that adds a round trip to a
hot path fails here: it must justify the new number in this file, next to it. On PostgreSQL:

- save (saved): the session read with its subject's lock (``SELECT ... JOIN subjects ... FOR
  UPDATE OF subjects``); under the lock, the session's status, latest turn and duplicate in
  one ``SELECT``; the note and its audit event in one statement (``WITH ... INSERT``); COMMIT.
- save, dry run: the same two reads without the lock; nothing written, nothing committed;
  in autocommit since session 9 (no ``BEGIN`` and ``ROLLBACK`` on the wire:
  ``test_wire_dry_run.py``).
- save refused: the session; the audit event (codes and counts), in autocommit since
  session 9 (it was in a transaction with its COMMIT: 2 + 1, 4 on the wire; now 2 and 2).
- render: the subject, session and trim marks; every usable memory (``UNION ALL``); each on
  its own, with no transaction (its BEGIN and COMMIT were two round trips; a READ COMMITTED
  transaction gave the two reads no common snapshot anyway), on an engine that refuses any
  statement but a ``SELECT`` (``test_render_reads.py`` checks it on the wire). The manifest
  is written after the response, in batches. On SQLite the same two, without the BEGIN and
  COMMIT they had (3 statements and a commit before; pinned lower in session 6).
- open a session of a returning subject: the session and its audit event in one statement,
  in autocommit (``WITH written AS (INSERT INTO sessions SELECT ... FROM subjects WHERE
  data_key_id IS NOT NULL RETURNING id), pending_0 AS (INSERT INTO audit_events SELECT ...
  FROM written) SELECT ...``: the event only if the session was written): 1 statement, no
  COMMIT, one round trip on the wire (it was the same statement in a transaction, with its
  COMMIT: 2, and on the wire 3 with psycopg's ``BEGIN``; session 8).
- open a session of a new subject (or an erased one starting over): that statement, which
  writes nothing; the key stored in the key store; then, in autocommit too, the statement
  whose other branch gives the subject that key (``WITH keyed_subject AS (INSERT ... SELECT
  ... WHERE NOT EXISTS (a keyed row) ON CONFLICT DO UPDATE ... WHERE data_key_id IS NULL
  RETURNING ...), written AS (INSERT INTO sessions SELECT ... FROM subjects WHERE
  data_key_id IS NOT NULL UNION ALL SELECT ... FROM keyed_subject RETURNING id), pending_0
  AS (...) SELECT ...``): 2 statements, no COMMIT, 2 round trips on the wire (it was one
  statement and its COMMIT, 3 on the wire with the ``BEGIN``). The key store holds the key
  before any row naming it is committed. On SQLite, which takes no DML in a CTE, the
  returning subject's statement, then the subject and the session, in a transaction:
  three statements, no network round trip.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.engine.default import CACHE_HIT

from memory_service.adapters.keystore import SqlDataKeyStore
from memory_service.adapters.statement_counter import StatementCount, count_statements
from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.core.model import Role
from tests.factories import random_subject_id
from tests.support.containers import migrated_container
from tests.support.scratch_database import scratch_postgres_service


@dataclass
class App:
    backend: str
    client: TestClient
    container: Container
    headers: dict[str, str]

    def open_session(self) -> str:
        response = self.client.post(
            "/v1/sessions",
            json={"subject_id": random_subject_id("subject")},
            headers=self.headers,
        )
        assert response.status_code == 201, response.text
        session_id: str = response.json()["session_id"]
        return session_id

    def subject_of(self, session_id: str) -> str:
        with self.container.uow_factory(self._tenant) as uow:
            session = uow.sessions.get(session_id)
            assert session is not None
            return session.subject_id

    @property
    def _tenant(self) -> str:
        key = self.container.keys.authenticate(self.headers["Authorization"].split()[1])
        assert key is not None
        return key.tenant_id

    def counted(self, request: Callable[[], httpx.Response]) -> tuple[StatementCount, int]:
        """The data database's statements and commits, and the key store's statements."""
        store = self.container.keyring.store
        assert isinstance(store, SqlDataKeyStore)
        with (
            count_statements(self.container.engine, keep_sql=True) as count,
            count_statements(store.engine) as keys,
        ):
            response = request()
        assert response.status_code < 300, response.text
        assert self.container.manifests is not None
        self.container.manifests.flush()
        return count, keys.statements


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[App]:
    if request.param == "sqlite":
        yield from _app("sqlite", {"MEMORY_SERVICE_HOME": str(tmp_path)})
        return
    with scratch_postgres_service(request.getfixturevalue("postgres_url")) as env:
        yield from _app("postgres", env | {"MEMORY_SERVICE_HOME": str(tmp_path)})


def _app(backend: str, env: dict[str, str]) -> Iterator[App]:
    container = migrated_container(env | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"})
    _, key = container.keys.create(f"t-{secrets.token_hex(6)}", Role.AGENT)
    with TestClient(create_app(container)) as client:
        yield App(backend, client, container, {"Authorization": f"Bearer {key}"})
    if container.manifests is not None:
        container.manifests.close()
    container.engine.dispose()


NOTE = {"text": "Prefers aisle seats on long flights.", "keywords": ["seats", "flights"]}
PII_NOTE = {"text": "Her e-mail address is jane.doe@example.com."}


def _note(number: int) -> dict[str, Any]:
    return {"text": f"Prefers window seat number {number} on trains.", "keywords": ["trains"]}


def _save(app: App, session_id: str, body: dict[str, Any], **params: str) -> httpx.Response:
    return app.client.post(
        f"/v1/sessions/{session_id}/notes", json=body, headers=app.headers, params=params
    )


def measure(app: App) -> dict[str, tuple[StatementCount, int]]:
    """Each request once after a warm-up of the same kind."""
    session_id = app.open_session()
    subject = app.subject_of(session_id)
    _save(app, session_id, _note(0))
    counts = {
        "save (saved)": app.counted(lambda: _save(app, session_id, _note(1))),
        "save, dry_run": app.counted(lambda: _save(app, session_id, _note(2), dry_run="true")),
        "save refused (PII)": app.counted(lambda: _save(app, session_id, PII_NOTE)),
    }
    context = f"/v1/subjects/{subject}/context"
    app.client.get(context, params={"session_id": session_id}, headers=app.headers)
    counts["render the context"] = app.counted(
        lambda: app.client.get(context, params={"session_id": session_id}, headers=app.headers)
    )
    counts["open a session"] = app.counted(
        lambda: app.client.post("/v1/sessions", json={"subject_id": subject}, headers=app.headers)
    )
    counts["open a session, new subject"] = app.counted(
        lambda: app.client.post(
            "/v1/sessions", json={"subject_id": random_subject_id("s")}, headers=app.headers
        )
    )
    return counts


# (statements, commits) per request, the bearer key found in the key cache.
EXPECTED = {
    "sqlite": {
        "save (saved)": (5, 1),
        "save, dry_run": (3, 0),
        "save refused (PII)": (3, 1),
        "render the context": (2, 0),
        "open a session": (3, 1),
        "open a session, new subject": (5, 1),
    },
    "postgres": {
        "save (saved)": (3, 1),
        "save, dry_run": (2, 0),
        "save refused (PII)": (2, 0),
        "render the context": (2, 0),
        "open a session": (1, 0),
        "open a session, new subject": (2, 0),
    },
}


# Statements sent to the key store per request.
KEY_STORE_EXPECTED = {
    "sqlite": {"open a session, new subject": 2},
    "postgres": {"open a session, new subject": 1},
}


def test_each_hot_request_costs_its_pinned_round_trips(app: App) -> None:
    counts = measure(app)

    found = {name: (count.statements, count.commits) for name, (count, _) in counts.items()}
    assert found == EXPECTED[app.backend], {name: count.sql for name, (count, _) in counts.items()}
    key_store = {name: keys for name, (_, keys) in counts.items() if keys}
    assert key_store == KEY_STORE_EXPECTED[app.backend]


def test_a_saved_note_and_a_new_session_reuse_their_compiled_statements(app: App) -> None:
    """After a warm-up of each, every statement of a save and of opening a session is
    SQLAlchemy's cache hit: none is built and compiled again (on PostgreSQL the audit event
    rides in the same statement as a CTE; as a multi-row ``VALUES`` it had no cache key, and
    the save's was compiled at every save: a tenth of its CPU)."""
    session_id = app.open_session()
    _save(app, session_id, _note(0))
    app.open_session()
    hits: list[object] = []

    def on_execute(*args: Any) -> None:
        context = args[4]
        if context.compiled is not None:  # not the engine's own BEGIN on SQLite (raw SQL)
            hits.append(context.cache_hit)

    sa.event.listen(app.container.engine, "after_cursor_execute", on_execute)
    try:
        assert _save(app, session_id, _note(1)).json()["status"] == "saved"
        app.open_session()
    finally:
        sa.event.remove(app.container.engine, "after_cursor_execute", on_execute)
    assert hits and all(hit == CACHE_HIT for hit in hits), hits
