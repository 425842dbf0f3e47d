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

A render only reads, in one unit of work from ``ContextDeps.reads`` (read only, possibly
on a replica): the subject, session and trim marks in one statement, every memory it can use
in a second. Its manifest (ids, reasons, token counts; never text) is handed to that unit of
work, which records it after the response (in batches, with the notes it re-injected; see
``adapters/manifest_queue.py`` for what is kept if the process dies).

With a ``RenderCache``, a render whose two reads return exactly what the last render of the
same request read (their fingerprints) reuses that render's text and manifest (a new id and
time) instead of building them again; the reads themselves are always made.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.errors import InvalidRequest, NotFound
from memory_service.core.history import HistoryMarks
from memory_service.core.injection import (
    AUTHORITY_CLASSES,
    ContextRequest,
    TokenCounter,
    build_context,
)
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import DEFAULT_PURPOSE, Memory, Session
from memory_service.core.ports import (
    Clock,
    ContextMemories,
    MaintenanceStore,
    RenderCache,
    SubjectView,
    UnitOfWorkFactory,
)
from memory_service.core.progress import SILENT, Progress
from memory_service.core.purpose import validate_purpose
from memory_service.core.scope import TenantScope, validate_subject_id
from memory_service.core.trimming import notes_to_reinject

log = logging.getLogger(__name__)

MAX_BUDGET_TOKENS = 1_000_000
# A context requested without ``purpose`` counts the memories of other purposes, newest first,
# reading at most this many rows; ``complete`` is false when there were more.
MAX_OTHER_PURPOSE_ROWS = 200


@dataclass(frozen=True)
class ContextDeps:
    uow_factory: UnitOfWorkFactory
    clock: Clock
    counter: TokenCounter
    dump_yaml: Callable[[Mapping[str, Any]], str]
    max_global: int
    manifest_retention: timedelta
    # Units of work for the render's reads, whose manifests are recorded after the
    # response; None renders on ``uow_factory`` and writes the manifest in its transaction.
    reads: UnitOfWorkFactory | None = None
    # Renders kept by the fingerprint of what they read; None renders every time.
    cache: RenderCache | None = None


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
    with (deps.reads or deps.uow_factory)(scope.tenant_id) as uow:
        view = uow.context.subject_view(subject, session_id)
        session = _session_of(view, session_id)
        decision = wanted_purpose or (session.purpose if session else DEFAULT_PURPOSE)
        found = uow.context.memories(
            subject,
            session,
            purposes={decision, DEFAULT_PURPOSE},
            now=now,
            classes=AUTHORITY_CLASSES,
            per_class=deps.max_global,
            other_purposes_limit=None if wanted_purpose else MAX_OTHER_PURPOSE_ROWS,
        )
        key = (
            scope.tenant_id,
            subject,
            session.id if session else None,
            decision,
            wanted_purpose is None,
            budget_tokens,
            deps.max_global,
        )
        reads = (
            view.fingerprint + found.fingerprint if view.fingerprint and found.fingerprint else b""
        )
        cached = deps.cache.get(key, reads) if deps.cache is not None and reads else None
        if cached is not None:
            text, kept = cached
            manifest = kept | {"id": new_id(), "rendered_at": now.isoformat()}
        else:
            text, manifest = _render(
                scope, subject, session, decision, view, found, now, budget_tokens, deps
            )
            if deps.cache is not None and reads:
                # A copy: what the caller and the queue hold is not the kept one (the nested
                # values are only ever read).
                deps.cache.put(key, reads, text, dict(manifest))
        uow.manifests.add(
            StoredManifest(
                id=manifest["id"],
                tenant_id=scope.tenant_id,
                subject_id=subject,
                session_id=session.id if session else None,
                created_at=now,
                expires_at=now + deps.manifest_retention,
                manifest=manifest,
            )
        )
        uow.commit()
    return ContextResult(text, manifest)


def _render(
    scope: TenantScope,
    subject: str,
    session: Session | None,
    decision: str,
    view: SubjectView,
    found: ContextMemories,
    now: datetime,
    budget_tokens: int | None,
    deps: ContextDeps,
) -> tuple[str, dict[str, Any]]:
    """The text and the manifest of what was read (the manifest's id is a fresh one)."""
    notes = _session_notes(found.session_notes, view.marks)
    rendered = build_context(
        ContextRequest(
            tenant_id=scope.tenant_id,
            subject_id=subject,
            purpose=decision,
            now=now,
            counter=deps.counter,
            dump_yaml=deps.dump_yaml,
            session_id=session.id if session else None,
            state=view.state,
            global_memories=[memory for each in found.by_class for memory in each],
            session_notes=notes.shown,
            max_global=deps.max_global,
            token_budget=budget_tokens,
        )
    )
    shown_ids = {item.item_id for item in rendered.manifest.items}
    manifest = rendered.manifest.to_dict()
    manifest_id = new_id()
    manifest["id"] = manifest_id
    manifest["reinjected"] = sorted(notes.carried & shown_ids)
    manifest["candidates"] = {
        "global_limit_per_authority": deps.max_global,
        "older_global_not_considered": deps.max_global > 0
        and any(len(found_class) == deps.max_global for found_class in found.by_class),
    }
    if found.other_purposes is not None:
        manifest["other_purposes"] = _other_purposes(found.other_purposes, decision)
    return rendered.text, manifest


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


def _session_of(view: SubjectView, session_id: str | None) -> Session | None:
    if session_id is None:
        return None
    if not isinstance(session_id, str) or not session_id or len(session_id) > 64:
        raise InvalidRequest("session id is malformed")
    if view.session is None:
        # The same answer for an unknown id and another subject's (or tenant's) session: a
        # session id says nothing about other subjects.
        raise NotFound("no such session")
    return view.session


def _other_purposes(purposes: list[str], purpose: str) -> dict[str, Any]:
    """What a context without ``purpose`` left out: usable global memories of other purposes,
    counted by purpose (slugs and counts, never text), so a caller sees where memory exists."""
    counts: dict[str, int] = {}
    for found in purposes:
        if found not in (purpose, DEFAULT_PURPOSE):
            counts[found] = counts.get(found, 0) + 1
    return {
        "counts": dict(sorted(counts.items())),
        "complete": len(purposes) < MAX_OTHER_PURPOSE_ROWS,
        "hint": "ask with ?purpose=<slug> to read them" if counts else None,
    }


def _session_notes(notes: list[Memory], marks: HistoryMarks) -> _SessionNotes:
    """Every note of the session, and which of them were saved in turns cut since."""
    # Every note of a cut turn, however often it was carried before: none is ever withheld.
    carried = {note.id for note in notes_to_reinject(notes, marks.cut_so_far(), ())}
    return _SessionNotes(notes, carried)
