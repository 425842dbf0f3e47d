"""``save_memory_note``, the agent's write path, and the confirm call for held notes.

The guards run first, outside any transaction (Presidio takes milliseconds, and a
transaction should not hold the subject's lock that long), then the tenant's policy is read
(cached). Then one unit of work, in four round trips on PostgreSQL: reads the session through
the tenant while taking its subject's lock (two identical notes racing must not both be
stored); reads, under the lock, the session's status, its latest turn and any duplicate;
stores the note with its audit event in one statement; commits.

What is promised: a rejected note is never stored and its text goes nowhere; the audit
history gets a ``note.rejected`` event holding reason codes and counts only. A dry run does
everything but write: no memory, no audit event.

Provenance: the note's turn is the session's latest recorded turn (see
:mod:`memory_service.services.history`), never the ``turn`` the model or client sent, which is
checked for shape and otherwise ignored; trimming relies on it.

Legal basis: ``consent`` when the user confirmed the note (``confirmed: true``, or the
confirm call), otherwise ``legitimate_interest``: remembering what a customer told the
agent to serve them better, within the session's purpose.

Special categories (health, religion, orientation..., :mod:`memory_service.core.privacy.sensitive`)
are checked on every save: such a note is held for confirmation (``needs_confirmation`` with a
``sensitive`` reason naming the categories) and stored with ``explicit_consent`` once the user
confirmed it; a tenant policy with ``refuse_sensitive`` refuses it instead. A note refused for
another reason (a name, a guess) names its ``sensitive`` reason as well.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from memory_service.core.clock import new_id
from memory_service.core.consolidation.attributes import FIELD as ATTRIBUTE_FIELD
from memory_service.core.consolidation.attributes import key_words as attribute_key_words
from memory_service.core.consolidation.attributes import parse_attribute
from memory_service.core.errors import Conflict, NotFound
from memory_service.core.guards import NoteDraft, NoteValidation, PiiDetector, validate_note
from memory_service.core.judgment import JudgmentModel
from memory_service.core.model import (
    DEFAULT_LEGAL_BASIS,
    Attribute,
    Durability,
    EventKind,
    Memory,
    MemoryScope,
    MemoryStatus,
    NoteStatus,
    Provenance,
    Reason,
    ReasonCode,
    Session,
    SessionStatus,
    Source,
)
from memory_service.core.ports import Clock, IdentifierDetector, UnitOfWork, UnitOfWorkFactory
from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.sensitive import EXPLICIT_CONSENT, check_sensitive
from memory_service.core.retention import DEFAULT_POLICY, RetentionPolicy
from memory_service.core.scope import TenantScope
from memory_service.core.tenant_policy import TenantPolicyStore
from memory_service.services.sessions import (
    check_session_id,
    lock_open_session,
    require_open_session,
)

log = logging.getLogger("memory_service.notes")

CONSENT = "consent"


@dataclass(frozen=True)
class NoteDeps:
    uow_factory: UnitOfWorkFactory
    pii: PiiDetector
    policies: TenantPolicyStore
    clock: Clock
    identifiers: IdentifierDetector
    retention: RetentionPolicy = field(default=DEFAULT_POLICY)
    # The judgment model; None is the one shipped with the package.
    judgment: JudgmentModel | None = None
    # Whether the learned privacy backstop reads what the privacy rules accept.
    privacy_backstop: bool = False


@dataclass(frozen=True)
class NoteResult:
    """The tool's answer. ``memory_id`` is the stored note's, or the existing duplicate's."""

    status: NoteStatus
    memory_id: str | None = None
    reasons: tuple[Reason, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "memory_id": self.memory_id,
            "reasons": [{"code": r.code.value, "detail": r.detail} for r in self.reasons],
        }


