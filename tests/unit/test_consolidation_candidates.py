"""Consolidation loads only the candidates the term index offers, and decides as over everything.

The core names a memory's candidate terms and which notes need a lookup; the service asks
the store for a few globals per note. On a global memory far larger than those lookups,
the plan must be the one the core makes over the whole global memory.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from dataclasses import replace

from memory_service.core.consolidation import (
    GLOBAL_CANDIDATES_PER_NOTE,
    JudgeRequest,
    JudgeResult,
    Verdict,
    candidate_lookups,
    candidate_terms,
    plan_consolidation,
)
from memory_service.core.model import Durability, Memory, MemoryScope, MemoryStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from tests.factories import make_memory
from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory

SUBJECT = "subject-1"
SEATS = "Prefers aisle seats."
SEATS_PARAPHRASE = "Likes to sit on the aisle."


class RecordingJudge:
    """Calls a pair with a known paraphrase the same; leaves every other pair to the rules."""

    model = "fake-model"
    prompt_version = "test"

    def __init__(self) -> None:
        self.pairs: list[tuple[str, str]] = []

    def judge(self, request: JudgeRequest) -> JudgeResult | None:
        pairs = request.pairs
        self.pairs += [(pair.first_id, pair.second_id) for pair in pairs]
        same = {SEATS, SEATS_PARAPHRASE}
        return JudgeResult(
            verdicts={
                pair.pair_id: Verdict.SAME
                for pair in pairs
                if {pair.first_text, pair.second_text} == same
            }
        )


def counting_ids(prefix: str) -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"{prefix}-{next(counter):04d}"


def test_candidate_terms_are_content_words_keywords_and_the_whole_text() -> None:
    terms = candidate_terms(make_memory("Now uses Vim as editor.", keywords=("Editor",)))

    assert {"vim", "editor", "kw:editor", "text:now uses vim as editor"} <= terms
    # Change markers and stop words file nothing.
    assert "now" not in terms
    assert "as" not in terms


def test_only_notes_that_may_merge_are_looked_up() -> None:
    def note(text: str, **fields: object) -> Memory:
        return make_memory(text, scope=MemoryScope.SESSION, keywords=(), **fields)

    durable = note("Now uses Vim as editor.", purpose="work")
    skipped = [
        note("Wants a quiet room for this call.", durability=Durability.SESSION),
        note("Is having dinner with the team tonight."),
        note("Speaks Portuguese.", status=MemoryStatus.SUPERSEDED),
        make_memory("Speaks Portuguese."),  # already global
    ]

    lookups = candidate_lookups([durable, *skipped])

    assert [(lookup.purpose, lookup.terms) for lookup in lookups] == [
        ("work", candidate_terms(durable))
    ]


def _seed(factory: InMemoryUnitOfWorkFactory, tenant: str, clock: FixedClock) -> list[Memory]:
    """Two globals the notes are about, among hundreds that share only a common word."""
    at = clock.now()
    memories = [
        make_memory("Uses VS Code as editor.", keywords=("editor",), at=at),
        make_memory(SEATS, keywords=("seat",), at=at),
        *(
            make_memory(f"Uses tool {i} for project {i % 7}.", keywords=(f"p{i % 7}",), at=at)
            for i in range(300)
        ),
        *(make_memory(f"Likes {i} kinds of tea.", keywords=(), at=at) for i in range(100)),
    ]
    memories = [replace(m, tenant_id=tenant, subject_id=SUBJECT) for m in memories]
    with factory(tenant) as uow:
        for memory in memories:
            uow.memories.add(memory)
        uow.commit()
    return memories


def _end_session_with_notes(
    factory: InMemoryUnitOfWorkFactory, scope: TenantScope, clock: FixedClock
) -> str:
    session = sessions.open_session(scope, SUBJECT, uow_factory=factory, clock=clock)
    notes = [
        ("Now uses Vim as editor.", ("editor",), Durability.DURABLE),
        (SEATS_PARAPHRASE, ("seat",), Durability.DURABLE),
        ("Speaks Portuguese.", ("language",), Durability.DURABLE),
        ("speaks portuguese", ("language",), Durability.DURABLE),
        ("Is having dinner with the team tonight.", (), Durability.DURABLE),
        ("Wants a quiet room for this call.", (), Durability.SESSION),
    ]
    with factory(scope.tenant_id) as uow:
        for text, keywords, durability in notes:
            at = clock.advance(minutes=1)
            uow.memories.add(
                make_memory(
                    text,
                    at=at,
                    tenant_id=scope.tenant_id,
                    subject_id=SUBJECT,
                    scope=MemoryScope.SESSION,
                    session_id=session.id,
                    keywords=keywords,
                    durability=durability,
                )
            )
        uow.commit()

    class _NoQueue:
        def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
            """Consolidated by the test itself."""

    sessions.end_session(scope, session.id, uow_factory=factory, clock=clock, tasks=_NoQueue())
    return session.id


def test_a_session_over_a_large_global_memory_decides_as_over_all_of_it() -> None:
    clock = FixedClock()
    factory = InMemoryUnitOfWorkFactory()
    scope = TenantScope(tenant_id=f"t-{secrets.token_hex(4)}", role=Role.AGENT, actor="key:test")
    everything = _seed(factory, scope.tenant_id, clock)
    session_id = _end_session_with_notes(factory, scope, clock)
    with factory(scope.tenant_id) as uow:
        notes = uow.memories.list_for_session(session_id)
    full_judge, judge = RecordingJudge(), RecordingJudge()
    expected = plan_consolidation(
        notes, everything, now=clock.now(), new_id=counting_ids("g"), judge=full_judge
    )

    deps = ConsolidationDeps(
        uow_factory=factory, clock=clock, judge=judge, new_id=counting_ids("g")
    )
    report = consolidate_session(scope.tenant_id, session_id, deps=deps)

    assert report is not None
    assert report.globals_considered <= 4 * GLOBAL_CANDIDATES_PER_NOTE < len(everything)
    with factory(scope.tenant_id) as uow:
        recorded = [
            {k: v for k, v in event.details.items() if k != "run_id"}
            for event in uow.audit.list_for_subject(SUBJECT)
            if event.kind == "consolidation.decision"
        ]
    assert recorded == [decision.to_dict() for decision in expected.decisions]
    assert {d["kind"] for d in recorded} >= {"conflict", "same_meaning", "duplicate"}
    assert judge.pairs == full_judge.pairs != []
