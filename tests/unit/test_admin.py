"""The admin use cases on the in-memory fakes: erase, delete, correct, export, history."""

from __future__ import annotations

import json
import secrets
import string
from datetime import timedelta

import pytest

from memory_service.core.erasure import ERASED_KINDS, redact_details
from memory_service.core.errors import Conflict, InvalidRequest, NotFound, PermissionDenied
from memory_service.core.model import (
    AuditEvent,
    EventKind,
    MemoryScope,
    MemoryStatus,
    ReasonCode,
    Role,
    Source,
    SubjectState,
)
from memory_service.core.retention import RetentionPolicy
from memory_service.core.scope import TenantScope
from memory_service.services import admin
from tests.integration.records import make_memory, make_session
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory
from tests.support.notes import NoLibraryIdentifiers

SUBJECT = "cust-42"
POLICY = RetentionPolicy(default_days=365, purposes={"support": 90})


class KeywordPii:
    """Canned detector: anything with an @ is an e-mail address."""

    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset({"EMAIL_ADDRESS"}) if "@" in text else frozenset()


class RecordingCache:
    def __init__(self) -> None:
        self.purged: list[tuple[str, str]] = []

    def purge_subject(self, tenant_id: str, subject_id: str) -> int:
        self.purged.append((tenant_id, subject_id))
        return 0


def _deps(
    factory: InMemoryUnitOfWorkFactory, clock: FixedClock, cache: RecordingCache | None = None
) -> admin.AdminDeps:
    return admin.AdminDeps(
        uow_factory=factory,
        clock=clock,
        pii=KeywordPii(),
        cache=cache or RecordingCache(),
        identifiers=NoLibraryIdentifiers(),
        retention=POLICY,
    )


@pytest.fixture
def tenant() -> str:
    return f"t-{secrets.token_hex(4)}"


@pytest.fixture
def scope(tenant: str) -> TenantScope:
    return TenantScope(tenant, Role.ADMIN, "key:admin-1")


@pytest.fixture
def marker() -> str:
    # Letters only: a random letter-digit code would be refused as an identifier.
    return "quokka" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(12))


def _seed(factory: InMemoryUnitOfWorkFactory, tenant: str, clock: FixedClock, marker: str) -> str:
    """A subject with a session, a session note, a global memory, state and audit events."""
    now = clock.now()
    session = make_session(tenant, SUBJECT, now)
    note = make_memory(
        tenant,
        SUBJECT,
        now,
        scope=MemoryScope.SESSION,
        session_id=session.id,
        text=f"Feeds the {marker} on Sundays.",
    )
    durable = make_memory(tenant, SUBJECT, now, text=f"Owns a {marker}.", keywords=(marker,))
    with factory(tenant) as uow:
        uow.sessions.add(session)
        uow.memories.add(note)
        uow.memories.add(durable)
        uow.outbox.add(session.id, now)
        uow.subjects.put_state(SubjectState(tenant, SUBJECT, {"pet": marker}, now))
        uow.audit.append(
            AuditEvent(
                id="e-1",
                tenant_id=tenant,
                kind=EventKind.NOTE_REJECTED,
                at=now,
                actor="key:agent",
                subject_id=SUBJECT,
                details={"reasons": ["pii"], "entity_types": ["PERSON"], "count": 1},
            )
        )
        uow.commit()
    return durable.id


def _erase(scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock) -> object:
    return admin.erase_subject(scope, SUBJECT, deps=_deps(factory, clock))


