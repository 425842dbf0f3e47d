"""One tenant's memories: sealed text, fingerprint lookup, index-friendly listings.

Status changes are frequent (supersession, expiry, deletion) and never touch the text, so
``save`` seals the text again only when it or the keywords changed: the rows this unit of
work decrypted or wrote are kept, with what their ciphertext holds, and a save of one of
them needs no SELECT (the session's identity map alone holds rows only weakly).

A memory that is not filed in the term index (a session's note) is not inserted at once: its
row is queued (``adapters/sql/pending.py``) and goes with the unit of work's next statement or
its commit, on PostgreSQL in one statement with the audit event that records it.

Active global memories are also filed in the blind term index (``adapters/sql/terms.py``)
as they are added or saved, and taken out of it when they stop being active, so
consolidation finds its candidates without decrypting the subject's whole global memory.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, or_, select, update
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.sql.convert import (
    memory_columns,
    memory_from_row,
    plain_columns,
    sealed_columns,
)
from memory_service.adapters.sql.pending import PendingInserts
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.sql.terms import SqlTermIndex, code_point_order, is_indexed
from memory_service.adapters.sql.vectors import by_primary_key, nearest_rows, seal_vector
from memory_service.adapters.tables import MemoryRow
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.errors import NotFound
from memory_service.core.model import Attribute, Memory, MemoryScope, MemoryStatus, Source
from memory_service.core.ports import ExpiredMemory


@dataclass(frozen=True)
class _Seen:
    """A row this unit of work holds, and the text and keywords its ciphertext held."""

    row: MemoryRow
    ciphertext: bytes
    text: str
    keywords: tuple[str, ...]
    attribute: Attribute | None

    @classmethod
    def of(cls, row: MemoryRow, memory: Memory) -> _Seen:
        return cls(row, row.ciphertext, memory.text, memory.keywords, memory.attribute)

    def holds(self, memory: Memory) -> bool:
        current = (self.row.ciphertext, memory.text, memory.keywords, memory.attribute)
        return current == (self.ciphertext, self.text, self.keywords, self.attribute)


@functools.cache
def _id_order(postgres: bool) -> ColumnElement[Any]:
    """Ties in time are broken by id in code-point order, as Python sorts strings.

    Built once per process: building the ``COLLATE`` expression was about a tenth of a
    save's own (non-guard, non-database) CPU, at every unit of work (cProfile, session 7).
    """
    return code_point_order(MemoryRow.__table__.c.id, postgres)  # type: ignore[attr-defined]


class SqlMemoryRepository:
    def __init__(
        self,
        session: Session,
        tenant_id: str,
        keys: SubjectKeys,
        pending: PendingInserts,
        embedder: Embedder | None = None,
    ) -> None:
        self._session = session
        self._pending = pending
        self._embedder = embedder
        self._tenant_id = tenant_id
        self._keys = keys
        self._id_order = _id_order(session.get_bind().dialect.name == "postgresql")
        self._seen: dict[str, _Seen] = {}
        self._terms = SqlTermIndex(session, tenant_id)

    def _rows(self, *conditions: ColumnElement[bool] | bool) -> Select[MemoryRow]:
        return select(MemoryRow).where(MemoryRow.tenant_id == self._tenant_id, *conditions)

    def _decrypt(self, rows: Sequence[MemoryRow]) -> list[Memory]:
        """Rows of an erased subject are skipped: without the key they are noise."""
        memories = []
        for row in rows:
            cipher = self._keys.existing(row.subject_id)
            if cipher is not None:
                memory = memory_from_row(row, cipher)
                self._seen[row.id] = _Seen.of(row, memory)
                memories.append(memory)
        return memories

    def _seal(self, row: MemoryRow, memory: Memory) -> bool:
        """Write the text columns, unless the row's ciphertext already holds this text.

        True when it wrote them: the text (or what this unit of work knows of it) changed.
        """
        seen = self._seen.get(row.id)
        if seen is not None and seen.row is row and seen.holds(memory):
            return False
        cipher = self._keys.existing(memory.subject_id)
        if cipher is None:
            raise NotFound("memory not found")
        for name, value in sealed_columns(memory, cipher).items():
            setattr(row, name, value)
        self._seen[row.id] = _Seen.of(row, memory)
        return True

    def _file_terms(self, memory: Memory) -> None:
        cipher = self._keys.existing(memory.subject_id)
        assert cipher is not None  # the memory was just sealed with it
        self._terms.write([memory], cipher)

    def _file_vector(self, row: MemoryRow, memory: Memory) -> None:
        """An indexed memory's embedding, sealed; none without an embedder or once unindexed."""
        cipher = self._keys.existing(memory.subject_id)
        if self._embedder is None or cipher is None or not is_indexed(memory):
            row.vector_ciphertext = None
            return
        row.vector_ciphertext = seal_vector(
            self._embedder.model, self._embedder.embed([memory.text])[0], cipher, memory.id
        )

    def add(self, memory: Memory) -> None:
        require_own_tenant(memory.tenant_id, self._tenant_id)
        # A memory of no session may start a new lifecycle of an erased subject; a session
        # note cannot (its session went with the erasure).
        self._keys.ensure(
            memory.subject_id, memory.created_at, new_lifecycle=memory.session_id is None
        )
        if not is_indexed(memory):
            cipher = self._keys.existing(memory.subject_id)
            if cipher is None:
                raise NotFound("memory not found")
            # Not held by this unit of work: a later save of it reads the row (sent by then).
            self._pending.add(
                MemoryRow.__table__,  # type: ignore[attr-defined]
                [
                    {
                        "id": memory.id,
                        "tenant_id": self._tenant_id,
                        "subject_id": memory.subject_id,
                        "vector_ciphertext": None,
                        **memory_columns(memory, cipher),
                    }
                ],
            )
            return
        row = MemoryRow(
            id=memory.id,
            tenant_id=self._tenant_id,
            subject_id=memory.subject_id,
            **plain_columns(memory),
        )
        self._seal(row, memory)
        self._file_vector(row, memory)
        self._session.add(row)
        self._session.flush()
        self._file_terms(memory)

    def _row(self, memory_id: str) -> MemoryRow | None:
        return self._session.scalars(self._rows(MemoryRow.id == memory_id)).first()

    def _held_row(self, memory_id: str) -> MemoryRow | None:
        """The row this unit of work already holds, else one SELECT filtered by tenant."""
        seen = self._seen.get(memory_id)
        return seen.row if seen is not None else self._row(memory_id)

    def held(self, row: MemoryRow) -> Memory | None:
        """The memory of a row read elsewhere in this unit of work, held like its own reads
        (a save of it needs no SELECT); None for an erased subject's."""
        found = self._decrypt([row])
        return found[0] if found else None

    def get(self, memory_id: str) -> Memory | None:
        row = self._row(memory_id)
        found = self._decrypt([row]) if row is not None else []
        return found[0] if found else None

    def save(self, memory: Memory) -> None:
        require_own_tenant(memory.tenant_id, self._tenant_id)
        row = self._held_row(memory.id)
        if row is None or self._keys.existing(memory.subject_id) is None:
            raise NotFound("memory not found")
        if row.subject_id != memory.subject_id:
            raise ValueError("a memory cannot move to another subject")
        was_indexed = (row.scope, row.status) == (
            MemoryScope.GLOBAL.value,
            MemoryStatus.ACTIVE.value,
        )
        purpose_changed = row.purpose != memory.purpose
        for name, value in plain_columns(memory).items():
            setattr(row, name, value)
        refile = self._seal(row, memory) or purpose_changed
        if refile or was_indexed != is_indexed(memory):
            self._file_vector(row, memory)
        self._session.flush()
        # The index follows the text, purpose and status; a merge that only moves updated_at
        # or derived_from (the common save of consolidation) leaves it alone.
        if was_indexed and (refile or not is_indexed(memory)):
            self._terms.remove([memory.id])
        if is_indexed(memory) and (refile or not was_indexed):
            self._file_terms(memory)

    def expire(self, memory_ids: Collection[str], *, now: datetime) -> list[ExpiredMemory]:
        """``UPDATE ... WHERE status = 'active' AND expires_at <= :now ... RETURNING``."""
        if not memory_ids:
            return []
        statement = (
            update(MemoryRow)
            .where(
                col(MemoryRow.tenant_id) == self._tenant_id,
                col(MemoryRow.id).in_(list(memory_ids)),
                col(MemoryRow.status) == MemoryStatus.ACTIVE.value,
                col(MemoryRow.expires_at) <= now,
            )
            .values(status=MemoryStatus.EXPIRED.value)
            .returning(
                col(MemoryRow.id),
                col(MemoryRow.subject_id),
                col(MemoryRow.session_id),
                col(MemoryRow.expires_at),
            )
            .execution_options(synchronize_session="fetch")
        )
        expired = []
        for memory_id, subject_id, session_id, expires_at in self._session.execute(statement):
            assert expires_at is not None  # matched ``expires_at <= now``
            expired.append(ExpiredMemory(memory_id, subject_id, session_id, expires_at))
        self._terms.remove([memory.memory_id for memory in expired])
        return expired

    def find_active_duplicate(self, subject_id: str, text: str) -> Memory | None:
        cipher = self._keys.existing(subject_id)
        if cipher is None:
            return None
        statement = (
            self._rows(
                MemoryRow.subject_id == subject_id,
                MemoryRow.text_fingerprint == cipher.fingerprint(text),
                MemoryRow.status == MemoryStatus.ACTIVE.value,
            )
            .order_by(MemoryRow.updated_at.desc(), self._id_order.desc())  # type: ignore[attr-defined]
            .limit(1)
        )
        return next(iter(self._decrypt(self._session.scalars(statement).all())), None)

    def find_global_candidates(
        self, subject_id: str, terms: Collection[str], *, purposes: Collection[str], limit: int
    ) -> list[Memory]:
        """Ranked on the term index alone; only the winners' rows are read and decrypted.

        The rows' own subject, scope and status are checked again: the index decides what
        is offered, never what counts as an active global memory.
        """
        cipher = self._keys.existing(subject_id)
        if cipher is None or not terms or not purposes or limit <= 0:
            return []
        rows = self._terms.best_rows(
            subject_id,
            sorted({cipher.term_hash(term) for term in terms}),
            purposes=purposes,
            limit=limit,
        )
        return self._decrypt(_active_globals_of(rows, subject_id))

    def find_nearest_globals(
        self,
        subject_id: str,
        vectors: Sequence[Sequence[float]],
        *,
        purposes: Collection[str],
        limit: int,
    ) -> list[Memory]:
        """Unseals the subject's stored vectors (one column of its active globals), ranks
        them in memory, then reads and decrypts only the winners' rows."""
        cipher = self._keys.existing(subject_id)
        if self._embedder is None or cipher is None or not vectors or limit <= 0:
            return []
        subject = (
            MemoryRow.subject_id == subject_id,
            MemoryRow.scope == MemoryScope.GLOBAL.value,
            MemoryRow.status == MemoryStatus.ACTIVE.value,
        )
        ids = nearest_rows(
            self._session,
            self._rows(
                *subject,
                MemoryRow.purpose.in_(list(purposes)),  # type: ignore[attr-defined]
                MemoryRow.vector_ciphertext.is_not(None),  # type: ignore[union-attr]
            ),
            select(func.count(), func.max(MemoryRow.updated_at)).where(
                MemoryRow.tenant_id == self._tenant_id, *subject
            ),
            cipher,
            model=self._embedder.model,
            purposes=sorted(purposes),
            queries=vectors,
            limit=limit,
        )
        if not ids:
            return []
        # The rows' scope and status are checked again: the search decides what is offered,
        # never what counts as an active global memory; in Python, so the rows are read by
        # primary key (see by_primary_key).
        rows = self._session.scalars(
            select(MemoryRow).where(*by_primary_key(self._tenant_id, ids))
        ).all()
        return self._decrypt(_active_globals_of(rows, subject_id))

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
        conditions: list[Any] = [MemoryRow.subject_id == subject_id]
        if sources is not None:
            conditions.append(MemoryRow.source.in_([s.value for s in sources]))  # type: ignore[attr-defined]
        if scope is not None:
            conditions.append(MemoryRow.scope == scope.value)
        if statuses is not None:
            conditions.append(MemoryRow.status.in_([s.value for s in statuses]))  # type: ignore[attr-defined]
        if purposes is not None:
            conditions.append(MemoryRow.purpose.in_(list(purposes)))  # type: ignore[attr-defined]
        if not_expired_at is not None:
            conditions.append(
                or_(
                    MemoryRow.expires_at.is_(None),  # type: ignore[union-attr]
                    MemoryRow.expires_at > not_expired_at,  # type: ignore[operator]
                )
            )
        statement = self._rows(*conditions).order_by(
            MemoryRow.updated_at.desc(),  # type: ignore[attr-defined]
            self._id_order.desc(),
        )
        if limit is not None:
            statement = statement.limit(limit)
        # Only the rows returned are decrypted, all with the one subject key.
        return self._decrypt(self._session.scalars(statement).all())

    def list_for_session(self, session_id: str) -> list[Memory]:
        statement = self._rows(MemoryRow.session_id == session_id).order_by(
            MemoryRow.created_at,
            self._id_order,
        )
        return self._decrypt(self._session.scalars(statement).all())


def _active_globals_of(rows: Sequence[MemoryRow], subject_id: str) -> list[MemoryRow]:
    """The rows that are ``subject_id``'s active global memories (the queries read rows by
    primary key and leave scope, status and subject to this filter)."""
    return [
        row
        for row in rows
        if (row.subject_id, row.scope, row.status)
        == (subject_id, MemoryScope.GLOBAL.value, MemoryStatus.ACTIVE.value)
    ]