def save_memory_note(
    scope: TenantScope,
    session_id: str,
    arguments: object,
    *,
    dry_run: bool = False,
    subject_id: str | None = None,
    deps: NoteDeps,
) -> NoteResult:
    """Validate and store one note of the session's subject.

    ``subject_id``, when given (a tool bound to a subject), must be the session's subject,
    else the session reads as unknown. Raises NotFound for an unknown or another tenant's
    session and Conflict for an ended one, whatever the note.
    """
    arguments = _without_nulls(arguments)
    attribute, arguments = _split_attribute(arguments, deps)
    validation = _with_attribute(
        validate_note(
            arguments,
            pii=deps.pii,
            identifiers=deps.identifiers,
            judgment=deps.judgment,
            backstop=deps.privacy_backstop,
        ),
        attribute,
    )
    sensitive = _sensitive_reasons(validation.draft, attribute.value)
    # Read before the unit of work, so the subject's lock is held only for the writes.
    policy = deps.policies.get(scope.tenant_id)
    # A note refused for another reason names its special categories too (every reason at once,
    # as the guards give them); under ``refuse_sensitive`` they are a reason of their own.
    refused = validation.reasons + (
        sensitive if policy.refuse_sensitive or validation.reasons else ()
    )
    with deps.uow_factory(scope.tenant_id) as uow:
        if validation.draft is None or refused:
            session = _session_for_note(uow, session_id, subject_id, lock=False)
            if not dry_run:
                _audit_rejection(uow, scope, session, refused, deps.clock)
                uow.commit()
            log.info("note rejected in session %s: %s", session.id, _codes(refused))
            return NoteResult(NoteStatus.REJECTED, None, refused)
        draft = validation.draft
        # A dry run writes nothing, so it takes no lock.
        session = _session_for_note(uow, session_id, subject_id, lock=not dry_run)
        check = uow.notes.check(session, draft.text)
        if check.session is None:
            raise NotFound("no such session")
        if check.session.status is not SessionStatus.OPEN:  # ended while we waited
            raise Conflict("the session has ended; open a new one")
        duplicate = check.duplicate
        if duplicate is not None and not _outranks(draft, duplicate):
            log.info("note in session %s duplicates memory %s", session.id, duplicate.id)
            return NoteResult(NoteStatus.DUPLICATE, duplicate.id)
        held = policy.needs_confirmation(draft.source, confirmed=draft.confirmed) or bool(
            sensitive and policy.holds_sensitive(confirmed=draft.confirmed)
        )
        # The judgment model was unsure (a possible guess or passing state): the user settles it.
        unsure = still_unsure(
            validation.held, confirmed=draft.confirmed and policy.agent_confirmation
        )
        held = held or bool(unsure)
        # The note's turn is the session's newest recorded one, never the model's word:
        # trimming re-injects a note once its turn is cut, so a model claiming an old turn
        # would make its note look cut (shown once, then withheld).
        memory = _memory(
            scope,
            session,
            draft,
            arguments,
            turn=check.latest_turn,
            held=held,
            # A special category the user confirmed is kept on their explicit consent.
            legal_basis=EXPLICIT_CONSENT if sensitive and not held else None,
            attribute=attribute.value,
            deps=deps,
        )
        status = NoteStatus.NEEDS_CONFIRMATION if held else NoteStatus.SAVED
        if dry_run:
            return NoteResult(status, None, (*sensitive, *unsure))
        uow.memories.add(memory)
        if duplicate is not None and duplicate.session_id == session.id and not held:
            # A durable or stated note replaces this session's session-only or guessed one.
            uow.memories.save(duplicate.supersede(by=memory.id, at=memory.created_at))
        _audit(uow, scope, memory, EventKind.NOTE_HELD if held else EventKind.NOTE_SAVED)
        uow.commit()
    log.info("note %s %s in session %s", memory.id, status.value, session.id)
    return NoteResult(status, memory.id, (*sensitive, *unsure))


