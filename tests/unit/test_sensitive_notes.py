"""Special categories of data (GDPR art. 9, and criminal records): found, held, confirmed."""

from __future__ import annotations

import pytest

from memory_service.core.errors import InvalidRequest
from memory_service.core.model import MemoryStatus, NoteStatus, ReasonCode
from memory_service.core.privacy.sensitive import (
    EXPLICIT_CONSENT,
    SensitiveCategory,
    check_sensitive,
    sensitive_categories,
)
from memory_service.core.scope import TenantScope
from memory_service.core.tenant_policy import TenantPolicy, parse_tenant_policy
from memory_service.services.notes import NoteDeps, confirm_note, save_memory_note
from memory_service.services.sessions import open_session
from tests.factories import make_scope
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory
from tests.support.notes import FakeTenantPolicyStore, MarkerPii, NoLibraryIdentifiers

C = SensitiveCategory

STATED = [
    ("Has type 2 diabetes and prefers low-sugar recipes.", C.HEALTH),
    ("Allergic to peanuts; exclude them from recipes.", C.HEALTH),
    ("Lactose intolerant, orders oat milk.", C.HEALTH),
    ("Was diagnosed with ADHD as an adult.", C.HEALTH),
    ("Souffre d'asthme sévère depuis l'enfance.", C.HEALTH),
    ("Tiene artritis en las manos y prefiere teclados ergonómicos.", C.HEALTH),
    ("Leidet an Migräne und meidet helle Bildschirme.", C.HEALTH),
    ("Ha una grave allergia al lattice.", C.HEALTH),
    ("Is a devout Catholic and attends Mass on Sundays.", C.RELIGION),
    ("Est musulmane pratiquante.", C.RELIGION),
    ("Es judío y celebra el shabbat.", C.RELIGION),
    ("Ist katholisch und geht sonntags in die Kirche.", C.RELIGION),
    ("Only eats kosher food.", C.RELIGION),
    ("Is gay and travels with his husband.", C.SEXUAL_ORIENTATION),
    ("Ist lesbisch.", C.SEXUAL_ORIENTATION),
    ("È omosessuale.", C.SEXUAL_ORIENTATION),
    ("Is of Korean descent.", C.ETHNIC_ORIGIN),
    ("Votes Green in every election.", C.POLITICAL_OPINION),
    ("Est de gauche et membre du parti depuis vingt ans.", C.POLITICAL_OPINION),
    ("Is a member of the teachers' union.", C.UNION_MEMBERSHIP),
    ("Ist Gewerkschaftsmitglied bei Verdi.", C.UNION_MEMBERSHIP),
    ("Shared her genetic test results: BRCA1 carrier.", C.GENETIC),
    ("Sent us his fingerprint template for the door.", C.BIOMETRIC),
    ("Was convicted of fraud in 2015.", C.CRIMINAL_RECORD),
    ("A un casier judiciaire.", C.CRIMINAL_RECORD),
    ("Tiene antecedentes penales.", C.CRIMINAL_RECORD),
    ("Ist vorbestraft.", C.CRIMINAL_RECORD),
    ("Ha precedenti penali.", C.CRIMINAL_RECORD),
]

# The line drawn for food: a chosen diet is a preference, a named condition is health data.
ORDINARY = [
    "Vegetarian; no meat at business dinners.",
    "Vegan, avoids honey too.",
    "Prefers lactose-free milk in coffee.",
    "Avoids gluten when possible.",
    "Végétarien, ne mange pas de poisson non plus.",
    "Isst kein Fleisch und trinkt keinen Alkohol.",
    "Non mangia carne rossa per scelta.",
    "Christian prefers window seats.",
    "Uses a conservative estimate for budgets.",
    "Trains for a race every spring.",
    "Has a favorite website for recipes.",
    "Works in healthcare as a biomedical engineer.",
    "Follows European Union trade rules closely for work.",
    "Uses fingerprint unlock on the phone.",
    "Notifications are disabled on weekends.",
    "Likes to take the floor first: prend la parole en premier.",
]


@pytest.mark.parametrize(("text", "category"), STATED)
def test_a_special_category_stated_about_the_person_is_found(
    text: str, category: SensitiveCategory
) -> None:
    assert category in sensitive_categories(text)


@pytest.mark.parametrize("text", ORDINARY)
def test_diets_by_choice_and_mere_topics_are_not_special_categories(text: str) -> None:
    assert sensitive_categories(text) == frozenset()


def test_the_reason_names_categories_never_the_words() -> None:
    [reason] = check_sensitive("Has epilepsy", ["Catholic faith"])

    assert reason.code is ReasonCode.SENSITIVE
    assert reason.detail == "health, religion_or_belief"


HEALTH_NOTE = {"text": "Has type 2 diabetes and wants low-sugar meals."}


