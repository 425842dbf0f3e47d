"""In-memory stand-ins for every store port, plus a settable clock, for fast unit tests.

They keep the SQL adapters' promises: tenant isolation (another tenant's id reads as
unknown), the same orderings, duplicate detection on normalised text, nothing visible
to other units of work before ``commit()``, and ``after_commit`` jobs only after it.
The store contract suite in ``tests/integration`` runs against these too.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import TypeVar

from memory_service.adapters.sql.terms import RANK_SCALE
from memory_service.adapters.unit_of_work import run_after_commit
from memory_service.core.clock import SystemClock, new_id
from memory_service.core.consolidation import candidate_terms, cosine
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.erasure import ErasureReceipt, redact_details, zero_counts
from memory_service.core.errors import NotFound
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
from memory_service.core.ports import (
    AuditRecording,
    Clock,
    DueMemory,
    DueSession,
    ExpiredMemory,
    OutboxBacklog,
    OutboxEntry,
)
from memory_service.core.text import normalize_text
from tests.support.fake_history import (
    HistoryTables,
    InMemoryManifestRepository,
    InMemoryTurnRepository,
)
from tests.support.fake_queries import RepositoryContextReads, RepositoryNoteReads

KEY_PREFIX = "msk_"


class FixedClock:
    """A clock that only moves when a test says so."""

    def __init__(self, now: datetime | None = None) -> None:
        self._now = now or datetime(2026, 1, 15, 9, 0, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware time")

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware time")
        self._now = when

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime:
        """Move forward by ``delta`` or by ``timedelta(**parts)``; returns the new time."""
        self._now += delta if delta is not None else timedelta(**parts)
        return self._now


Key = tuple[str, str]
_V = TypeVar("_V")


@dataclass
class InMemoryStore:
    """The committed data, shared by every unit of work of one factory (the 'database')."""

    memories: dict[Key, Memory] = field(default_factory=dict)
    sessions: dict[Key, Session] = field(default_factory=dict)
    states: dict[Key, SubjectState] = field(default_factory=dict)
    subjects: set[Key] = field(default_factory=set)
    audit: list[AuditEvent] = field(default_factory=list)
    outbox: dict[Key, OutboxRecord] = field(default_factory=dict)
    receipts: list[ErasureReceipt] = field(default_factory=list)
    history: HistoryTables = field(default_factory=HistoryTables)
    # Tombstones: subjects erased at some point (live again only if also in ``subjects``).
    erased: set[Key] = field(default_factory=set)
    # Set to make the memory repository answer ``find_nearest_globals``.
    embedder: Embedder | None = None

    def erase(self, subject: Key) -> None:
        """Drop the subject's rows and redact its audit details, as the SQL erasure does."""
        self.erased.add(subject)
        for session in _erase_rows(self, subject):
            self.history.marks.pop(session, None)
        self.audit = [
            replace(event, details=redact_details(event.details))
            if (event.tenant_id, event.subject_id) == subject
            else event
            for event in self.audit
        ]


def _erase_rows(tables: InMemoryStore | _Pending, subject: Key) -> set[Key]:
    """Delete the subject's memories, sessions, outbox rows and state; return its sessions."""
    sessions = {k for k, s in tables.sessions.items() if (k[0], s.subject_id) == subject}
    for key in [k for k, m in tables.memories.items() if (k[0], m.subject_id) == subject]:
        del tables.memories[key]
    for key in [k for k, e in tables.outbox.items() if (k[0], e.session_id) in sessions]:
        del tables.outbox[key]
    for key in sessions:
        del tables.sessions[key]
    tables.states.pop(subject, None)
    tables.subjects.discard(subject)
    return sessions


@dataclass(frozen=True)
class OutboxRecord:
    """A consolidation outbox row, as the SQL table holds it."""

    id: str
    tenant_id: str
    session_id: str
    created_at: datetime
    dispatched_at: datetime | None = None
    attempts: int = 0


