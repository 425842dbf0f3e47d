"""The context for a subject's next model call, and the manifest kept for audit.

Loading is bounded whatever the store holds: for the global memories only the newest
``max_global`` active, unexpired ones of a matching purpose are fetched per authority class
(user-stated, admin and system records; model-inferred), which is all the ranking can use
since within a class it prefers the newest. The manifest says when older ones were left
unread. The session's own notes come whole (a session holds few, and the render keeps at most
``MAX_SESSION_NOTES`` of them) and stay in every render until the session ends, whatever was
trimmed: once the turns that held a note are cut, the note is the only trace of them left, so
it moves into the system prompt for good; the manifest's ``reinjected`` names the notes of cut
turns each render carries.

The render, its manifest (ids, reasons, token counts; never text) and the marks of the
re-injected notes are written in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.errors import InvalidRequest, NotFound
from memory_service.core.injection import ContextRequest, TokenCounter, build_context
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import (
    DEFAULT_PURPOSE,
    Memory,
    MemoryScope,
    MemoryStatus,
    Session,
    Source,
)
from memory_service.core.ports import Clock, MaintenanceStore, UnitOfWork, UnitOfWorkFactory
from memory_service.core.progress import SILENT, Progress
from memory_service.core.purpose import validate_purpose
from memory_service.core.scope import TenantScope, validate_subject_id
from memory_service.core.trimming import notes_to_reinject
from memory_service.services.sessions import get_session

log = logging.getLogger(__name__)

MAX_BUDGET_TOKENS = 1_000_000
# The ranking's authority classes (see core.injection): within one, newer always wins.
# A context requested without ``purpose`` counts the memories of other purposes, newest first,
# reading at most this many rows; ``complete`` is false when there were more.
MAX_OTHER_PURPOSE_ROWS = 200
AUTHORITY_CLASSES: tuple[frozenset[Source], ...] = (
    frozenset({Source.USER_STATED, Source.ADMIN_CORRECTION, Source.SYSTEM_RECORD}),
    frozenset({Source.MODEL_INFERRED}),
)


@dataclass(frozen=True)
class ContextDeps:
    uow_factory: UnitOfWorkFactory
    clock: Clock
    counter: TokenCounter
    dump_yaml: Callable[[Mapping[str, Any]], str]
    max_global: int
    manifest_retention: timedelta


@dataclass(frozen=True)
class ContextResult:
    text: str
    manifest: dict[str, Any]


@dataclass(frozen=True)
class _SessionNotes:
    shown: list[Memory]
    carried: set[str]  # the ids of notes whose turn was cut


def render_context(
    scope: TenantScope,
    subject_id: object,
    *,
    session_id: str | None = None,
    purpose: object = None,
    budget_tokens: int | None = None,
    deps: ContextDeps,
) -> ContextResult:
    """Render and record. A session must be this tenant's and this subject's, else NotFound."""
    subject = validate_subject_id(subject_id)
    if budget_tokens is not None and not 0 < budget_tokens <= MAX_BUDGET_TOKENS:
        raise InvalidRequest(f"max_tokens must be between 1 and {MAX_BUDGET_TOKENS}")
    wanted_purpose = None if purpose is None else validate_purpose(purpose)
    now = deps.clock.now()
    with deps.uow_factory(scope.tenant_id) as uow:
        session = _session_of(uow, session_id, subject)
        decision = wanted_purpose or (session.purpose if session else DEFAULT_PURPOSE)
        globals_, unread = _load_globals(uow, subject, decision, now, deps.max_global)
        notes = _load_session_notes(uow, session)
        rendered = build_context(
            ContextRequest(
                tenant_id=scope.tenant_id,
                subject_id=subject,
                purpose=decision,
                now=now,
                counter=deps.counter,
                dump_yaml=deps.dump_yaml,
                session_id=session.id if session else None,
                state=uow.subjects.get_state(subject),
                global_memories=globals_,
                session_notes=notes.shown,
                max_global=deps.max_global,
                token_budget=budget_tokens,
            )
        )
        shown_ids = {item.item_id for item in rendered.manifest.items}
        reinjected = sorted(notes.carried & shown_ids)
        manifest = rendered.manifest.to_dict()
        manifest_id = new_id()
        manifest["id"] = manifest_id
        manifest["reinjected"] = reinjected
        manifest["candidates"] = {
            "global_limit_per_authority": deps.max_global,
            "older_global_not_considered": unread,
        }
        if wanted_purpose is None:
            manifest["other_purposes"] = _other_purposes(uow, subject, decision, now)
        uow.manifests.add(
            StoredManifest(
                id=manifest_id,
                tenant_id=scope.tenant_id,
                subject_id=subject,
                session_id=session.id if session else None,
                created_at=now,
                expires_at=now + deps.manifest_retention,
                manifest=manifest,
            )
        )
        if session is not None and reinjected:
            marks = uow.turns.marks(session)
            uow.turns.save_marks(
                session, replace(marks, reinjected=marks.reinjected | set(reinjected))
            )
        uow.commit()
    return ContextResult(rendered.text, manifest)


def purge_expired_manifests(
    *,
    maintenance: MaintenanceStore,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    progress: Progress = SILENT,
) -> int:
    """Nightly: delete every tenant's manifests past their retention; returns how many went.

    Manifests hold ids, kinds and counts only, but they are kept no longer than
    ``MEMORY_SERVICE_MANIFEST_RETENTION_DAYS``: one transaction per tenant.
    """
    now = clock.now()
    purged = 0
    tenants = maintenance.tenants_with_expired_manifests(now=now)
    progress.start(len(tenants))
    for tenant_id in tenants:
        with uow_factory(tenant_id) as uow:
            purged += uow.manifests.purge_expired(now)
            uow.commit()
        progress.advance()
    log.info("purged %d expired context manifests", purged)
    return purged


def _session_of(uow: UnitOfWork, session_id: str | None, subject: str) -> Session | None:
    if session_id is None:
        return None
    session = get_session(uow, session_id)
    if session.subject_id != subject:
        # The same answer as an unknown id: a session id says nothing about other subjects.
        raise NotFound("no such session")
    return session


def _load_globals(
    uow: UnitOfWork, subject: str, purpose: str, now: datetime, per_class: int
) -> tuple[list[Memory], bool]:
    """The newest usable global memories per authority class; True when some were left unread."""
    if per_class == 0:
        return [], False
    purposes = {purpose, DEFAULT_PURPOSE}
    loaded: list[Memory] = []
    unread = False
    for sources in AUTHORITY_CLASSES:
        found = uow.memories.list_for_subject(
            subject,
            scope=MemoryScope.GLOBAL,
            statuses=(MemoryStatus.ACTIVE,),
            purposes=purposes,
            not_expired_at=now,
            sources=sources,
            limit=per_class,
        )
        unread = unread or len(found) == per_class
        loaded.extend(found)
    return loaded, unread


def _other_purposes(uow: UnitOfWork, subject: str, purpose: str, now: datetime) -> dict[str, Any]:
    """What a context without ``purpose`` left out: usable global memories of other purposes,
    counted by purpose (slugs and counts, never text), so a caller sees where memory exists."""
    found = uow.memories.list_for_subject(
        subject,
        scope=MemoryScope.GLOBAL,
        statuses=(MemoryStatus.ACTIVE,),
        not_expired_at=now,
        limit=MAX_OTHER_PURPOSE_ROWS,
    )
    counts: dict[str, int] = {}
    for memory in found:
        if memory.purpose not in (purpose, DEFAULT_PURPOSE):
            counts[memory.purpose] = counts.get(memory.purpose, 0) + 1
    return {
        "counts": dict(sorted(counts.items())),
        "complete": len(found) < MAX_OTHER_PURPOSE_ROWS,
        "hint": "ask with ?purpose=<slug> to read them" if counts else None,
    }


def _load_session_notes(uow: UnitOfWork, session: Session | None) -> _SessionNotes:
    """Every note of the session, and which of them were saved in turns cut since."""
    if session is None:
        return _SessionNotes([], set())
    notes = uow.memories.list_for_session(session.id)
    marks = uow.turns.marks(session)
    # Every note of a cut turn, however often it was carried before: none is ever withheld.
    carried = {note.id for note in notes_to_reinject(notes, marks.cut_so_far(), ())}
    return _SessionNotes(notes, carried)
