"""Erasure on SQLite and PostgreSQL: afterwards no table holds a readable trace of the subject.

Each test gets a fresh migrated database, fills every table the subject can reach through
the services and repositories, erases it through the admin service, then reads every table
back with plain SQL (and, on SQLite, the raw bytes of the database files).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from memory_service.adapters.crypto import DecryptionError, Keyring
from memory_service.adapters.subject_cache import NoSubjectCache
from memory_service.adapters.tables import SQLModel
from memory_service.core.clock import new_id
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import (
    AuditEvent,
    EventKind,
    MemoryScope,
    MemoryStatus,
    Role,
    SessionStatus,
    SubjectState,
)
from memory_service.core.scope import TenantScope
from memory_service.core.trimming import Turn
from memory_service.services import admin
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from tests.integration.conftest import Store, sql_store
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock
from tests.support.notes import NoLibraryIdentifiers

SUBJECT = "cust-forget-me-1"
NEIGHBOUR = "cust-stays-1"


class NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


@dataclass
class Backend:
    store: Store
    files: list[Path]  # the SQLite files, empty on PostgreSQL

    @property
    def engine(self) -> Engine:
        assert self.store.engine is not None
        return self.store.engine


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(
    request: pytest.FixtureRequest, tmp_path: Path, keyring: Keyring, clock: FixedClock
) -> Iterator[Backend]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    with sql_store(url, keyring, clock) as store:
        yield Backend(store, [tmp_path] if request.param == "sqlite" else [])


@pytest.fixture
def sqlite_backend(
    sqlite_url: str, tmp_path: Path, keyring: Keyring, clock: FixedClock
) -> Iterator[Backend]:
    """SQLite alone: its files are ours to read, PostgreSQL's are not."""
    with sql_store(sqlite_url, keyring, clock) as store:
        yield Backend(store, [tmp_path])


@pytest.fixture
def marker() -> str:
    return f"narwhal{secrets.token_hex(8)}"


def _deps(store: Store) -> admin.AdminDeps:
    return admin.AdminDeps(
        uow_factory=store.uow_factory,
        clock=store.clock,
        pii=NoPii(),
        cache=NoSubjectCache(),
        identifiers=NoLibraryIdentifiers(),
    )


def _fill(store: Store, tenant_id: str, subject: str, marker: str) -> dict[str, str]:
    """Every kind of row a subject can own, each carrying the marker where text goes."""
    now = store.clock.now()
    ended = make_session(tenant_id, subject, now, status=SessionStatus.ENDED, ended_at=now)
    open_ = make_session(tenant_id, subject, now + timedelta(minutes=1))
    note = make_memory(
        tenant_id,
        subject,
        now,
        scope=MemoryScope.SESSION,
        session_id=ended.id,
        text=f"Rides a {marker} to work.",
        keywords=(marker,),
    )
    kept = make_memory(tenant_id, subject, now, text=f"Owns a {marker}.")
    old = make_memory(
        tenant_id, subject, now, text=f"Owned a {marker} once.", status=MemoryStatus.SUPERSEDED
    )
    with store.uow_factory(tenant_id) as uow:
        uow.sessions.add(ended)
        uow.sessions.add(open_)
        for memory in (note, kept, old):
            uow.memories.add(memory)
        uow.subjects.put_state(SubjectState(tenant_id, subject, {"vehicle": marker}, now))
        uow.turns.put(ended, Turn(0, "user", f"I ride my {marker} daily.", now))
        uow.turns.put(open_, Turn(0, "assistant", f"Noted: {marker}.", now))
        uow.manifests.add(
            StoredManifest(new_id(), tenant_id, subject, ended.id, now, now, {"in": [kept.id]})
        )
        uow.outbox.add(ended.id, now)
        # A buggy writer once put text in an audit detail: erasure must not keep it.
        uow.audit.append(
            AuditEvent(
                id=new_id(),
                tenant_id=tenant_id,
                kind=EventKind.NOTE_SAVED,
                at=now,
                actor="key:agent",
                subject_id=subject,
                memory_id=note.id,
                session_id=ended.id,
                details={"leaked": marker, "count": 1, "source_ids": [kept.id]},
            )
        )
        uow.commit()
    return {"ended_session": ended.id, "note": note.id}


def _every_value(engine: Engine) -> Iterator[tuple[str, object]]:
    with engine.connect() as connection:
        for table in SQLModel.metadata.sorted_tables:
            for row in connection.execute(text(f'SELECT * FROM "{table.name}"')):
                for value in row:
                    yield table.name, value


def _holds(value: object, marker: str) -> bool:
    if isinstance(value, bytes | memoryview):
        return marker.encode() in bytes(value)
    return marker in str(value)


def _rows_of(engine: Engine, table: str, tenant_id: str, subject: str) -> int:
    with engine.connect() as connection:
        return int(
            connection.execute(
                text(f'SELECT COUNT(*) FROM "{table}" WHERE tenant_id = :t AND subject_id = :s'),
                {"t": tenant_id, "s": subject},
            ).scalar_one()
        )


