"""The LLM's second opinion on notes rides the one consolidation call (issue 11).

The fake OpenAI-compatible server on loopback, the real openai client and the real
services over the in-memory store: a note the LLM refuses is not promoted and its text is
destroyed; a refusal, garbage or a timeout of the whole call promotes every note.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from memory_service.adapters.openai_judge import OpenAIJudge
from memory_service.core.model import MemoryScope, MemoryStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from memory_service.services.notes import NoteDeps, save_memory_note
from tests.support.fake_llm import (
    FakeLLM,
    fake_llm,  # noqa: F401  (fixture)
    garbage,
    refusal,
    verdicts_by_text,
)
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory
from tests.support.notes import FakeTenantPolicyStore, MarkerPii, NoLibraryIdentifiers

KEPT = "Prefers aisle seats."
DOUBTFUL = "Leads the zanzibar-quokka project at work."
SUBJECT = "subject-1"


def _run(
    server: FakeLLM,
    *,
    timeout: float = 5.0,
    notes_sent: tuple[dict[str, Any], ...] = ({"text": KEPT}, {"text": DOUBTFUL}),
) -> tuple[InMemoryUnitOfWorkFactory, str]:
    clock = FixedClock()
    factory = InMemoryUnitOfWorkFactory()
    tenant = f"t-{secrets.token_hex(4)}"
    scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="key:test")
    notes = NoteDeps(
        factory, MarkerPii(), FakeTenantPolicyStore(), clock, identifiers=NoLibraryIdentifiers()
    )
    session = sessions.open_session(scope, SUBJECT, uow_factory=factory, clock=clock)
    for arguments in notes_sent:
        clock.advance(minutes=1)
        assert save_memory_note(scope, session.id, arguments, deps=notes).memory_id

    class NoQueue:
        def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
            """Consolidated below."""

    sessions.end_session(scope, session.id, uow_factory=factory, clock=clock, tasks=NoQueue())
    judge = OpenAIJudge.connect(
        model="fake", base_url=server.base_url, api_key=None, timeout_seconds=timeout
    )
    consolidate_session(
        tenant, session.id, deps=ConsolidationDeps(uow_factory=factory, clock=clock, judge=judge)
    )
    return factory, tenant


def _memories(factory: InMemoryUnitOfWorkFactory, tenant: str) -> dict[str, Any]:
    with factory(tenant) as uow:
        everything = uow.memories.list_for_subject(SUBJECT)
        audit = uow.audit.list_for_subject(SUBJECT)
    active = sorted(
        m.text
        for m in everything
        if m.scope is MemoryScope.GLOBAL and m.status is MemoryStatus.ACTIVE
    )
    return {"active": active, "all": everything, "audit": audit}


def test_a_refused_note_is_not_promoted_and_its_text_is_destroyed(fake_llm: FakeLLM) -> None:  # noqa: F811
    fake_llm.behaviour = verdicts_by_text({}, refuse=frozenset({DOUBTFUL}))

    factory, tenant = _run(fake_llm)

    state = _memories(factory, tenant)
    assert state["active"] == [KEPT]
    assert len(fake_llm.requests) == 1
    [destroyed] = [m for m in state["all"] if m.status is MemoryStatus.DELETED]
    assert (destroyed.text, destroyed.keywords, destroyed.attribute) == ("", (), None)
    stored = repr(state["all"]) + repr(state["audit"])
    assert "zanzibar" not in stored
    refused = [e for e in state["audit"] if e.details.get("kind") == "refused"]
    assert [e.details["reason"] for e in refused] == ["llm_refused"]
    [run] = [e for e in state["audit"] if e.kind == "consolidation.run"]
    assert (run.details["judge_notes"], run.details["judge_notes_refused"]) == (2, 1)


@pytest.mark.parametrize(
    "replaced",
    [{"text": DOUBTFUL, "durability": "session"}, {"text": DOUBTFUL, "source": "model_inferred"}],
    ids=["session-only", "guess"],
)
def test_a_refused_note_takes_the_same_text_copy_it_replaced_at_save_with_it(
    fake_llm: FakeLLM,  # noqa: F811
    replaced: dict[str, Any],
) -> None:
    fake_llm.behaviour = verdicts_by_text({}, refuse=frozenset({DOUBTFUL}))

    factory, tenant = _run(fake_llm, notes_sent=({"text": KEPT}, replaced, {"text": DOUBTFUL}))

    state = _memories(factory, tenant)
    assert state["active"] == [KEPT]
    destroyed = [m for m in state["all"] if m.status is MemoryStatus.DELETED]
    assert len(destroyed) == 2
    assert all((m.text, m.keywords, m.attribute) == ("", (), None) for m in destroyed)
    assert "zanzibar" not in repr(state["all"]) + repr(state["audit"])
    refused = [e for e in state["audit"] if e.details.get("kind") == "refused"]
    assert len(refused) == 2


@pytest.mark.parametrize(
    "behaviour", [garbage, refusal, None], ids=["garbage", "refusal", "timeout"]
)
def test_a_failed_call_promotes_every_note(fake_llm: FakeLLM, behaviour: Any) -> None:  # noqa: F811
    if behaviour is None:
        fake_llm.slow(30)
    else:
        fake_llm.behaviour = behaviour

    factory, tenant = _run(fake_llm, timeout=0.3)

    assert _memories(factory, tenant)["active"] == sorted([KEPT, DOUBTFUL])
