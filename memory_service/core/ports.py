"""The Protocols the core and services need from the outside world.

Adapters in ``memory_service.adapters`` implement these; ``bootstrap`` hands them in.
Store ports are opened for one tenant (``UnitOfWorkFactory(tenant_id)``): a repository
holds its tenant and filters every statement by it, so no code path can read or write
another tenant's rows. Ports that serve one piece of core logic (the PII detector, the
consolidation judge, the token counter) live beside that logic.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Any, Protocol

from memory_service.core.consolidation import JudgeCall
from memory_service.core.erasure import ErasureReceipt
from memory_service.core.history import HistoryMarks
from memory_service.core.manifests import StoredManifest
from memory_service.core.model import (
    ApiKey,
    AuditEvent,
    EventKind,
    Memory,
    MemoryScope,
    MemoryStatus,
    Role,
    Session,
    SessionStatus,
    Source,
    SubjectState,
)
from memory_service.core.trimming import Turn


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


@dataclass(frozen=True)
class ExpiredMemory:
    """A memory the expiry just marked ``expired``: what its audit event needs, no text."""

    memory_id: str
    subject_id: str
    session_id: str | None
    expires_at: datetime


class MemoryRepository(Protocol):
    """One tenant's memories. Text is encrypted with the subject's data key at rest."""

    def add(self, memory: Memory) -> None: ...

    def get(self, memory_id: str) -> Memory | None:
        """None for an unknown id and for another tenant's id alike."""
        ...

    def save(self, memory: Memory) -> None:
        """Write back a changed memory (status, supersession, expiry, text).

        The text is sealed again only when it or the keywords changed.
        """
        ...

    def expire(self, memory_ids: Collection[str], *, now: datetime) -> list[ExpiredMemory]:
        """Mark expired those of ``memory_ids`` still active and due (``expires_at <= now``).

        One statement, nothing decrypted; another tenant's ids change nothing. Returns
        what changed, for the audit.
        """
        ...

    def find_active_duplicate(self, subject_id: str, text: str) -> Memory | None:
        """An active memory of the subject whose normalised text equals ``text``'s.

        Looked up by a keyed hash of :func:`memory_service.core.text.normalize_text`,
        never by plaintext.
        """
        ...

    def find_global_candidates(
        self, subject_id: str, terms: Collection[str], *, purposes: Collection[str], limit: int
    ) -> list[Memory]:
        """The subject's active global memories of ``purposes`` sharing one of ``terms``.

        ``terms`` are :func:`memory_service.core.consolidation.candidate_terms`; the store
        files every active global under its own and looks them up by keyed hash, never by
        plaintext. Best first, at most ``limit``: a shared term scores ``1_000_000 //
        holders`` (``holders``: how many of these memories hold it), summed per memory;
        ties go to the larger id, as in the core's candidate index.
        """
        ...

    def find_nearest_globals(
        self,
        subject_id: str,
        vectors: Sequence[Sequence[float]],
        *,
        purposes: Collection[str],
        limit: int,
    ) -> list[Memory]:
        """For each of ``vectors``, the ``limit`` active global memories of ``purposes``
        whose stored vector (sealed, of the same embedding model) is nearest; their union.

        A store without an embedder holds no vectors and answers an empty list.
        """
        ...

    def list_for_subject(
        self,
        subject_id: str,
        *,
        scope: MemoryScope | None = None,
        statuses: Collection[MemoryStatus] | None = None,
        purposes: Collection[str] | None = None,
        not_expired_at: datetime | None = None,
        limit: int | None = None,
        sources: Collection[Source] | None = None,
    ) -> list[Memory]:
        """Newest ``updated_at`` first; each filter applies only when given."""
        ...

    def list_for_session(self, session_id: str) -> list[Memory]:
        """The notes saved in one session, oldest first."""
        ...


class SessionRepository(Protocol):
    def add(self, session: Session) -> None: ...

    def get(self, session_id: str) -> Session | None:
        """None for an unknown id and for another tenant's id alike."""
        ...

    def save(self, session: Session) -> None: ...

    def transition(self, session: Session, *, from_status: SessionStatus) -> bool:
        """Save ``session`` only if its stored status is still ``from_status``.

        False, with nothing written, when it is not (or the session is unknown). One
        conditional write: of two transactions making the same transition at once, the
        second waits for the first to commit, then finds the status changed.
        """
        ...

    def list_for_subject(self, subject_id: str) -> list[Session]:
        """The subject's sessions, oldest first."""
        ...


