"""Consolidate one ended session into its subject's global memory; the sweep and expiry.

:func:`consolidate_session` is the task body. Everything it writes (new and changed
memories, the audit events, the session marked ``consolidated``) commits in ONE
transaction, so a repeat finds the session consolidated and changes nothing, which is
what makes late acknowledgement and redelivery safe. One consolidation per subject runs
at a time: the subject's row is locked (``SELECT ... FOR UPDATE`` on PostgreSQL) for the
whole transaction, and a crashed worker's lock dies with its connection. No Redis lock
is put in front of it: it would add a second failure mode (a TTL shorter than a slow
LLM call) for no gain in correctness.

A task for an erased subject, an unknown or still-open session returns quietly, and the
subject is never re-created or re-keyed on the way.

Only the global memories that share a candidate term with one of the session's notes are
loaded and decrypted (the store's blind term index answers, a few per note), so a run
costs about the same for a subject with ten global memories as for one with ten thousand.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memory_service.core.clock import new_id
from memory_service.core.consolidation import (
    GLOBAL_CANDIDATES_PER_NOTE,
    VECTOR_CANDIDATES_PER_NOTE,
    CandidateLookup,
    DecisionKind,
    Judge,
    JudgeCall,
    MergePlan,
    Vector,
    candidate_lookups,
    content_text,
    plan_consolidation,
)
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.consolidation.pairs import PairModel
from memory_service.core.consolidation.syntax import Syntax
from memory_service.core.errors import Conflict, DependencyUnavailable, NotFound
from memory_service.core.judgment import JudgmentModel
from memory_service.core.model import (
    AuditEvent,
    EventKind,
    Memory,
    Role,
    Session,
    SessionStatus,
)
from memory_service.core.ports import (
    Clock,
    MaintenanceStore,
    TaskQueue,
    UnitOfWork,
    UnitOfWorkFactory,
)
from memory_service.core.scope import TenantScope
from memory_service.services.sessions import end_session

log = logging.getLogger(__name__)

ACTOR = "system:consolidation"
SWEEP_ACTOR = "system:idle-sweep"
EXPIRY_ACTOR = "system:retention"
SWEEP_LIMIT = 5_000
EXPIRY_BATCH = 500


@dataclass(frozen=True)
class ConsolidationDeps:
    uow_factory: UnitOfWorkFactory
    clock: Clock
    judge: Judge | None = None
    new_id: Callable[[], str] = new_id
    embedder: Embedder | None = None
    # The judgment model the notes were saved with (None: the shipped one), so the
    # ephemeral re-check agrees with the gate.
    judgment: JudgmentModel | None = None
    # The pair model the rules path consults (None: the shipped one).
    pairs: PairModel | None = None
    # Tells a note's verbs from its values (None: one attribute's values never merge by it).
    syntax: Syntax | None = None


@dataclass(frozen=True)
class ConsolidationReport:
    """What one run did, in counts: for the caller's log line and the benchmark."""

    session_id: str
    run_id: str
    notes: int
    globals_considered: int
    created: int
    updated: int
    decisions: dict[str, int]
    judge_call: JudgeCall | None
    # Decisions by who took them (rules or the LLM judge), for the metrics.
    decided_by: dict[str, int] = field(default_factory=dict)


def consolidate_session(
    tenant_id: str, session_id: str, *, deps: ConsolidationDeps
) -> ConsolidationReport | None:
    """Merge an ended session's notes into its subject's global memory, once.

    Returns None when there was nothing to do (unknown or erased, still open, or
    already consolidated).
    """
    # A first look without the lock, to learn the subject; the real check is under it.
    with deps.uow_factory(tenant_id) as uow:
        session = uow.sessions.get(session_id)
    if session is None or session.status is not SessionStatus.ENDED:
        log.info("session %s has nothing to consolidate", session_id)
        return None
    with deps.uow_factory(tenant_id) as uow:
        if not uow.subjects.lock_if_present(session.subject_id):
            log.info("subject of session %s is gone; nothing consolidated", session_id)
            return None
        # Read again under the lock: another worker may have consolidated it meanwhile.
        current = uow.sessions.get(session_id)
        if current is None or current.status is not SessionStatus.ENDED:
            log.info("session %s was consolidated by another run", session_id)
            return None
        report = _consolidate_locked(uow, current, deps)
        if report.decisions.get(DecisionKind.REFUSED.value):
            # A note the LLM refused was overwritten: its old ciphertext must not stay
            # readable in the WAL or a dead row, as after an admin's delete.
            uow.erasure.scrub_after_commit("memories", "memory_terms")
        uow.commit()
    log.info(
        "consolidated session %s: %d notes, %d created, %d updated",
        session_id,
        report.notes,
        report.created,
        report.updated,
    )
    return report