def still_unsure(held: tuple[Reason, ...], *, confirmed: bool) -> tuple[Reason, ...]:
    """What of the judgment model's holds an agent's ``confirmed`` leaves on hold: a possible
    guess or passing state is the user's to settle in the conversation, a possible instruction
    never is: an injected instruction comes with the agent's "confirmed" too, so only the
    confirm endpoint (a person) releases it."""
    if not confirmed:
        return held
    return tuple(reason for reason in held if reason.code is ReasonCode.INSTRUCTION)


def _session_for_note(
    uow: UnitOfWork, session_id: str, subject_id: str | None, *, lock: bool
) -> Session:
    """The open session the note goes to; with ``lock``, read by the statement that takes
    its subject's lock (see ``sessions.lock_open_session``).

    ``subject_id``, when given, must be the session's subject, else the session reads as
    unknown. NotFound for an unknown or another tenant's session, Conflict for an ended one.
    """
    check_session_id(session_id)
    session = uow.notes.session_with_subject(session_id, lock=lock)
    if session is None:
        raise NotFound("no such session")
    if session.status is not SessionStatus.OPEN:
        raise Conflict("the session has ended; open a new one")
    if subject_id is not None and subject_id != session.subject_id:
        raise NotFound("no such session")
    return session


def confirm_note(
    scope: TenantScope, session_id: str, memory_id: str, *, deps: NoteDeps
) -> NoteResult:
    """The user confirmed a held note: it becomes active, unless it is now a duplicate.

    Confirming an already active note answers ``saved`` again (a retried call is harmless).
    A held note that meanwhile duplicates an active memory is marked superseded by it and
    the answer is ``duplicate`` with the active memory's id.
    """
    with deps.uow_factory(scope.tenant_id) as uow:
        session = require_open_session(uow, session_id)
        memory = uow.memories.get(memory_id) if _plausible_id(memory_id) else None
        if memory is None or memory.session_id != session.id:
            raise NotFound("no such note in this session")
        if memory.status is MemoryStatus.ACTIVE:
            return NoteResult(NoteStatus.SAVED, memory.id)
        if memory.status is not MemoryStatus.PENDING_CONFIRMATION:
            raise Conflict("the note is no longer waiting for confirmation")
        now = deps.clock.now()
        lock_open_session(uow, session)
        duplicate = uow.memories.find_active_duplicate(session.subject_id, memory.text)
        if duplicate is not None:
            superseded = memory.supersede(by=duplicate.id, at=now)
            uow.memories.save(superseded)
            _audit(
                uow,
                scope,
                superseded,
                EventKind.NOTE_CONFIRMED_DUPLICATE,
                superseded_by=duplicate.id,
            )
            uow.commit()
            return NoteResult(NoteStatus.DUPLICATE, duplicate.id)
        basis = EXPLICIT_CONSENT if check_sensitive(memory.text, memory.keywords) else CONSENT
        confirmed = memory.activate(legal_basis=basis, at=now)
        uow.memories.save(confirmed)
        _audit(uow, scope, confirmed, EventKind.NOTE_CONFIRMED)
        uow.commit()
    return NoteResult(NoteStatus.SAVED, memory.id)


def _sensitive_reasons(draft: NoteDraft | None, attribute: Attribute | None) -> tuple[Reason, ...]:
    """The ``sensitive`` reason of a well-formed note in a special category (its text, its
    keywords or the words of its attribute key), else nothing."""
    if draft is None:
        return ()
    words = (attribute_key_words(attribute),) if attribute is not None else ()
    return tuple(check_sensitive(draft.text, (*draft.keywords, *words)))


@dataclass(frozen=True)
class _AttributeArgument:
    value: Attribute | None = None
    reasons: tuple[Reason, ...] = ()