class SubjectRepository(Protocol):
    """A tenant's subjects: their state and (inside the adapter) their data keys."""

    def get_state(self, subject_id: str) -> SubjectState | None: ...

    def put_state(self, state: SubjectState) -> None: ...

    def lock(self, subject_id: str) -> None:
        """Hold the subject exclusively until the unit of work ends, then read it afresh.

        A database row lock, so a crashed worker's lock dies with its connection. A new
        subject is created; an erased one raises ``NotFound`` and is never given a key
        again (only opening a session, putting the state or adding a memory of no session
        starts a new lifecycle, with a fresh key).
        """
        ...

    def lock_if_present(self, subject_id: str) -> bool:
        """Like :meth:`lock`, but only for a subject that exists and still has its data key.

        False, with nothing locked or created, for an unknown or erased subject: a late task
        must never bring an erased subject back. Reads the row afresh once locked.
        """
        ...


class TurnRepository(Protocol):
    """A session's kept history, one row per turn, its content sealed with the subject's key."""

    def list(self, session: Session) -> list[Turn]:
        """The stored turns, oldest first."""
        ...

    def latest_index(self, session: Session) -> int | None:
        """The newest stored turn's index, None without history; reads no content."""
        ...

    def put(self, session: Session, turn: Turn) -> None:
        """Insert the turn, or replace the stored turn of the same index."""
        ...

    def delete(self, session: Session, indices: Collection[int]) -> None: ...

    def marks(self, session: Session) -> HistoryMarks:
        """Where the history was cut and which notes were re-injected (defaults when new)."""
        ...

    def save_marks(self, session: Session, marks: HistoryMarks) -> None: ...


class ManifestRepository(Protocol):
    """Context manifests kept for audit until they expire. Ids and counts, never text."""

    def add(self, manifest: StoredManifest) -> None: ...

    def get(self, manifest_id: str) -> StoredManifest | None: ...

    def purge_expired(self, now: datetime) -> int:
        """Delete the manifests whose ``expires_at`` has passed; returns how many."""
        ...


@dataclass(frozen=True)
class NoteCheck:
    """What saving a note reads under the subject's lock, in one statement: the session as
    committed now (None if gone), its latest recorded turn, the active duplicate if any."""

    session: Session | None
    latest_turn: int | None
    duplicate: Memory | None


class NoteReads(Protocol):
    """The reads of the save path, each folded into one statement."""

    def session_with_subject(self, session_id: str, *, lock: bool) -> Session | None:
        """The session (None if unknown) and its subject's row, in one statement which, with
        ``lock``, takes the subject's lock as :meth:`SubjectRepository.lock` does
        (``NotFound`` if the subject was erased). Its status may predate the lock:
        :meth:`check` reads it again."""
        ...

    def check(self, session: Session, text: str) -> NoteCheck:
        """The session's status, latest turn and the subject's active duplicate of
        ``text`` (by keyed fingerprint, see :meth:`MemoryRepository.find_active_duplicate`)."""
        ...


@dataclass(frozen=True)
class SubjectView:
    """What a render reads first, in one statement: the session (None when none was asked
    for, or it is not this subject's), the subject's state and the session's trim marks."""

    session: Session | None
    state: SubjectState | None
    marks: HistoryMarks
    # A digest of every stored value read (ciphertexts, times, statuses, ids), or empty when
    # the reader gives none: equal digests, equal reads (see ``RenderCache``).
    fingerprint: bytes = b""


class ContextMemories:
    """A render's memories, read in one statement: the newest usable globals of each
    authority class (at most ``per_class`` each), the session's notes, and the purposes of
    the usable globals of other purposes (None when not asked for).

    ``fingerprint`` as ``SubjectView.fingerprint``. A reader may hand the memories over
    sealed, as ``unseal`` (called once, at the first use of ``by_class`` or
    ``session_notes``): a render served from a ``RenderCache`` decrypts nothing."""

    def __init__(
        self,
        by_class: tuple[list[Memory], ...] = (),
        session_notes: list[Memory] | None = None,
        other_purposes: list[str] | None = None,
        fingerprint: bytes = b"",
        *,
        unseal: Callable[[], tuple[tuple[list[Memory], ...], list[Memory]]] | None = None,
    ) -> None:
        self._given = (by_class, session_notes or [])
        self._unseal = unseal
        self.other_purposes = other_purposes
        self.fingerprint = fingerprint

    @functools.cached_property
    def _memories(self) -> tuple[tuple[list[Memory], ...], list[Memory]]:
        return self._unseal() if self._unseal is not None else self._given

    @property
    def by_class(self) -> tuple[list[Memory], ...]:
        return self._memories[0]

    @property
    def session_notes(self) -> list[Memory]:
        return self._memories[1]


