"""The SQL unit of work: one database transaction for one tenant.

Nothing is kept unless ``commit()`` is called; jobs registered with ``after_commit``
(typically queuing a task) run only once the commit succeeded, so a worker never
receives the id of a row that is not there. See :func:`run_after_commit` for what a
failing job does.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.manifest_queue import ManifestQueue
from memory_service.adapters.sql.audit import SqlAuditLog
from memory_service.adapters.sql.context_reads import SqlContextReads
from memory_service.adapters.sql.erasure import SqlErasureRepository
from memory_service.adapters.sql.failures import (
    CONNECTION_FAILURES,
    connection_failures_as_unavailable,
    unavailable,
)
from memory_service.adapters.sql.manifests import SqlManifestRepository
from memory_service.adapters.sql.memories import SqlMemoryRepository
from memory_service.adapters.sql.note_reads import SqlNoteReads
from memory_service.adapters.sql.outbox import SqlConsolidationOutbox
from memory_service.adapters.sql.pending import PendingInserts
from memory_service.adapters.sql.sessions import SqlSessionRepository
from memory_service.adapters.sql.subjects import SqlSubjectRepository, SubjectKeys
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.sql.turns import SqlTurnRepository
from memory_service.core.clock import SystemClock
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.manifests import StoredManifest
from memory_service.core.ports import AuditRecording, Clock

log = logging.getLogger(__name__)


def run_after_commit(jobs: Iterable[Callable[[], None]]) -> None:
    """Run every job, each on its own: the commit stands whatever they do.

    A job that fails is logged by exception type only (its message could carry data)
    and the jobs after it still run. A failure is no reason to fail the call that
    committed: the outbox resends a consolidation whose send failed. The exception is a
    ``DependencyUnavailable``, raised again once every job has run: the caller answers
    503 and retries an operation that is idempotent (erasure then purges the cache again).
    """
    unavailable: DependencyUnavailable | None = None
    for job in jobs:
        try:
            job()
        except DependencyUnavailable as exc:
            log.warning("an after-commit job found a dependency unavailable; retry the call")
            unavailable = unavailable or exc
        except Exception as exc:
            log.error("an after-commit job failed (%s); the commit stands", type(exc).__name__)
    if unavailable is not None:
        raise unavailable


class SqlUnitOfWork(AuditRecording):
    def __init__(
        self,
        engine: Engine,
        keyring: Keyring,
        clock: Clock,
        tenant_id: str,
        embedder: Embedder | None = None,
        manifest_queue: ManifestQueue | None = None,
    ) -> None:
        self.tenant_id = tenant_id
        self._embedder = embedder
        self._manifest_queue = manifest_queue
        self._engine = engine
        self._keyring = keyring
        self._clock = clock
        self._jobs: list[Callable[[], None]] = []

    def __enter__(self) -> SqlUnitOfWork:
        self._session = Session(self._engine)
        self._keys = SubjectKeys(self._session, self.tenant_id, self._keyring)
        self.subject_keys = self._keys  # adapter-level access, for the erasure replay
        return self

    # Each repository is built when first used: a render uses three of twelve, and building
    # the rest (with the pending inserts' session events) was a tenth of its CPU.

    @functools.cached_property
    def _pending(self) -> PendingInserts:
        return PendingInserts(self._session)

    @functools.cached_property
    def memories(self) -> SqlMemoryRepository:
        return SqlMemoryRepository(
            self._session, self.tenant_id, self._keys, self._pending, self._embedder
        )

    @functools.cached_property
    def sessions(self) -> SqlSessionRepository:
        return SqlSessionRepository(self._session, self.tenant_id, self._keys, self._pending)

    @functools.cached_property
    def subjects(self) -> SqlSubjectRepository:
        return SqlSubjectRepository(self._session, self.tenant_id, self._keys, self._clock)

    @functools.cached_property
    def audit(self) -> SqlAuditLog:
        return SqlAuditLog(self._session, self.tenant_id, self._pending)

    @functools.cached_property
    def erasure(self) -> SqlErasureRepository:
        return SqlErasureRepository(
            self._session, self.tenant_id, self._keys, self._keyring, self._clock, self.after_commit
        )

    @functools.cached_property
    def turns(self) -> SqlTurnRepository:
        return SqlTurnRepository(self._session, self.tenant_id, self._keys, self._clock)

    @functools.cached_property
    def manifests(self) -> SqlManifestRepository:
        if self._manifest_queue is None:
            return SqlManifestRepository(self._session, self.tenant_id)
        return _QueuedManifests(self._session, self.tenant_id, self._manifest_queue)

    @functools.cached_property
    def context(self) -> SqlContextReads:
        return SqlContextReads(self._session, self.tenant_id, self._keys)

    @functools.cached_property
    def notes(self) -> SqlNoteReads:
        return SqlNoteReads(self._session, self.tenant_id, self._keys, self.memories)

    @functools.cached_property
    def outbox(self) -> SqlConsolidationOutbox:
        return SqlConsolidationOutbox(self._session, self.tenant_id)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._jobs.clear()
        try:
            self._session.rollback()
        except CONNECTION_FAILURES as rollback_failure:
            if exc is None:
                raise unavailable() from rollback_failure
        finally:
            self._session.close()
        if isinstance(exc, CONNECTION_FAILURES):
            raise unavailable() from exc

    def commit(self) -> None:
        with connection_failures_as_unavailable():
            if "_pending" in self.__dict__:  # built: something may be queued
                self._pending.send(at_commit=True)
            self._session.commit()
        jobs, self._jobs = self._jobs, []
        run_after_commit(jobs)

    def after_commit(self, job: Callable[[], None]) -> None:
        self._jobs.append(job)


class _QueuedManifests(SqlManifestRepository):
    """A render's manifests leave its (read-only) transaction for the writer's queue."""

    def __init__(self, session: Session, tenant_id: str, queue: ManifestQueue) -> None:
        super().__init__(session, tenant_id)
        self._queue = queue

    def add(self, manifest: StoredManifest) -> None:
        self.add_all([manifest])

    def add_all(self, manifests: Sequence[StoredManifest]) -> None:
        for manifest in manifests:
            require_own_tenant(manifest.tenant_id, self.tenant_id)
            self._queue.record(manifest)


class SqlUnitOfWorkFactory:
    """``factory(tenant_id)`` opens a unit of work scoped to that tenant."""

    def __init__(
        self,
        engine: Engine,
        keyring: Keyring,
        clock: Clock | None = None,
        embedder: Embedder | None = None,
        manifest_queue: ManifestQueue | None = None,
    ) -> None:
        self.engine = engine
        self._keyring = keyring
        self._clock = clock or SystemClock()
        # Files the vectors of active global memories (see adapters/sql/vectors.py).
        self.embedder = embedder
        self._manifest_queue = manifest_queue

    def for_renders(self, engine: Engine, manifest_queue: ManifestQueue) -> SqlUnitOfWorkFactory:
        """Units of work for renders: on ``engine`` (read only: a replica, or the primary
        through ``database.reads_only``), their manifests handed to ``manifest_queue``."""
        return SqlUnitOfWorkFactory(engine, self._keyring, self._clock, None, manifest_queue)

    def __call__(self, tenant_id: str) -> SqlUnitOfWork:
        return SqlUnitOfWork(
            self.engine,
            self._keyring,
            self._clock,
            tenant_id,
            self.embedder,
            self._manifest_queue,
        )
