"""save_memory_note and the confirm call on the in-memory store: every status, what is stored."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from memory_service.core.errors import Conflict, InvalidRequest, NotFound
from memory_service.core.model import (
    DEFAULT_LEGAL_BASIS,
    Attribute,
    Cardinality,
    MemoryScope,
    MemoryStatus,
    NoteStatus,
    ReasonCode,
    Role,
    Source,
)
from memory_service.core.retention import RetentionPolicy
from memory_service.core.scope import TenantScope
from memory_service.core.tenant_policy import (
    DEFAULT_TENANT_POLICY,
    TenantPolicy,
    merge_into,
    parse_tenant_policy,
)
from memory_service.core.trimming import notes_to_reinject
from memory_service.services import history
from memory_service.services.history import HistoryDeps
from memory_service.services.notes import NoteDeps, confirm_note, save_memory_note
from memory_service.services.sessions import end_session, open_session
from tests.factories import make_scope
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory
from tests.support.notes import FakeTenantPolicyStore, MarkerPii, NoLibraryIdentifiers

NOTE = {"text": "Prefers aisle seats on long flights.", "keywords": ["Seats", " travel "]}


class NoQueue:
    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        """Ending a session in these tests queues nothing."""


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def policies() -> FakeTenantPolicyStore:
    return FakeTenantPolicyStore()


@pytest.fixture
def deps(clock: FixedClock, policies: FakeTenantPolicyStore) -> NoteDeps:
    return NoteDeps(
        uow_factory=InMemoryUnitOfWorkFactory(),
        pii=MarkerPii(),
        policies=policies,
        clock=clock,
        identifiers=NoLibraryIdentifiers(),
    )


@pytest.fixture
def scope() -> TenantScope:
    return make_scope(actor="key:agent-1")


def _open(deps: NoteDeps, scope: TenantScope, subject: str = "subject-1", **kw: str) -> str:
    session = open_session(
        scope, subject, kw.get("purpose"), uow_factory=deps.uow_factory, clock=deps.clock
    )
    return session.id


def _stored(deps: NoteDeps, scope: TenantScope, session_id: str) -> list:  # type: ignore[type-arg]
    with deps.uow_factory(scope.tenant_id) as uow:
        return uow.memories.list_for_session(session_id)


def _audit(deps: NoteDeps, scope: TenantScope, subject: str = "subject-1") -> list:  # type: ignore[type-arg]
    with deps.uow_factory(scope.tenant_id) as uow:
        return uow.audit.list_for_subject(subject)


def test_a_clean_note_is_saved_as_a_session_memory_with_its_provenance(
    deps: NoteDeps, scope: TenantScope, clock: FixedClock
) -> None:
    session_id = _open(deps, scope, purpose="travel")
    arguments = NOTE | {"turn": 3, "tool_call_id": "call_42"}

    result = save_memory_note(scope, session_id, arguments, deps=deps)

    assert result.status is NoteStatus.SAVED and result.reasons == ()
    [memory] = _stored(deps, scope, session_id)
    assert memory.id == result.memory_id
    assert memory.scope is MemoryScope.SESSION and memory.session_id == session_id
    assert memory.text == NOTE["text"] and memory.keywords == ("seats", "travel")
    assert memory.purpose == "travel"  # the session's purpose when none is given
    assert memory.source is Source.USER_STATED and memory.status is MemoryStatus.ACTIVE
    assert memory.legal_basis == DEFAULT_LEGAL_BASIS
    assert memory.provenance.actor == "key:agent-1"
    # No history was recorded for the session: the model's turn number is not taken.
    assert (memory.provenance.turn, memory.provenance.tool_call_id) == (None, "call_42")
    assert memory.expires_at == clock.now() + timedelta(days=365)
    assert [e.kind for e in _audit(deps, scope)][-1] == "note.saved"


def _append_turns(deps: NoteDeps, scope: TenantScope, session_id: str, count: int) -> None:
    history_deps = HistoryDeps(uow_factory=deps.uow_factory, clock=deps.clock, keep_turns=2)
    for number in range(count):
        items = [{"role": "user", "content": f"message {number}"}, {"role": "assistant"}]
        history.append(scope, session_id, items, deps=history_deps)


def test_a_note_takes_the_latest_recorded_turn_of_its_session(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    _append_turns(deps, scope, session_id, 5)

    save_memory_note(scope, session_id, NOTE, deps=deps)

    [memory] = _stored(deps, scope, session_id)
    assert memory.provenance.turn == 5


def test_a_model_claiming_an_old_turn_cannot_make_its_note_look_cut(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    _append_turns(deps, scope, session_id, 5)  # keeps turns 4 and 5: turns 1 to 3 were cut

    save_memory_note(scope, session_id, NOTE | {"turn": 1}, deps=deps)

    [memory] = _stored(deps, scope, session_id)
    with deps.uow_factory(scope.tenant_id) as uow:
        session = uow.sessions.get(session_id)
        assert session is not None
        marks = uow.turns.marks(session)
    assert marks.first_kept_turn == 4
    assert memory.provenance.turn == 5
    assert notes_to_reinject([memory], marks.cut_so_far(), marks.reinjected) == ()


def test_a_given_purpose_wins_and_retention_follows_it(
    deps: NoteDeps, scope: TenantScope, clock: FixedClock
) -> None:
    retention = RetentionPolicy(purposes={"support": 90}, sources={Source.MODEL_INFERRED: 30})
    deps = NoteDeps(
        deps.uow_factory,
        deps.pii,
        deps.policies,
        deps.clock,
        deps.identifiers,
        retention=retention,
    )
    session_id = _open(deps, scope)

    save_memory_note(scope, session_id, NOTE | {"purpose": "support"}, deps=deps)

    [memory] = _stored(deps, scope, session_id)
    assert memory.purpose == "support"
    assert memory.expires_at == clock.now() + timedelta(days=90)


def test_a_rejected_note_is_not_stored_and_its_audit_event_holds_codes_only(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    text = "I think her e-mail is jane.marker@example.com"

    result = save_memory_note(scope, session_id, {"text": text}, deps=deps)

    assert result.status is NoteStatus.REJECTED and result.memory_id is None
    assert "pii" in {r.code.value for r in result.reasons}
    assert _stored(deps, scope, session_id) == []
    event = _audit(deps, scope)[-1]
    assert event.kind == "note.rejected" and event.memory_id is None
    assert event.details == {
        "codes": sorted({r.code.value for r in result.reasons}),
        "reason_count": len(result.reasons),
    }
    assert "marker" not in repr(event)


def test_wrong_types_are_an_invalid_rejection_not_an_error(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)

    result = save_memory_note(
        scope, session_id, {"text": ["x"], "keywords": "a", "tenant_id": "t-2"}, deps=deps
    )

    assert result.status is NoteStatus.REJECTED
    assert {r.code.value for r in result.reasons} == {"invalid"}
    assert _stored(deps, scope, session_id) == []


def test_null_optional_fields_count_as_omitted(deps: NoteDeps, scope: TenantScope) -> None:
    session_id = _open(deps, scope)
    arguments = NOTE | {"purpose": None, "source": None, "durability": None, "confirmed": None}

    assert save_memory_note(scope, session_id, arguments, deps=deps).status is NoteStatus.SAVED


def test_a_dry_run_answers_but_stores_nothing_and_audits_nothing(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    events_before = len(_audit(deps, scope))

    saved = save_memory_note(scope, session_id, NOTE, dry_run=True, deps=deps)
    rejected = save_memory_note(scope, session_id, {"text": "a@b.example"}, dry_run=True, deps=deps)

    assert (saved.status, saved.memory_id) == (NoteStatus.SAVED, None)
    assert rejected.status is NoteStatus.REJECTED
    assert _stored(deps, scope, session_id) == []
    assert len(_audit(deps, scope)) == events_before


def test_the_same_fact_again_is_a_duplicate_of_the_first(
    deps: NoteDeps, scope: TenantScope
) -> None:
    first_session = _open(deps, scope)
    first = save_memory_note(scope, first_session, NOTE, deps=deps)
    session_id = _open(deps, scope)

    again = save_memory_note(
        scope, session_id, {"text": "  prefers AISLE seats on long flights "}, deps=deps
    )

    assert (again.status, again.memory_id) == (NoteStatus.DUPLICATE, first.memory_id)
    assert _stored(deps, scope, session_id) == []


def test_model_inferred_notes_are_kept_as_hypotheses(deps: NoteDeps, scope: TenantScope) -> None:
    session_id = _open(deps, scope)

    result = save_memory_note(
        scope,
        session_id,
        # A plain fact the model does not hold ("Travels with two young children." it does).
        {"text": "Speaks Portuguese.", "source": "model_inferred"},
        deps=deps,
    )

    [memory] = _stored(deps, scope, session_id)
    assert result.status is NoteStatus.SAVED
    assert memory.source is Source.MODEL_INFERRED and memory.is_hypothesis


def test_session_only_notes_are_stored_as_session_only(deps: NoteDeps, scope: TenantScope) -> None:
    session_id = _open(deps, scope)

    save_memory_note(
        scope,
        session_id,
        {"text": "Wants a window seat tonight.", "durability": "session"},
        deps=deps,
    )

    [memory] = _stored(deps, scope, session_id)
    assert memory.durability.value == "session"


def test_the_tenant_policy_holds_inferred_notes_until_the_user_confirms(
    deps: NoteDeps, scope: TenantScope, policies: FakeTenantPolicyStore, clock: FixedClock
) -> None:
    policies.set(scope.tenant_id, TenantPolicy(confirm_sources=frozenset({Source.MODEL_INFERRED})))
    session_id = _open(deps, scope)
    stated = save_memory_note(scope, session_id, NOTE, deps=deps)
    inferred = {"text": "Travels with a small child.", "source": "model_inferred"}

    held = save_memory_note(scope, session_id, inferred, deps=deps)

    assert stated.status is NoteStatus.SAVED
    assert held.status is NoteStatus.NEEDS_CONFIRMATION and held.memory_id
    memories = {m.id: m for m in _stored(deps, scope, session_id)}
    assert memories[held.memory_id].status is MemoryStatus.PENDING_CONFIRMATION

    clock.advance(minutes=1)
    confirmed = confirm_note(scope, session_id, held.memory_id, deps=deps)

    memory = {m.id: m for m in _stored(deps, scope, session_id)}[held.memory_id]
    assert (confirmed.status, confirmed.memory_id) == (NoteStatus.SAVED, held.memory_id)
    assert memory.status is MemoryStatus.ACTIVE and memory.legal_basis == "consent"
    assert memory.updated_at == clock.now()
    assert confirm_note(scope, session_id, held.memory_id, deps=deps).status is NoteStatus.SAVED
    assert [e.kind for e in _audit(deps, scope)][-2:] == ["note.held", "note.confirmed"]


def test_confirming_a_note_that_became_a_duplicate_supersedes_it(
    deps: NoteDeps, scope: TenantScope, policies: FakeTenantPolicyStore
) -> None:
    policies.set(scope.tenant_id, TenantPolicy(confirm_all=True, agent_confirmation=False))
    session_id = _open(deps, scope)
    held = save_memory_note(scope, session_id, NOTE | {"confirmed": True}, deps=deps)
    policies.set(scope.tenant_id, DEFAULT_TENANT_POLICY)
    active = save_memory_note(scope, session_id, NOTE, deps=deps)
    assert held.status is NoteStatus.NEEDS_CONFIRMATION and held.memory_id
    assert active.status is NoteStatus.SAVED  # a held note is not a duplicate

    result = confirm_note(scope, session_id, held.memory_id, deps=deps)

    assert (result.status, result.memory_id) == (NoteStatus.DUPLICATE, active.memory_id)
    memory = {m.id: m for m in _stored(deps, scope, session_id)}[held.memory_id]
    assert memory.status is MemoryStatus.SUPERSEDED and memory.superseded_by == active.memory_id
    with pytest.raises(Conflict):
        confirm_note(scope, session_id, held.memory_id, deps=deps)


def test_a_note_the_user_confirmed_in_conversation_is_saved_with_consent(
    deps: NoteDeps, scope: TenantScope, policies: FakeTenantPolicyStore
) -> None:
    policies.set(scope.tenant_id, TenantPolicy(confirm_all=True))
    session_id = _open(deps, scope)

    result = save_memory_note(scope, session_id, NOTE | {"confirmed": True}, deps=deps)

    [memory] = _stored(deps, scope, session_id)
    assert result.status is NoteStatus.SAVED and memory.legal_basis == "consent"


def test_unknown_other_tenants_and_other_subjects_sessions_read_as_not_found(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    other = TenantScope(tenant_id="tenant-b", role=Role.AGENT, actor="key:agent-2")

    with pytest.raises(NotFound):
        save_memory_note(scope, "no-such-session", NOTE, deps=deps)
    with pytest.raises(NotFound):
        save_memory_note(other, session_id, NOTE, deps=deps)
    with pytest.raises(NotFound):
        save_memory_note(scope, session_id, NOTE, subject_id="subject-2", deps=deps)
    with pytest.raises(InvalidRequest):
        save_memory_note(scope, "s" * 65, NOTE, deps=deps)
    assert _stored(deps, scope, session_id) == []


def test_an_ended_session_takes_no_more_notes_even_rejected_ones(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    end_session(scope, session_id, uow_factory=deps.uow_factory, clock=deps.clock, tasks=NoQueue())
    events_before = len(_audit(deps, scope))

    for arguments in (NOTE, {"text": "x@y.example"}):
        with pytest.raises(Conflict):
            save_memory_note(scope, session_id, arguments, deps=deps)
    assert _stored(deps, scope, session_id) == []
    assert len(_audit(deps, scope)) == events_before


def test_confirm_refuses_unknown_notes_and_notes_of_another_session(
    deps: NoteDeps, scope: TenantScope
) -> None:
    first = _open(deps, scope)
    saved = save_memory_note(scope, first, NOTE, deps=deps)
    second = _open(deps, scope)
    assert saved.memory_id

    with pytest.raises(NotFound):
        confirm_note(scope, second, saved.memory_id, deps=deps)
    with pytest.raises(NotFound):
        confirm_note(scope, first, "no-such-note", deps=deps)


def test_the_tenant_policy_parses_its_json_and_keeps_other_settings() -> None:
    policy = parse_tenant_policy({"confirm_sources": ["model_inferred"], "other": 1})

    assert policy.needs_confirmation(Source.MODEL_INFERRED, confirmed=False)
    assert not policy.needs_confirmation(Source.USER_STATED, confirmed=False)
    assert not policy.needs_confirmation(Source.MODEL_INFERRED, confirmed=True)
    assert parse_tenant_policy(None) == DEFAULT_TENANT_POLICY
    assert merge_into({"other": 1, "confirm_all": True}, policy) == {"other": 1, **policy.to_dict()}
    bad_documents: list[object] = [[], {"confirm_sources": ["gossip"]}, {"confirm_all": "yes"}]
    for bad in bad_documents:
        with pytest.raises(InvalidRequest):
            parse_tenant_policy(bad)


def test_an_attribute_is_stored_with_the_note(deps: NoteDeps, scope: TenantScope) -> None:
    session_id = _open(deps, scope)
    attribute = {"key": "seat_preference", "cardinality": "single"}

    result = save_memory_note(scope, session_id, NOTE | {"attribute": attribute}, deps=deps)

    assert result.status is NoteStatus.SAVED
    [memory] = _stored(deps, scope, session_id)
    assert memory.attribute == Attribute("seat_preference", Cardinality.SINGLE)


def test_a_null_attribute_is_no_attribute(deps: NoteDeps, scope: TenantScope) -> None:
    session_id = _open(deps, scope)

    save_memory_note(scope, session_id, NOTE | {"attribute": None}, deps=deps)

    assert [m.attribute for m in _stored(deps, scope, session_id)] == [None]


@pytest.mark.parametrize(
    "attribute",
    [
        "home_city",
        {"key": "home_city"},
        {"key": "home_city", "cardinality": "one"},
        {"key": "Home City", "cardinality": "single"},
        {"key": "home__city", "cardinality": "single"},
        {"key": "x", "cardinality": "single"},
        {"key": "phone_0612345678", "cardinality": "single"},
        {"key": "home_city", "cardinality": "single", "value": "Paris"},
        {"key": 3, "cardinality": "multi"},
        {"key": "k" * 41, "cardinality": "multi"},
        {"key": "contact_at_jane@example", "cardinality": "single"},
    ],
)
def test_a_malformed_attribute_rejects_the_note_and_stores_nothing(
    deps: NoteDeps, scope: TenantScope, attribute: object
) -> None:
    session_id = _open(deps, scope)

    result = save_memory_note(scope, session_id, NOTE | {"attribute": attribute}, deps=deps)

    assert result.status is NoteStatus.REJECTED
    assert {r.code for r in result.reasons} == {ReasonCode.INVALID}
    assert _stored(deps, scope, session_id) == []
    details = " ".join(r.detail for r in result.reasons)
    assert "Paris" not in details and "0612345678" not in details


def test_a_personal_attribute_key_is_refused_as_personal_data(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    # MarkerPii finds personal data in anything holding an "@"; a key cannot, so the
    # detector is shown the key's words: here it flags them as a fake would flag a name.
    deps.pii.entity_types = lambda text: (  # type: ignore[method-assign]
        frozenset({"PERSON"}) if "jane" in text else frozenset()
    )
    attribute = {"key": "jane_allergy", "cardinality": "multi"}

    result = save_memory_note(scope, session_id, NOTE | {"attribute": attribute}, deps=deps)

    assert result.status is NoteStatus.REJECTED
    # "allergy" in the key is a special category: a refused note names it too.
    assert [r.code for r in result.reasons] == [ReasonCode.PII, ReasonCode.SENSITIVE]


def test_a_durable_note_replaces_a_session_only_note_of_the_same_text(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    first = save_memory_note(scope, session_id, NOTE | {"durability": "session"}, deps=deps)

    second = save_memory_note(scope, session_id, NOTE, deps=deps)

    assert second.status is NoteStatus.SAVED and second.memory_id != first.memory_id
    stored = {m.id: m for m in _stored(deps, scope, session_id)}
    assert stored[first.memory_id].superseded_by == second.memory_id  # type: ignore[index]
    assert stored[second.memory_id].status is MemoryStatus.ACTIVE  # type: ignore[index]


def test_a_stated_note_replaces_a_guess_of_the_same_text(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    guess = save_memory_note(scope, session_id, NOTE | {"source": "model_inferred"}, deps=deps)

    stated = save_memory_note(scope, session_id, NOTE, deps=deps)

    assert stated.status is NoteStatus.SAVED
    stored = {m.id: m for m in _stored(deps, scope, session_id)}
    assert stored[guess.memory_id].status is MemoryStatus.SUPERSEDED  # type: ignore[index]


def test_a_session_only_or_guessed_repeat_of_a_fact_is_still_a_duplicate(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _open(deps, scope)
    fact = save_memory_note(scope, session_id, NOTE, deps=deps)

    for repeat in ({"durability": "session"}, {"source": "model_inferred"}):
        result = save_memory_note(scope, session_id, NOTE | repeat, deps=deps)
        assert (result.status, result.memory_id) == (NoteStatus.DUPLICATE, fact.memory_id)


# Made up: a wallet's recovery words told as prose, which no privacy rule reads as a secret.
RULES_MISS = "Recovery sheet for the wallet reads orbit lantern crisp velvet tundra maple."


@pytest.mark.parametrize("backstop", [False, True])
def test_the_deployment_setting_decides_whether_the_learned_backstop_reads_a_note(
    deps: NoteDeps, scope: TenantScope, backstop: bool
) -> None:
    deps = replace(deps, privacy_backstop=backstop)
    session_id = _open(deps, scope)

    result = save_memory_note(scope, session_id, {"text": RULES_MISS}, deps=deps)

    if backstop:
        assert result.status is NoteStatus.REJECTED
        assert [(r.code.value, r.detail) for r in result.reasons] == [("secret", "learned")]
        assert _stored(deps, scope, session_id) == []
    else:
        assert result.status is NoteStatus.SAVED