def _consolidate_locked(
    uow: UnitOfWork, session: Session, deps: ConsolidationDeps
) -> ConsolidationReport:
    now = deps.clock.now()
    notes = uow.memories.list_for_session(session.id)
    lookups = candidate_lookups(notes, deps.judgment)
    query_vectors = _embed(deps.embedder, [lookup.text for lookup in lookups])
    global_memories = _candidate_globals(uow, session.subject_id, lookups, query_vectors)
    plan = plan_consolidation(
        notes,
        global_memories,
        now=now,
        new_id=deps.new_id,
        judge=deps.judge,
        vectors=_vectors(deps.embedder, [*notes, *global_memories], _whole_text),
        meanings=_vectors(deps.embedder, [*notes, *global_memories], content_text),
        judgment=deps.judgment,
        pairs=deps.pairs,
        embedder=deps.embedder,
        syntax=deps.syntax,
    )
    for memory in plan.created:
        uow.memories.add(memory)
    for memory in plan.updated:
        uow.memories.save(memory)
    report = ConsolidationReport(
        session_id=session.id,
        run_id=new_id(),
        notes=len(notes),
        globals_considered=len(global_memories),
        created=len(plan.created),
        updated=len(plan.updated),
        decisions=dict(Counter(d.kind.value for d in plan.decisions)),
        judge_call=plan.judge_call,
        decided_by=dict(Counter(d.decided_by.value for d in plan.decisions)),
    )
    _record_run(uow, session, plan, report, deps.judge, now)
    uow.sessions.save(session.mark_consolidated(at=now))
    return report


def _embed(embedder: Embedder | None, texts: list[str]) -> list[Vector]:
    return list(embedder.embed(texts)) if embedder is not None and texts else []


def _whole_text(text: str) -> str:
    return text


def _vectors(
    embedder: Embedder | None, memories: list[Memory], view: Callable[[str], str]
) -> dict[str, Vector]:
    """Vectors of a view of the notes' and the candidates' texts (a static embedding is
    cheaper to run again than to unseal): the whole text for the plan's own nearest
    neighbours, the content words for its same-meaning rule."""
    unique = {m.id: m for m in memories}
    vectors = _embed(embedder, [view(m.text) for m in unique.values()])
    return dict(zip(unique, vectors, strict=True)) if vectors else {}


def _candidate_globals(
    uow: UnitOfWork,
    subject_id: str,
    lookups: list[CandidateLookup],
    vectors: list[Vector],
) -> list[Memory]:
    """The globals the plan may match: per note, the best of those sharing a term with it
    and the nearest by meaning."""
    found: dict[str, Memory] = {}
    for lookup in lookups:
        for memory in uow.memories.find_global_candidates(
            subject_id,
            lookup.terms,
            purposes=[lookup.purpose],
            limit=GLOBAL_CANDIDATES_PER_NOTE,
        ):
            found.setdefault(memory.id, memory)
    for purpose in {lookup.purpose for lookup in lookups}:
        queries = [
            v for v, lookup in zip(vectors, lookups, strict=False) if lookup.purpose == purpose
        ]
        for memory in uow.memories.find_nearest_globals(
            subject_id, queries, purposes=[purpose], limit=VECTOR_CANDIDATES_PER_NOTE
        ):
            found.setdefault(memory.id, memory)
    return list(found.values())


def _record_run(
    uow: UnitOfWork,
    session: Session,
    plan: MergePlan,
    report: ConsolidationReport,
    judge: Judge | None,
    now: datetime,
) -> None:
    """One run event with counts and the model used, then one event per decision: ids only."""
    call = plan.judge_call
    uow.audit.append(
        _event(
            uow,
            session,
            EventKind.CONSOLIDATION_RUN,
            now,
            details={
                "run_id": report.run_id,
                "notes": report.notes,
                "globals_considered": report.globals_considered,
                "created": report.created,
                "updated": report.updated,
                "decisions": report.decisions,
                "created_ids": [m.id for m in plan.created],
                "model": judge.model if judge else None,
                "prompt_version": judge.prompt_version if judge else None,
                "judge_pairs": call.pairs_sent if call else 0,
                "judge_verdicts_used": call.verdicts_used if call else 0,
                "judge_failed": call.failed if call else False,
                "judge_notes": call.notes_sent if call else 0,
                "judge_notes_refused": call.notes_refused if call else 0,
                "prompt_tokens": call.prompt_tokens if call else 0,
                "completion_tokens": call.completion_tokens if call else 0,
            },
        )
    )
    for decision in plan.decisions:
        uow.audit.append(
            _event(
                uow,
                session,
                EventKind.CONSOLIDATION_DECISION,
                now,
                memory_id=decision.note_id,
                details={"run_id": report.run_id, **decision.to_dict()},
            )
        )