@dataclass
class _Pending:
    """One unit of work's uncommitted writes, applied to the store on commit."""

    memories: dict[Key, Memory] = field(default_factory=dict)
    sessions: dict[Key, Session] = field(default_factory=dict)
    states: dict[Key, SubjectState] = field(default_factory=dict)
    subjects: set[Key] = field(default_factory=set)
    audit: list[AuditEvent] = field(default_factory=list)
    outbox: dict[Key, OutboxRecord] = field(default_factory=dict)
    erased: list[Key] = field(default_factory=list)
    receipts: list[ErasureReceipt] = field(default_factory=list)
    history: HistoryTables = field(default_factory=HistoryTables)

    def apply_to(self, store: InMemoryStore) -> None:
        store.memories.update(self.memories)
        store.sessions.update(self.sessions)
        store.states.update(self.states)
        store.subjects.update(self.subjects)
        store.audit.extend(self.audit)
        self.history.apply_to(store.history)
        store.outbox.update(self.outbox)
        for subject in self.erased:
            store.erase(subject)
        store.receipts.extend(self.receipts)


def _require_tenant(record_tenant: str, tenant_id: str) -> None:
    if record_tenant != tenant_id:
        raise ValueError("the record belongs to another tenant than this unit of work")


def _require_not_erased(store: InMemoryStore, pending: _Pending, subject: Key) -> None:
    """Writes that cannot start a new lifecycle (a lock, a session note) refuse an erased
    subject, as the SQL store does; see ``adapters/sql/subjects.py``."""
    if subject in pending.subjects:
        return
    if subject in pending.erased or (subject in store.erased and subject not in store.subjects):
        raise NotFound("no such subject")


class _TenantRepository:
    """One tenant's view in a unit of work: the committed store under its pending writes."""

    def __init__(self, tenant_id: str, store: InMemoryStore, pending: _Pending) -> None:
        self._tenant_id = tenant_id
        self._store = store
        self._pending = pending

    def _latest(self, pending: dict[Key, _V], stored: dict[Key, _V], item_id: str) -> _V | None:
        key = (self._tenant_id, item_id)
        return pending.get(key) or stored.get(key)