class RenderCache(Protocol):
    """Rendered contexts kept by what they were rendered from: ``get`` answers only for the
    same ``key`` (tenant first) and the same ``reads`` (the fingerprints of both reads), so a
    write that changes anything a render reads changes its fingerprint and is never served
    stale. Bounded in entries and in time (the text is plaintext memory)."""

    def get(self, key: tuple[object, ...], reads: bytes) -> tuple[str, dict[str, Any]] | None: ...

    def put(
        self, key: tuple[object, ...], reads: bytes, text: str, manifest: dict[str, Any]
    ) -> None: ...


class ContextReads(Protocol):
    """The two reads of a render: they may run on a read-only replica."""

    def subject_view(self, subject_id: str, session_id: str | None) -> SubjectView: ...

    def memories(
        self,
        subject_id: str,
        session: Session | None,
        *,
        purposes: Collection[str],
        now: datetime,
        classes: Sequence[Collection[Source]],
        per_class: int,
        other_purposes_limit: int | None,
    ) -> ContextMemories:
        """Globals of ``purposes`` unexpired at ``now``, newest first per class; with
        ``other_purposes_limit``, the purposes of up to that many newest usable globals."""
        ...


class AuditLog(Protocol):
    """Append-only. Events carry ids, kinds, codes and counts, never memory text."""

    def append(self, event: AuditEvent) -> None: ...

    def append_all(self, events: Sequence[AuditEvent]) -> None:
        """Append many events in order, as one insert."""
        ...

    def list_for_subject(self, subject_id: str, *, limit: int | None = None) -> list[AuditEvent]:
        """Oldest first."""
        ...


class ErasureRepository(Protocol):
    """Erasure of one subject and the receipts it leaves, within one tenant."""

    def erase_subject(self, subject_id: str) -> dict[str, int]:
        """Delete every row holding the subject's data and destroy its data key.

        Memories of any scope and status, sessions with their turns and outbox rows,
        context manifests and the state go; the audit events of the subject keep their
        ids, kinds and times, their details redacted
        (:func:`memory_service.core.erasure.redact_details`). Returns counts per kind
        (:data:`memory_service.core.erasure.ERASED_KINDS`); all zero when nothing is held.
        """
        ...

    def scrub_after_commit(self, *tables: str) -> None:
        """Once committed, take what the transaction deleted or overwrote in ``tables`` out
        of the store's live files (WAL, dead rows), as far as the store allows."""
        ...

    def add_receipt(self, receipt: ErasureReceipt) -> None: ...

    def list_receipts(self, subject_id: str) -> list[ErasureReceipt]:
        """Oldest first."""
        ...


class ConsolidationOutbox(Protocol):
    """One tenant's outbox: a row per ended session, written in the transaction that ends it.

    The row outlives a broker outage: it stays undispatched until a send succeeds, and a
    periodic relay sends what is left (see ``services/outbox.py``).
    """

    def add(self, session_id: str, at: datetime) -> str:
        """Record that the session needs consolidating; returns the entry id."""
        ...

    def record_attempt(self, entry_id: str, *, dispatched_at: datetime | None) -> None:
        """Count one send attempt; ``dispatched_at`` is given when the send succeeded and
        becomes the entry's last dispatch time (a failed attempt keeps the previous one)."""
        ...


class _HasAudit(Protocol):
    @property
    def tenant_id(self) -> str: ...

    @property
    def audit(self) -> AuditLog: ...


class AuditRecording:
    """:meth:`UnitOfWork.record` for any unit of work with a ``tenant_id`` and an ``audit``
    log: the one place an event of a service's state change is built."""

    def record(
        self: _HasAudit,
        kind: EventKind,
        /,
        *,
        at: datetime,
        actor: str,
        subject_id: str | None = None,
        memory_id: str | None = None,
        session_id: str | None = None,
        **details: Any,
    ) -> None:
        self.audit.append(
            AuditEvent.new(
                kind,
                tenant_id=self.tenant_id,
                at=at,
                actor=actor,
                subject_id=subject_id,
                memory_id=memory_id,
                session_id=session_id,
                **details,
            )
        )