@pytest.fixture
def policies() -> FakeTenantPolicyStore:
    return FakeTenantPolicyStore()


@pytest.fixture
def deps(policies: FakeTenantPolicyStore) -> NoteDeps:
    return NoteDeps(
        uow_factory=InMemoryUnitOfWorkFactory(),
        pii=MarkerPii(),
        policies=policies,
        clock=FixedClock(),
        identifiers=NoLibraryIdentifiers(),
    )


@pytest.fixture
def scope() -> TenantScope:
    return make_scope(actor="key:agent-1")


def _session(deps: NoteDeps, scope: TenantScope) -> str:
    return open_session(scope, "subject-1", None, uow_factory=deps.uow_factory, clock=deps.clock).id


def _memory(deps: NoteDeps, scope: TenantScope, memory_id: str | None):  # type: ignore[no-untyped-def]
    with deps.uow_factory(scope.tenant_id) as uow:
        return uow.memories.get(memory_id or "")


def test_a_sensitive_note_is_held_by_default_and_confirmed_with_explicit_consent(
    deps: NoteDeps, scope: TenantScope
) -> None:
    session_id = _session(deps, scope)

    held = save_memory_note(scope, session_id, HEALTH_NOTE, deps=deps)

    assert held.status is NoteStatus.NEEDS_CONFIRMATION
    assert [r.code for r in held.reasons] == [ReasonCode.SENSITIVE]
    assert _memory(deps, scope, held.memory_id).status is MemoryStatus.PENDING_CONFIRMATION

    confirmed = confirm_note(scope, session_id, held.memory_id or "", deps=deps)

    memory = _memory(deps, scope, held.memory_id)
    assert confirmed.status is NoteStatus.SAVED
    assert (memory.status, memory.legal_basis) == (MemoryStatus.ACTIVE, EXPLICIT_CONSENT)


def test_a_sensitive_note_the_user_already_confirmed_is_stored_with_explicit_consent(
    deps: NoteDeps, scope: TenantScope
) -> None:
    result = save_memory_note(
        scope, _session(deps, scope), HEALTH_NOTE | {"confirmed": True}, deps=deps
    )

    assert result.status is NoteStatus.SAVED
    assert _memory(deps, scope, result.memory_id).legal_basis == EXPLICIT_CONSENT


def test_a_tenant_that_does_not_trust_its_agents_still_holds_a_confirmed_sensitive_note(
    deps: NoteDeps, scope: TenantScope, policies: FakeTenantPolicyStore
) -> None:
    policies.set(scope.tenant_id, TenantPolicy(agent_confirmation=False))

    result = save_memory_note(
        scope, _session(deps, scope), HEALTH_NOTE | {"confirmed": True}, deps=deps
    )

    assert result.status is NoteStatus.NEEDS_CONFIRMATION


def test_a_tenant_can_refuse_sensitive_notes_outright(
    deps: NoteDeps, scope: TenantScope, policies: FakeTenantPolicyStore
) -> None:
    policies.set(scope.tenant_id, TenantPolicy(refuse_sensitive=True))
    session_id = _session(deps, scope)

    result = save_memory_note(scope, session_id, HEALTH_NOTE, deps=deps)

    assert result.status is NoteStatus.REJECTED and result.memory_id is None
    assert [r.code for r in result.reasons] == [ReasonCode.SENSITIVE]
    with deps.uow_factory(scope.tenant_id) as uow:
        assert uow.memories.list_for_session(session_id) == []
        events = uow.audit.list_for_subject("subject-1")
    [event] = [e for e in events if e.kind.startswith("note.")]
    assert event.kind == "note.rejected" and event.details["codes"] == ["sensitive"]


def test_a_note_refused_for_another_reason_names_its_special_category_too(
    deps: NoteDeps, scope: TenantScope
) -> None:
    note = {"text": "Has type 2 diabetes; send the meal plans to diet@example.com."}

    result = save_memory_note(scope, _session(deps, scope), note, deps=deps)

    assert result.status is NoteStatus.REJECTED and result.memory_id is None
    assert {r.code for r in result.reasons} == {ReasonCode.PII, ReasonCode.SENSITIVE}


def test_an_ordinary_note_keeps_legitimate_interest(deps: NoteDeps, scope: TenantScope) -> None:
    result = save_memory_note(
        scope, _session(deps, scope), {"text": "Vegetarian; no meat at dinners."}, deps=deps
    )

    assert (result.status, result.reasons) == (NoteStatus.SAVED, ())
    assert _memory(deps, scope, result.memory_id).legal_basis == "legitimate_interest"


def test_refuse_sensitive_must_be_a_boolean() -> None:
    assert parse_tenant_policy({"refuse_sensitive": True}).refuse_sensitive
    with pytest.raises(InvalidRequest, match="refuse_sensitive"):
        parse_tenant_policy({"refuse_sensitive": "yes"})