def _split_attribute(arguments: object, deps: NoteDeps) -> tuple[_AttributeArgument, object]:
    """The ``attribute`` argument apart from the rest, which the guards check as before."""
    if not isinstance(arguments, Mapping) or ATTRIBUTE_FIELD not in arguments:
        return _AttributeArgument(), arguments
    rest = {key: value for key, value in arguments.items() if key != ATTRIBUTE_FIELD}
    attribute, reasons = parse_attribute(arguments[ATTRIBUTE_FIELD])
    if attribute is not None:
        reasons += tuple(
            check_privacy(
                attribute_key_words(attribute), (), pii=deps.pii, identifiers=deps.identifiers
            )
        )
    return _AttributeArgument(attribute, reasons), rest


def _with_attribute(validation: NoteValidation, attribute: _AttributeArgument) -> NoteValidation:
    if not attribute.reasons:
        return validation
    return replace(validation, reasons=(*validation.reasons, *attribute.reasons))


def _outranks(draft: NoteDraft, existing: Memory) -> bool:
    """A note with an existing note's text still counts when it says more: durable where
    that one was for this session only, stated where that one was a guess."""
    durable_over_session = (
        existing.durability is Durability.SESSION and draft.durability is Durability.DURABLE
    )
    stated_over_guess = existing.is_hypothesis and draft.source is not Source.MODEL_INFERRED
    return durable_over_session or stated_over_guess


def _without_nulls(arguments: object) -> object:
    """A strict tool schema makes the model send ``null`` for an omitted optional field."""
    if isinstance(arguments, Mapping):
        return {key: value for key, value in arguments.items() if value is not None}
    return arguments


def _memory(
    scope: TenantScope,
    session: Session,
    draft: NoteDraft,
    arguments: object,
    *,
    turn: int | None,
    held: bool,
    legal_basis: str | None,
    attribute: Attribute | None,
    deps: NoteDeps,
) -> Memory:
    now = deps.clock.now()
    # The draft fills in the default purpose; an omitted purpose means the session's.
    given = isinstance(arguments, Mapping) and arguments.get("purpose") is not None
    purpose = draft.purpose if given else session.purpose
    return Memory(
        id=new_id(),
        tenant_id=scope.tenant_id,
        subject_id=session.subject_id,
        scope=MemoryScope.SESSION,
        session_id=session.id,
        text=draft.text,
        keywords=draft.keywords,
        purpose=purpose,
        source=draft.source,
        durability=draft.durability,
        provenance=Provenance(
            actor=scope.actor,
            session_id=session.id,
            turn=turn,
            tool_call_id=draft.tool_call_id,
        ),
        legal_basis=legal_basis or (CONSENT if draft.confirmed else DEFAULT_LEGAL_BASIS),
        created_at=now,
        updated_at=now,
        expires_at=deps.retention.expires_at(purpose=purpose, source=draft.source, created_at=now),
        status=MemoryStatus.PENDING_CONFIRMATION if held else MemoryStatus.ACTIVE,
        attribute=attribute,
    )


def _plausible_id(memory_id: str) -> bool:
    return isinstance(memory_id, str) and 0 < len(memory_id) <= 64


def _codes(reasons: tuple[Reason, ...]) -> list[str]:
    return sorted({reason.code.value for reason in reasons})


def _audit_rejection(
    uow: UnitOfWork,
    scope: TenantScope,
    session: Session,
    reasons: tuple[Reason, ...],
    clock: Clock,
) -> None:
    """Codes and counts only: a detail could name entity types, and text never goes here."""
    uow.record(
        EventKind.NOTE_REJECTED,
        at=clock.now(),
        actor=scope.actor,
        subject_id=session.subject_id,
        session_id=session.id,
        codes=_codes(reasons),
        reason_count=len(reasons),
    )


def _audit(
    uow: UnitOfWork, scope: TenantScope, memory: Memory, kind: EventKind, **ids: str
) -> None:
    uow.record(
        kind,
        at=memory.updated_at,
        actor=scope.actor,
        subject_id=memory.subject_id,
        memory_id=memory.id,
        session_id=memory.session_id,
        source=memory.source.value,
        durability=memory.durability.value,
        status=memory.status.value,
        **ids,
    )