class UnitOfWork(Protocol):
    """One transaction for one tenant: rolls back unless :meth:`commit` was called.

    Jobs registered with :meth:`after_commit` run only once the commit succeeded,
    which is how a task is queued only for data that is really there.
    """

    # Read-only members: an implementation may hold them as plain attributes.
    @property
    def tenant_id(self) -> str: ...

    @property
    def memories(self) -> MemoryRepository: ...

    @property
    def sessions(self) -> SessionRepository: ...

    @property
    def subjects(self) -> SubjectRepository: ...

    @property
    def audit(self) -> AuditLog: ...

    @property
    def turns(self) -> TurnRepository: ...

    @property
    def manifests(self) -> ManifestRepository: ...

    @property
    def outbox(self) -> ConsolidationOutbox: ...

    @property
    def erasure(self) -> ErasureRepository: ...

    @property
    def context(self) -> ContextReads: ...

    @property
    def notes(self) -> NoteReads: ...

    def record(
        self,
        kind: EventKind,
        /,
        *,
        at: datetime,
        actor: str,
        subject_id: str | None = None,
        memory_id: str | None = None,
        session_id: str | None = None,
        **details: Any,
    ) -> None:
        """Append one audit event of this unit's tenant (:meth:`AuditEvent.new`): how a
        service records a state change it made in this transaction."""
        ...

    def __enter__(self) -> UnitOfWork: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def commit(self) -> None: ...

    def after_commit(self, job: Callable[[], None]) -> None: ...


UnitOfWorkFactory = Callable[[str], UnitOfWork]
"""Opens a unit of work for one tenant id."""


class KeyStore(Protocol):
    """API keys: stored as a hash only; the clear key exists once, at creation."""

    def create(self, tenant_id: str, role: Role) -> tuple[ApiKey, str]:
        """Create the tenant if new; return the stored record and the clear key."""
        ...

    def authenticate(self, clear_key: str) -> ApiKey | None:
        """None for an unknown, malformed or revoked key."""
        ...

    def revoke(self, tenant_id: str, key_id: str) -> bool:
        """True if an active key of ``tenant_id`` was revoked; another tenant's id is unknown."""
        ...

    def active(self, tenant_id: str, key_id: str) -> ApiKey | None:
        """The key of ``tenant_id`` by id while it is active; None once revoked or unknown."""
        ...


@dataclass(frozen=True)
class KeyErasure:
    """An erasure as the key store remembers it: which subject's keys were destroyed, when."""

    tenant_id: str
    subject_id: str
    at: datetime


class DataKeyStore(Protocol):
    """The subjects' wrapped data keys and the erasure receipts, apart from the data.

    Another database than the memories' (its own file on the embedded default), so a
    backup of the data never holds a key, and destroying a key here makes every copy of
    the subject's ciphertexts unreadable, backups, WAL and replicas included. Each call
    commits on its own.
    """

    def wrapped_key(self, tenant_id: str, subject_id: str, key_id: str) -> bytes | None:
        """The wrapped key, or None once destroyed (or never stored)."""
        ...

    def add_key(self, tenant_id: str, subject_id: str, key_id: str, wrapped: bytes) -> None: ...

    def destroy_keys(self, tenant_id: str, subject_id: str, *, at: datetime) -> int:
        """Destroy every key of the subject and keep the erasure; returns how many went."""
        ...

    def erasures(self) -> list[KeyErasure]:
        """Every erasure kept, oldest first: what a restore of the data replays."""
        ...

    def scrub(self) -> None:
        """Take destroyed keys' bytes out of the store's live files (WAL, dead rows)."""
        ...

    def rewrap_all(self, rewrap: Callable[[str, str, bytes], bytes]) -> int:
        """Replace every wrapped key (and the canary) by ``rewrap(tenant, subject, wrapped)``
        in one transaction; returns how many keys."""
        ...

    def canary(self) -> bytes | None: ...

    def set_canary_if_absent(self, sealed: bytes) -> bytes:
        """Keep ``sealed`` unless a canary exists; return the one kept."""
        ...

    def any_key(self) -> tuple[str, str, bytes] | None:
        """Some stored (tenant, subject, wrapped key), to check a master key against."""
        ...


class SubjectCache(Protocol):
    """Whatever is kept about a subject outside the database (Redis), dropped on erasure."""

    def purge_subject(self, tenant_id: str, subject_id: str) -> int:
        """Delete every cached entry of the subject; returns how many went."""
        ...


class RetentionStore(Protocol):
    """Maintenance across tenants: purges memories past their retention and grace period."""

    def purge_expired(self, cutoff: datetime, *, limit: int, at: datetime, actor: str) -> int:
        """Delete up to ``limit`` memories whose ``expires_at`` is at or before ``cutoff``.

        Each purge leaves a ``memory.purged`` audit event (ids only) written in the same
        transaction. Returns how many were purged; fewer than ``limit`` means done.
        """
        ...


class TaskQueue(Protocol):
    """Background work: Celery when REDIS_URL is set, in-process otherwise. Ids only."""

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None: ...