class InMemoryMemoryRepository(_TenantRepository):
    def _visible(self) -> dict[Key, Memory]:
        return {**self._store.memories, **self._pending.memories}

    def _subject_memories(self, subject_id: str) -> list[Memory]:
        return [
            memory
            for (tenant_id, _), memory in self._visible().items()
            if tenant_id == self._tenant_id and memory.subject_id == subject_id
        ]

    def add(self, memory: Memory) -> None:
        _require_tenant(memory.tenant_id, self._tenant_id)
        key = (self._tenant_id, memory.id)
        if key in self._visible():
            raise ValueError("a memory with this id already exists")
        if memory.session_id is not None:
            _require_not_erased(self._store, self._pending, (self._tenant_id, memory.subject_id))
        self._pending.subjects.add((self._tenant_id, memory.subject_id))
        self._pending.memories[key] = memory

    def get(self, memory_id: str) -> Memory | None:
        return self._visible().get((self._tenant_id, memory_id))

    def save(self, memory: Memory) -> None:
        _require_tenant(memory.tenant_id, self._tenant_id)
        key = (self._tenant_id, memory.id)
        if key not in self._visible():
            raise NotFound("memory not found")
        self._pending.memories[key] = memory

    def expire(self, memory_ids: Collection[str], *, now: datetime) -> list[ExpiredMemory]:
        expired = []
        for memory_id in memory_ids:
            memory = self.get(memory_id)
            if memory is None or memory.status is not MemoryStatus.ACTIVE:
                continue
            if memory.expires_at is None or memory.expires_at > now:
                continue
            self._pending.memories[(self._tenant_id, memory.id)] = replace(
                memory, status=MemoryStatus.EXPIRED
            )
            expired.append(
                ExpiredMemory(memory.id, memory.subject_id, memory.session_id, memory.expires_at)
            )
        return expired

    def find_active_duplicate(self, subject_id: str, text: str) -> Memory | None:
        wanted = normalize_text(text)
        matches = [
            memory
            for memory in self._subject_memories(subject_id)
            if memory.status is MemoryStatus.ACTIVE and normalize_text(memory.text) == wanted
        ]
        return _newest_first(matches)[0] if matches else None

    def find_global_candidates(
        self, subject_id: str, terms: Collection[str], *, purposes: Collection[str], limit: int
    ) -> list[Memory]:
        """The SQL term index's ranking, over terms computed from the plaintext."""
        wanted = set(terms)
        shared = {
            memory.id: candidate_terms(memory) & wanted
            for memory in self._subject_memories(subject_id)
            if memory.scope is MemoryScope.GLOBAL
            and memory.status is MemoryStatus.ACTIVE
            and memory.purpose in purposes
        }
        holders: dict[str, int] = {}
        for found in shared.values():
            for term in found:
                holders[term] = holders.get(term, 0) + 1
        scores = {
            memory_id: sum(RANK_SCALE // holders[term] for term in found)
            for memory_id, found in shared.items()
            if found
        }
        best = sorted(scores, key=lambda memory_id: (scores[memory_id], memory_id), reverse=True)
        return [
            self._visible()[(self._tenant_id, memory_id)] for memory_id in best[: max(limit, 0)]
        ]

    def find_nearest_globals(
        self,
        subject_id: str,
        vectors: Sequence[Sequence[float]],
        *,
        purposes: Collection[str],
        limit: int,
    ) -> list[Memory]:
        """The SQL store's search over vectors computed from the plaintext, when the store
        was given an embedder (as the SQL one files vectors only with one)."""
        embedder = self._store.embedder
        if embedder is None or not vectors or limit <= 0:
            return []
        found = [
            memory
            for memory in self._subject_memories(subject_id)
            if memory.scope is MemoryScope.GLOBAL
            and memory.status is MemoryStatus.ACTIVE
            and memory.purpose in purposes
        ]
        stored = embedder.embed([memory.text for memory in found])
        nearest: dict[str, Memory] = {}
        for query in vectors:
            ranked = sorted(
                zip(found, stored, strict=True), key=lambda pair: -cosine(query, pair[1])
            )
            nearest.update((memory.id, memory) for memory, _ in ranked[:limit])
        return list(nearest.values())

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
        found = [
            memory
            for memory in self._subject_memories(subject_id)
            if (scope is None or memory.scope is scope)
            and (sources is None or memory.source in sources)
            and (statuses is None or memory.status in statuses)
            and (purposes is None or memory.purpose in purposes)
            and (
                not_expired_at is None
                or memory.expires_at is None
                or memory.expires_at > not_expired_at
            )
        ]
        ordered = _newest_first(found)
        return ordered if limit is None else ordered[:limit]

    def list_for_session(self, session_id: str) -> list[Memory]:
        found = [
            memory
            for (tenant_id, _), memory in self._visible().items()
            if tenant_id == self._tenant_id and memory.session_id == session_id
        ]
        return sorted(found, key=lambda memory: (memory.created_at, memory.id))


def _newest_first(memories: list[Memory]) -> list[Memory]:
    return sorted(memories, key=lambda memory: (memory.updated_at, memory.id), reverse=True)


class InMemorySessionRepository(_TenantRepository):
    def _find(self, session_id: str) -> Session | None:
        return self._latest(self._pending.sessions, self._store.sessions, session_id)

    def add(self, session: Session) -> None:
        _require_tenant(session.tenant_id, self._tenant_id)
        if self._find(session.id) is not None:
            raise ValueError("a session with this id already exists")
        self._pending.subjects.add((self._tenant_id, session.subject_id))
        self._pending.sessions[(self._tenant_id, session.id)] = session

    def get(self, session_id: str) -> Session | None:
        return self._find(session_id)

    def save(self, session: Session) -> None:
        _require_tenant(session.tenant_id, self._tenant_id)
        if self._find(session.id) is None:
            raise NotFound("session not found")
        self._pending.sessions[(self._tenant_id, session.id)] = session

    def transition(self, session: Session, *, from_status: SessionStatus) -> bool:
        _require_tenant(session.tenant_id, self._tenant_id)
        current = self._find(session.id)
        if current is None or current.status is not from_status:
            return False
        self._pending.sessions[(self._tenant_id, session.id)] = session
        return True

    def list_for_subject(self, subject_id: str) -> list[Session]:
        found = [
            session
            for (tenant_id, _), session in {
                **self._store.sessions,
                **self._pending.sessions,
            }.items()
            if tenant_id == self._tenant_id and session.subject_id == subject_id
        ]
        return sorted(found, key=lambda session: (session.opened_at, session.id))


class InMemorySubjectRepository(_TenantRepository):
    def get_state(self, subject_id: str) -> SubjectState | None:
        return self._latest(self._pending.states, self._store.states, subject_id)

    def put_state(self, state: SubjectState) -> None:
        _require_tenant(state.tenant_id, self._tenant_id)
        # A JSON round trip, as the database does: later edits to the caller's dict
        # must not leak in, and tuples come back as lists.
        stored = SubjectState(
            tenant_id=state.tenant_id,
            subject_id=state.subject_id,
            state=json.loads(json.dumps(state.state)),
            updated_at=state.updated_at,
        )
        self._pending.subjects.add((self._tenant_id, state.subject_id))
        self._pending.states[(self._tenant_id, state.subject_id)] = stored

    def lock(self, subject_id: str) -> None:
        """Single-threaded tests need no lock; a new subject comes to exist, as in SQL."""
        _require_not_erased(self._store, self._pending, (self._tenant_id, subject_id))
        self._pending.subjects.add((self._tenant_id, subject_id))

    def lock_if_present(self, subject_id: str) -> bool:
        """No lock needed; only a subject that exists (not erased) counts, as in SQL."""
        key = (self._tenant_id, subject_id)
        return key in self._store.subjects or key in self._pending.subjects


class InMemoryAuditLog(_TenantRepository):
    def append(self, event: AuditEvent) -> None:
        self.append_all([event])

    def append_all(self, events: Sequence[AuditEvent]) -> None:
        for event in events:
            _require_tenant(event.tenant_id, self._tenant_id)
        self._pending.audit.extend(events)

    def list_for_subject(self, subject_id: str, *, limit: int | None = None) -> list[AuditEvent]:
        found = [
            event
            for event in [*self._store.audit, *self._pending.audit]
            if event.tenant_id == self._tenant_id and event.subject_id == subject_id
        ]
        ordered = sorted(found, key=lambda event: event.at)  # stable: insertion order on ties
        return ordered if limit is None else ordered[:limit]


class InMemoryConsolidationOutbox(_TenantRepository):
    def add(self, session_id: str, at: datetime) -> str:
        entry = OutboxRecord(new_id(), self._tenant_id, session_id, at)
        self._pending.outbox[(self._tenant_id, entry.id)] = entry
        return entry.id

    def record_attempt(self, entry_id: str, *, dispatched_at: datetime | None) -> None:
        entry = self._latest(self._pending.outbox, self._store.outbox, entry_id)
        if entry is None:
            return
        self._pending.outbox[(self._tenant_id, entry_id)] = replace(
            entry,
            attempts=entry.attempts + 1,
            dispatched_at=dispatched_at or entry.dispatched_at,
        )


class InMemoryMaintenanceStore:
    """The cross-tenant reads of the scheduled jobs, over committed data only."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store

    def due_sessions(self, *, idle_before: datetime, limit: int) -> list[DueSession]:
        active_since = {
            (tenant_id, memory.session_id)
            for (tenant_id, _), memory in self._store.memories.items()
            if memory.session_id is not None and memory.created_at >= idle_before
        }
        due = [
            session
            for key, session in self._store.sessions.items()
            if (key[0], session.subject_id) in self._store.subjects
            and (
                session.status is SessionStatus.ENDED
                or (
                    session.status is SessionStatus.OPEN
                    and session.opened_at < idle_before
                    and key not in active_since
                )
            )
        ]
        due.sort(key=lambda session: session.opened_at)
        return [
            DueSession(s.tenant_id, s.id, idle=s.status is SessionStatus.OPEN) for s in due[:limit]
        ]

    def tenants_with_expired_manifests(self, *, now: datetime) -> list[str]:
        return sorted(
            {
                manifest.tenant_id
                for manifest in self._store.history.manifests.values()
                if manifest is not None and manifest.expires_at <= now
            }
        )

    def outbox_backlog(self) -> OutboxBacklog:
        waiting = [e.created_at for e in self._store.outbox.values() if e.dispatched_at is None]
        return OutboxBacklog(len(waiting), min(waiting, default=None))

    def pending_outbox(self, *, created_before: datetime, limit: int) -> list[OutboxEntry]:
        pending = sorted(
            (
                entry
                for entry in self._store.outbox.values()
                if entry.dispatched_at is None and entry.created_at < created_before
            ),
            key=lambda entry: entry.created_at,
        )
        return [OutboxEntry(e.id, e.tenant_id, e.session_id) for e in pending[:limit]]

    def unconsolidated_outbox(
        self, *, dispatched_before: datetime, limit: int
    ) -> list[OutboxEntry]:
        unconsolidated = []
        for entry in self._store.outbox.values():
            session = self._store.sessions.get((entry.tenant_id, entry.session_id))
            if (
                entry.dispatched_at is not None
                and entry.dispatched_at < dispatched_before
                and session is not None
                and session.status is SessionStatus.ENDED
                and session.ended_at is not None
                and session.ended_at < dispatched_before
                and (session.tenant_id, session.subject_id) in self._store.subjects
            ):
                unconsolidated.append((entry.dispatched_at, entry))
        unconsolidated.sort(key=lambda found: found[0])
        return [OutboxEntry(e.id, e.tenant_id, e.session_id) for _, e in unconsolidated[:limit]]

    def due_memories(self, *, now: datetime, limit: int) -> list[DueMemory]:
        due = sorted(
            (
                memory
                for memory in self._store.memories.values()
                if memory.status is MemoryStatus.ACTIVE
                and memory.expires_at is not None
                and memory.expires_at <= now
                and (memory.tenant_id, memory.subject_id) in self._store.subjects
            ),
            key=lambda memory: memory.expires_at or now,
        )
        return [DueMemory(m.tenant_id, m.id) for m in due[:limit]]


class InMemoryErasureRepository(_TenantRepository):
    """Counts what the subject holds now; the committed rows go when the unit commits."""

    def scrub_after_commit(self, *tables: str) -> None:
        """Nothing lingers in a dict."""

    def erase_subject(self, subject_id: str) -> dict[str, int]:
        subject = (self._tenant_id, subject_id)
        memories = {**self._store.memories, **self._pending.memories}
        sessions = {
            k
            for k, s in {**self._store.sessions, **self._pending.sessions}.items()
            if (k[0], s.subject_id) == subject
        }
        outbox = {**self._store.outbox, **self._pending.outbox}
        counts = zero_counts()
        counts["memories"] = sum(1 for k, m in memories.items() if (k[0], m.subject_id) == subject)
        counts["sessions"] = len(sessions)
        counts["consolidation_outbox"] = sum(
            1 for k, e in outbox.items() if (k[0], e.session_id) in sessions
        )
        committed, pending = self._store.history, self._pending.history
        turns = [
            k
            for k, turn in {**committed.turns, **pending.turns}.items()
            if turn is not None and (k[0], k[1]) in sessions
        ]
        manifests = [
            k
            for k, manifest in {**committed.manifests, **pending.manifests}.items()
            if manifest is not None and (k[0], manifest.subject_id) == subject
        ]
        for turn_key in turns:
            pending.turns[turn_key] = None
        for manifest_key in manifests:
            pending.manifests[manifest_key] = None
        counts["session_turns"] = len(turns)
        counts["context_manifests"] = len(manifests)
        counts["state"] = int(subject in self._store.states or subject in self._pending.states)
        counts["data_key"] = int(
            subject in self._store.subjects or subject in self._pending.subjects
        )
        counts["audit_events_redacted"] = sum(
            1
            for event in [*self._store.audit, *self._pending.audit]
            if (event.tenant_id, event.subject_id) == subject
            and redact_details(event.details) != event.details
        )
        _erase_rows(self._pending, subject)
        self._pending.audit = [
            replace(event, details=redact_details(event.details))
            if (event.tenant_id, event.subject_id) == subject
            else event
            for event in self._pending.audit
        ]
        self._pending.erased.append(subject)
        return counts

    def add_receipt(self, receipt: ErasureReceipt) -> None:
        _require_tenant(receipt.tenant_id, self._tenant_id)
        self._pending.receipts.append(receipt)

    def list_receipts(self, subject_id: str) -> list[ErasureReceipt]:
        found = [
            receipt
            for receipt in [*self._store.receipts, *self._pending.receipts]
            if receipt.tenant_id == self._tenant_id and receipt.subject_id == subject_id
        ]
        return sorted(found, key=lambda receipt: receipt.at)


class InMemoryRetentionStore:
    """Purges across tenants like the SQL maintenance store, each purge audited."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store

    def purge_expired(self, cutoff: datetime, *, limit: int, at: datetime, actor: str) -> int:
        due = sorted(
            (memory.expires_at, key)
            for key, memory in self._store.memories.items()
            if memory.expires_at is not None and memory.expires_at <= cutoff
        )[:limit]
        for _, key in due:
            memory = self._store.memories.pop(key)
            self._store.audit.append(
                AuditEvent.new(
                    EventKind.MEMORY_PURGED,
                    tenant_id=memory.tenant_id,
                    at=at,
                    actor=actor,
                    subject_id=memory.subject_id,
                    memory_id=memory.id,
                )
            )
        return len(due)


class InMemoryUnitOfWork(AuditRecording):
    """Writes stay pending until ``commit()``; leaving the block discards the rest."""

    def __init__(self, tenant_id: str, store: InMemoryStore) -> None:
        self.tenant_id = tenant_id
        self._store = store
        self._jobs: list[Callable[[], None]] = []
        self.committed = 0
        self._begin()

    def _begin(self) -> None:
        self._pending = _Pending()
        self.memories = InMemoryMemoryRepository(self.tenant_id, self._store, self._pending)
        self.sessions = InMemorySessionRepository(self.tenant_id, self._store, self._pending)
        self.subjects = InMemorySubjectRepository(self.tenant_id, self._store, self._pending)
        self.audit = InMemoryAuditLog(self.tenant_id, self._store, self._pending)
        self.turns = InMemoryTurnRepository(
            self.tenant_id, self._store.history, self._pending.history, self._subject_exists
        )
        self.manifests = InMemoryManifestRepository(
            self.tenant_id, self._store.history, self._pending.history
        )
        self.outbox = InMemoryConsolidationOutbox(self.tenant_id, self._store, self._pending)
        self.erasure = InMemoryErasureRepository(self.tenant_id, self._store, self._pending)
        self.context = RepositoryContextReads(
            self.memories, self.sessions, self.subjects, self.turns
        )
        self.notes = RepositoryNoteReads(self.memories, self.sessions, self.subjects, self.turns)

    def _subject_exists(self, subject_id: str) -> bool:
        key = (self.tenant_id, subject_id)
        return key in self._store.subjects or key in self._pending.subjects

    def __enter__(self) -> InMemoryUnitOfWork:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._jobs = []
        self._begin()  # what was not committed is gone

    def commit(self) -> None:
        self._pending.apply_to(self._store)
        self.committed += 1
        jobs, self._jobs = self._jobs, []
        self._begin()
        run_after_commit(jobs)

    def after_commit(self, job: Callable[[], None]) -> None:
        self._jobs.append(job)


class InMemoryUnitOfWorkFactory:
    """Call with a tenant id, like the SQL factory; ``store`` is the shared committed data."""

    def __init__(self, store: InMemoryStore | None = None) -> None:
        self.store = store or InMemoryStore()

    def __call__(self, tenant_id: str) -> InMemoryUnitOfWork:
        return InMemoryUnitOfWork(tenant_id, self.store)


def _hash_key(clear_key: str) -> str:
    return hashlib.sha256(clear_key.encode()).hexdigest()


@dataclass
class _StoredKey:
    record: ApiKey
    key_hash: str


class FakeKeyStore:
    """Keys as the SQL store keeps them: hashed, ``msk_`` prefixed, revocable."""

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock = clock or SystemClock()
        self._keys: dict[str, _StoredKey] = {}
        self.tenants: set[str] = set()

    def create(self, tenant_id: str, role: Role) -> tuple[ApiKey, str]:
        self.tenants.add(tenant_id)
        clear_key = KEY_PREFIX + secrets.token_urlsafe(32)
        record = ApiKey(id=new_id(), tenant_id=tenant_id, role=role, created_at=self._clock.now())
        self._keys[record.id] = _StoredKey(record, _hash_key(clear_key))
        return record, clear_key

    def authenticate(self, clear_key: str) -> ApiKey | None:
        if not isinstance(clear_key, str) or not clear_key.startswith(KEY_PREFIX):
            return None
        wanted = _hash_key(clear_key)
        for stored in self._keys.values():
            if hmac.compare_digest(stored.key_hash, wanted) and stored.record.is_active:
                return stored.record
        return None

    def revoke(self, tenant_id: str, key_id: str) -> bool:
        stored = self._keys.get(key_id)
        if stored is None or stored.record.tenant_id != tenant_id or not stored.record.is_active:
            return False
        revoked = replace(stored.record, revoked_at=self._clock.now())
        self._keys[key_id] = _StoredKey(revoked, stored.key_hash)
        return True

    def active(self, tenant_id: str, key_id: str) -> ApiKey | None:
        stored = self._keys.get(key_id)
        if stored is None or stored.record.tenant_id != tenant_id or not stored.record.is_active:
            return None
        return stored.record