def test_after_erasure_no_table_holds_the_subjects_text_or_a_usable_key(
    backend: Backend, keyring: Keyring, tenant_id: str, marker: str
) -> None:
    store = backend.store
    ids = _fill(store, tenant_id, SUBJECT, marker)
    _fill(store, tenant_id, NEIGHBOUR, f"walrus{secrets.token_hex(8)}")
    with backend.engine.connect() as connection:
        sealed = connection.execute(
            text("SELECT ciphertext FROM memories WHERE id = :m"), {"m": ids["note"]}
        ).scalar_one()
    assert any(_holds(value, marker) for _, value in _every_value(backend.engine))  # the leak

    scope = TenantScope(tenant_id, Role.ADMIN, "key:admin")
    receipt = admin.erase_subject(scope, SUBJECT, deps=_deps(store))

    assert receipt.counts == {
        "memories": 3,
        "sessions": 2,
        "session_turns": 2,
        "context_manifests": 1,
        "consolidation_outbox": 1,
        "state": 1,
        "data_key": 1,
        "audit_events_redacted": 1,
    }
    assert [table for table, value in _every_value(backend.engine) if _holds(value, marker)] == []
    for table in ("memories", "sessions", "context_manifests"):
        assert _rows_of(backend.engine, table, tenant_id, SUBJECT) == 0
    with backend.engine.connect() as connection:
        for value in connection.execute(
            text("SELECT details FROM audit_events WHERE subject_id = :s"), {"s": SUBJECT}
        ).scalars():
            assert marker not in str(value)
        wrapped, state = connection.execute(
            text(
                "SELECT data_key_id, state_ciphertext FROM subjects "
                "WHERE tenant_id = :t AND subject_id = :s"
            ),
            {"t": tenant_id, "s": SUBJECT},
        ).one()
    assert wrapped is None and state is None
    # A copy of an old ciphertext (a backup, a WAL page) opens with no key that exists now.
    keyring.forget(tenant_id, SUBJECT)
    stranger = keyring.cipher(tenant_id, SUBJECT, keyring.new_wrapped_key(tenant_id, SUBJECT))
    with pytest.raises(DecryptionError):
        stranger.decrypt(bytes(sealed), kind="memory", row_id=ids["note"])
    # The neighbour is untouched.
    with store.uow_factory(tenant_id) as uow:
        assert len(uow.memories.list_for_subject(NEIGHBOUR)) == 3
        assert uow.subjects.get_state(NEIGHBOUR) is not None


def test_the_sqlite_files_hold_no_trace_of_the_subject_after_erasure(
    sqlite_backend: Backend, tenant_id: str, marker: str
) -> None:
    backend = sqlite_backend
    _fill(backend.store, tenant_id, SUBJECT, marker)
    admin.erase_subject(
        TenantScope(tenant_id, Role.ADMIN, "key:admin"), SUBJECT, deps=_deps(backend.store)
    )
    paths = [path for folder in backend.files for path in folder.glob("store.db*")]
    assert paths
    needles = [marker.encode(), marker.encode("utf-16-le")]
    for path in paths:
        content = path.read_bytes()
        assert not any(needle in content for needle in needles), path.name


def test_after_erasure_the_export_is_empty_and_the_history_keeps_ids_only(
    backend: Backend, tenant_id: str, marker: str
) -> None:
    ids = _fill(backend.store, tenant_id, SUBJECT, marker)
    scope = TenantScope(tenant_id, Role.ADMIN, "key:admin")
    deps = _deps(backend.store)
    receipt = admin.erase_subject(scope, SUBJECT, deps=deps)

    document = admin.export_subject(scope, SUBJECT, deps=deps)
    assert document["memories"] == [] and document["sessions"] == []
    assert document["state"] is None
    assert [r["id"] for r in document["erasure_receipts"]] == [receipt.id]
    assert marker not in str(document)
    history = admin.subject_history(scope, SUBJECT, deps=deps)
    saved = next(event for event in history if event.kind == "note.saved")
    assert saved.memory_id == ids["note"] and saved.session_id == ids["ended_session"]
    assert set(saved.details) == {"count", "source_ids"}


def test_erasing_twice_is_fine_and_the_second_receipt_counts_nothing(
    backend: Backend, tenant_id: str, marker: str
) -> None:
    _fill(backend.store, tenant_id, SUBJECT, marker)
    scope = TenantScope(tenant_id, Role.ADMIN, "key:admin")
    first = admin.erase_subject(scope, SUBJECT, deps=_deps(backend.store))
    backend.store.clock.advance(minutes=1)
    second = admin.erase_subject(scope, SUBJECT, deps=_deps(backend.store))
    assert first.total > 0 and second.total == 0
    with backend.store.uow_factory(tenant_id) as uow:
        assert [r.id for r in uow.erasure.list_receipts(SUBJECT)] == [first.id, second.id]


def test_a_consolidation_arriving_after_the_erasure_does_nothing(
    backend: Backend, tenant_id: str, marker: str
) -> None:
    store = backend.store
    ids = _fill(store, tenant_id, SUBJECT, marker)
    admin.erase_subject(TenantScope(tenant_id, Role.ADMIN, "key:admin"), SUBJECT, deps=_deps(store))

    report = consolidate_session(
        tenant_id,
        ids["ended_session"],
        deps=ConsolidationDeps(uow_factory=store.uow_factory, clock=store.clock),
    )

    assert report is None
    assert _rows_of(backend.engine, "memories", tenant_id, SUBJECT) == 0
    with backend.engine.connect() as connection:
        wrapped = connection.execute(
            text("SELECT data_key_id FROM subjects WHERE tenant_id = :t AND subject_id = :s"),
            {"t": tenant_id, "s": SUBJECT},
        ).scalar_one()
    assert wrapped is None  # not brought back with a fresh key