def _event(
    uow: UnitOfWork,
    session: Session,
    kind: EventKind,
    at: datetime,
    *,
    memory_id: str | None = None,
    details: dict[str, object],
) -> AuditEvent:
    return AuditEvent.new(
        kind,
        tenant_id=uow.tenant_id,
        at=at,
        actor=ACTOR,
        subject_id=session.subject_id,
        memory_id=memory_id,
        session_id=session.id,
        **details,
    )


@dataclass(frozen=True)
class SweepReport:
    queued: int
    idle_ended: int
    failed: int


def consolidate_due_sessions(
    *,
    maintenance: MaintenanceStore,
    uow_factory: UnitOfWorkFactory,
    tasks: TaskQueue,
    clock: Clock,
    idle_after: timedelta,
    limit: int = SWEEP_LIMIT,
) -> SweepReport:
    """The nightly catch-up: queue every ended session not yet consolidated, and end the
    sessions left open with no activity (opening, note or turn) for ``idle_after``.

    An idle session is ended as if its agent had ended it (same outbox, same task), by a
    system actor. Queuing never waits for the task; a repeat of a queued one is a no-op.
    """
    due = maintenance.due_sessions(idle_before=clock.now() - idle_after, limit=limit)
    queued = idle_ended = failed = 0
    for item in due:
        if item.idle:
            scope = TenantScope(tenant_id=item.tenant_id, role=Role.ADMIN, actor=SWEEP_ACTOR)
            try:
                end_session(
                    scope, item.session_id, uow_factory=uow_factory, clock=clock, tasks=tasks
                )
            except (Conflict, NotFound):
                continue  # ended or erased since it was listed
            idle_ended += 1
            continue
        try:
            tasks.enqueue_consolidation(item.tenant_id, item.session_id)
        except DependencyUnavailable:
            failed += 1
            continue
        queued += 1
    log.info("sweep: %d queued, %d idle sessions ended, %d not queued", queued, idle_ended, failed)
    return SweepReport(queued=queued, idle_ended=idle_ended, failed=failed)


def expire_due_memories(
    *,
    maintenance: MaintenanceStore,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    batch_size: int = EXPIRY_BATCH,
) -> int:
    """Mark active memories past ``expires_at`` as ``expired``, one tenant batch at a time.

    Per tenant and batch: one conditional update (still active and due, so a concurrent
    correction or deletion wins) and one insert of the audit events. Nothing is decrypted
    or sealed again: only statuses change. Returns how many expired.
    """
    now = clock.now()
    expired = 0
    while True:
        due = maintenance.due_memories(now=now, limit=batch_size)
        by_tenant: dict[str, list[str]] = {}
        for item in due:
            by_tenant.setdefault(item.tenant_id, []).append(item.memory_id)
        done = sum(_expire(uow_factory, tenant, ids, now) for tenant, ids in by_tenant.items())
        expired += done
        # Stop on a short batch, or when nothing moved (rows we cannot change stay listed).
        if len(due) < batch_size or done == 0:
            break
    if expired:
        log.info("expired %d memories", expired)
    return expired


def _expire(uow_factory: UnitOfWorkFactory, tenant_id: str, ids: list[str], now: datetime) -> int:
    with uow_factory(tenant_id) as uow:
        expired = uow.memories.expire(ids, now=now)
        uow.audit.append_all(
            [
                AuditEvent.new(
                    EventKind.MEMORY_EXPIRED,
                    tenant_id=tenant_id,
                    at=now,
                    actor=EXPIRY_ACTOR,
                    subject_id=memory.subject_id,
                    memory_id=memory.memory_id,
                    session_id=memory.session_id,
                    expires_at=memory.expires_at.isoformat(),
                )
                for memory in expired
            ]
        )
        uow.commit()
    return len(expired)