@dataclass(frozen=True)
class DueSession:
    """A session the nightly sweep must handle: ids only, and whether it is still open."""

    tenant_id: str
    session_id: str
    idle: bool


@dataclass(frozen=True)
class OutboxEntry:
    id: str
    tenant_id: str
    session_id: str


@dataclass(frozen=True)
class DueMemory:
    tenant_id: str
    memory_id: str


class MaintenanceStore(Protocol):
    """The only cross-tenant reads: scheduled jobs find their work here, as ids only.

    Every change is then made in a unit of work opened for the row's own tenant, so the
    tenant filter of the repositories still guards each write. Rows of erased subjects
    are never returned.
    """

    def due_sessions(self, *, idle_before: datetime, limit: int) -> list[DueSession]:
        """Ended sessions not yet consolidated, and open sessions idle since ``idle_before``.

        A session is idle when its last activity (opening, last note saved, last turn
        recorded) is older than ``idle_before``.
        """
        ...

    def pending_outbox(self, *, created_before: datetime, limit: int) -> list[OutboxEntry]:
        """Undispatched outbox entries older than ``created_before``, oldest first."""
        ...

    def unconsolidated_outbox(
        self, *, dispatched_before: datetime, limit: int
    ) -> list[OutboxEntry]:
        """Entries last dispatched before ``dispatched_before`` whose session is still
        ``ended``: the broker took the message, yet no run consolidated the session (a Redis
        restart without persistence loses what it held). Oldest dispatch first."""
        ...

    def tenants_with_expired_manifests(self, *, now: datetime) -> list[str]:
        """Ids of the tenants holding context manifests past their retention."""
        ...

    def due_memories(self, *, now: datetime, limit: int) -> list[DueMemory]:
        """Active memories whose ``expires_at`` is not after ``now``."""
        ...

    def outbox_backlog(self) -> OutboxBacklog:
        """How many outbox entries wait to be sent, and since when (for the metrics)."""
        ...


@dataclass(frozen=True)
class OutboxBacklog:
    pending: int
    oldest_created_at: datetime | None


@dataclass(frozen=True)
class RateDecision:
    """Whether one call may go ahead; if not, how long until the bucket has a token again."""

    allowed: bool
    retry_after_seconds: float = 0.0


class RateLimiter(Protocol):
    """A token bucket per key (an API key id): Redis-backed when REDIS_URL is set."""

    def take(self, key: str) -> RateDecision:
        """Take one token from ``key``'s bucket. Never raises: a limiter that cannot reach
        its store lets the call through rather than turn an outage into refusals."""
        ...


class ConsolidationSummary(Protocol):
    """What the metrics read of one consolidation run (``services.consolidation``'s report)."""

    @property
    def decisions(self) -> Mapping[str, int]:
        """Decisions by kind."""
        ...

    @property
    def decided_by(self) -> Mapping[str, int]:
        """Decisions by who decided (the rules, the LLM judge, ...)."""
        ...

    @property
    def judge_call(self) -> JudgeCall | None: ...


class Metrics(Protocol):
    """Operational counters, recorded where a request, task or command ends.

    Labels are closed vocabularies (statuses, reason codes, kinds, route templates): never a
    tenant, subject or memory id, and never text, so a scrape tells nothing about anyone.
    """

    def request_served(self, method: str, route: str, status: int, seconds: float) -> None:
        """``route`` is the matched route's template (``/v1/sessions/{session_id}/notes``)."""
        ...

    def note_answered(self, status: str, reason_codes: Sequence[str], *, dry_run: bool) -> None: ...

    def context_rendered(self, tokens: int) -> None: ...

    def consolidation_finished(self, run: ConsolidationSummary | None) -> None:
        """``None`` for a task that found nothing to do (repeat, erased, still open)."""
        ...

    def subject_erased(self, memories: int) -> None: ...


class IdentifierDetector(Protocol):
    """Identifier values only a library knows, found in a note the privacy guards normalised.

    National, tax and social-security numbers with their checksums, phone numbers written
    with a country code, seed phrases from a BIP-39 word list. ``text`` is the normalised
    note (:mod:`memory_service.core.privacy.normalise`); ``codes`` are the letter-digit codes
    in it whose shape the core could not rule out (not a date, a time, a version, a price),
    separators removed. The answer is entity types such as ``NATIONAL_ID``,
    ``PHONE_NUMBER`` or ``SEED_PHRASE``, never values.
    """

    def identifier_types(self, text: str, codes: Sequence[str]) -> frozenset[str]: ...