def test_erasure_removes_everything_and_counts_it(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    _seed(factory, scope.tenant_id, clock, marker)
    cache = RecordingCache()

    receipt = admin.erase_subject(scope, SUBJECT, deps=_deps(factory, clock, cache))

    assert receipt.counts["memories"] == 2
    assert receipt.counts["sessions"] == 1
    assert receipt.counts["consolidation_outbox"] == 1
    assert receipt.counts["state"] == 1
    assert receipt.counts["data_key"] == 1
    assert receipt.counts["audit_events_redacted"] == 1
    assert receipt.requested_by == "key:admin-1"
    assert cache.purged == [(scope.tenant_id, SUBJECT)]
    with factory(scope.tenant_id) as uow:
        assert uow.memories.list_for_subject(SUBJECT) == []
        assert uow.sessions.list_for_subject(SUBJECT) == []
        assert uow.subjects.get_state(SUBJECT) is None
        assert [r.id for r in uow.erasure.list_receipts(SUBJECT)] == [receipt.id]
    assert marker not in json.dumps([str(v) for v in vars(factory.store).values()])


def test_erasure_keeps_audit_ids_kinds_and_times_without_text_derived_details(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    _seed(factory, scope.tenant_id, clock, marker)
    _erase(scope, factory, clock)
    history = admin.subject_history(scope, SUBJECT, deps=_deps(factory, clock))
    rejected = next(event for event in history if event.id == "e-1")
    assert rejected.kind == "note.rejected"
    assert rejected.details == {"count": 1}
    erased = next(event for event in history if event.kind == "subject.erased")
    assert erased.actor == "key:admin-1"
    assert set(ERASED_KINDS) <= set(erased.details)


def test_erasing_twice_returns_a_receipt_of_zero_counts(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    _seed(factory, scope.tenant_id, clock, marker)
    first = _erase(scope, factory, clock)
    clock.advance(minutes=1)
    second = admin.erase_subject(scope, SUBJECT, deps=_deps(factory, clock))
    assert first.total > 0  # type: ignore[attr-defined]
    assert second.total == 0
    with factory(scope.tenant_id) as uow:
        assert len(uow.erasure.list_receipts(SUBJECT)) == 2


def test_another_tenants_subject_erases_like_an_unknown_one(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    owner = f"t-{secrets.token_hex(4)}"
    memory_id = _seed(factory, owner, clock, marker)
    receipt = _erase(scope, factory, clock)
    assert receipt.total == 0  # type: ignore[attr-defined]
    with factory(owner) as uow:
        assert uow.memories.get(memory_id) is not None
        assert uow.subjects.get_state(SUBJECT) is not None


def test_an_agent_key_may_not_erase(factory: InMemoryUnitOfWorkFactory, clock: FixedClock) -> None:
    agent = TenantScope("t-1", Role.AGENT, "key:agent")
    with pytest.raises(PermissionDenied):
        _erase(agent, factory, clock)


def test_delete_destroys_the_text_and_keeps_the_row_deleted(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    deleted = admin.delete_memory(scope, memory_id, deps=_deps(factory, clock))
    again = admin.delete_memory(scope, memory_id, deps=_deps(factory, clock))
    assert deleted.status is MemoryStatus.DELETED
    assert again == deleted
    with factory(scope.tenant_id) as uow:
        stored = uow.memories.get(memory_id)
    assert stored is not None and stored.text == "" and stored.keywords == ()
    kinds = [e.kind for e in admin.subject_history(scope, SUBJECT, deps=_deps(factory, clock))]
    assert kinds.count("memory.deleted") == 1


@pytest.mark.parametrize("memory_id", ["", "x" * 65, "../etc", "a b", 12])
def test_malformed_memory_ids_are_refused(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, memory_id: object
) -> None:
    with pytest.raises(InvalidRequest):
        admin.delete_memory(scope, memory_id, deps=_deps(factory, clock))


def test_another_tenants_memory_is_not_found(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, f"t-{secrets.token_hex(4)}", clock, marker)
    with pytest.raises(NotFound):
        admin.delete_memory(scope, memory_id, deps=_deps(factory, clock))
    with pytest.raises(NotFound):
        _correct(scope, factory, clock, memory_id, "Owns a cat.")


def _correct(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    memory_id: str,
    text: object,
    reason: object = "inaccurate",
) -> object:
    return admin.correct_memory(
        scope,
        memory_id,
        text,
        reason,
        deps=_deps(factory, clock),
    )


def test_a_correction_supersedes_the_old_memory_and_both_stay_in_history(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    clock.advance(hours=1)
    corrected = _correct(scope, factory, clock, memory_id, "Owns two cats.")
    with factory(scope.tenant_id) as uow:
        new = uow.memories.get(corrected.id)  # type: ignore[attr-defined]
        old = uow.memories.get(memory_id)
    assert new is not None and old is not None
    assert new.text == "Owns two cats."
    assert new.source is Source.ADMIN_CORRECTION
    assert new.scope is MemoryScope.GLOBAL
    assert new.provenance.actor == "key:admin-1"
    assert new.provenance.derived_from == (memory_id,)
    assert new.expires_at == clock.now() + timedelta(days=365)
    assert old.status is MemoryStatus.SUPERSEDED
    assert old.superseded_by == new.id and old.superseded_at == clock.now()
    events = admin.subject_history(scope, SUBJECT, deps=_deps(factory, clock))
    touched = {(e.kind, e.memory_id) for e in events}
    assert ("memory.corrected", memory_id) in touched
    assert ("memory.created", new.id) in touched


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Write to jane.doe@example.com about it.", ReasonCode.PII),
        ("Password is hunter2-Xy9!", ReasonCode.SECRET),
        ("x" * 2000, ReasonCode.INVALID),
        (42, ReasonCode.INVALID),
    ],
)
def test_a_refused_correction_stores_nothing_and_names_the_codes(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    marker: str,
    text: object,
    code: ReasonCode,
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    before = len(factory.store.memories), len(factory.store.audit)
    with pytest.raises(admin.CorrectionRefused) as refused:
        _correct(scope, factory, clock, memory_id, text)
    assert code in [reason.code for reason in refused.value.reasons]
    assert code.value in refused.value.message
    if isinstance(text, str):
        assert text[:20] not in refused.value.message
    assert (len(factory.store.memories), len(factory.store.audit)) == before
    with factory(scope.tenant_id) as uow:
        still = uow.memories.get(memory_id)
    assert still is not None and still.status is MemoryStatus.ACTIVE


@pytest.mark.parametrize("reason", ["", "Because the user said so", None, "x" * 41])
def test_a_correction_reason_must_be_a_code(
    scope: TenantScope,
    factory: InMemoryUnitOfWorkFactory,
    clock: FixedClock,
    marker: str,
    reason: object,
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    with pytest.raises(InvalidRequest):
        _correct(scope, factory, clock, memory_id, "Owns two cats.", reason)


def test_a_superseded_memory_cannot_be_corrected_again(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    _correct(scope, factory, clock, memory_id, "Owns two cats.")
    with pytest.raises(Conflict):
        _correct(scope, factory, clock, memory_id, "Owns three cats.")


def test_export_holds_memories_with_history_state_sessions_receipts_and_events(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    corrected = _correct(scope, factory, clock, memory_id, "Owns two cats.")
    document = admin.export_subject(scope, SUBJECT, deps=_deps(factory, clock))
    json.dumps(document)  # one JSON document
    by_id = {memory["id"]: memory for memory in document["memories"]}
    assert set(by_id) >= {memory_id, corrected.id}  # type: ignore[attr-defined]
    assert by_id[memory_id]["status"] == "superseded"
    assert [e["kind"] for e in by_id[memory_id]["history"]] == ["memory.corrected"]
    assert by_id[corrected.id]["provenance"]["derived_from"] == [memory_id]  # type: ignore[attr-defined]
    assert document["state"] == {"pet": marker}
    assert len(document["sessions"]) == 1
    assert document["erasure_receipts"] == []
    assert {e["kind"] for e in document["audit_events"]} >= {"note.rejected", "memory.corrected"}


def test_after_erasure_the_export_holds_no_data_and_no_text(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    _seed(factory, scope.tenant_id, clock, marker)
    receipt = _erase(scope, factory, clock)
    document = admin.export_subject(scope, SUBJECT, deps=_deps(factory, clock))
    assert document["memories"] == [] and document["sessions"] == []
    assert document["state"] is None
    assert [r["id"] for r in document["erasure_receipts"]] == [receipt.id]  # type: ignore[attr-defined]
    assert marker not in json.dumps(document)


def test_an_unknown_subject_exports_as_an_empty_document(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock
) -> None:
    document = admin.export_subject(scope, "nobody-1", deps=_deps(factory, clock))
    assert document["memories"] == document["sessions"] == document["audit_events"] == []
    assert document["state"] is None


def test_every_admin_operation_is_recorded_with_the_acting_key(
    scope: TenantScope, factory: InMemoryUnitOfWorkFactory, clock: FixedClock, marker: str
) -> None:
    memory_id = _seed(factory, scope.tenant_id, clock, marker)
    _correct(scope, factory, clock, memory_id, "Owns two cats.")
    admin.export_subject(scope, SUBJECT, deps=_deps(factory, clock))
    admin.subject_history(scope, SUBJECT, deps=_deps(factory, clock))
    _erase(scope, factory, clock)
    mine = [e for e in factory.store.audit if e.actor == scope.actor]
    assert {e.kind for e in mine} == {
        "memory.corrected",
        "memory.created",
        "subject.exported",
        "subject.history_read",
        "subject.erased",
    }
    assert marker not in json.dumps([e.details for e in factory.store.audit])


def test_redaction_keeps_counts_flags_nulls_and_ids_only() -> None:
    an_id = "3e518582-fb44-470d-be46-3fca4dbb5115"
    details = {
        "count": 2,
        "ratio": 0.5,
        "failed": False,
        "model": None,
        "run_id": an_id,
        "created_ids": [an_id],
        "reasons": ["pii"],
        "entity_types": "PERSON",
        "mixed": [an_id, "free text"],
        "nested": {"text": "x"},
    }
    kept = redact_details(details)
    assert kept == {
        "count": 2,
        "ratio": 0.5,
        "failed": False,
        "model": None,
        "run_id": an_id,
        "created_ids": [an_id],
    }
    assert redact_details(kept) == kept
