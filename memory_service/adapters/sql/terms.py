"""The blind term index of active global memories: written with them, read by consolidation.

Each active global memory is filed under keyed hashes of its
:func:`~memory_service.core.consolidation.candidate_terms` (``memory_terms``), so
consolidation loads the few globals that share a term with a session's notes instead of
decrypting the subject's whole global memory. The hashes are keyed by the subject's data
key: erasure destroys that key and deletes the rows; what a backup keeps is noise.

A lookup ranks globals as the core's index does: a shared term counts more the fewer of
the subject's globals hold it (``RANK_SCALE // holders``, in integers so that every backend
and the in-memory fake agree on the order), and a tie goes to the larger id. The ranking
reads ``memory_terms`` alone (the purpose is kept on each row for that), through the index
that starts with ``term_hash``, and only the winners' memory rows are joined, by primary
key: no plan, even on stale statistics, reads the subject's whole global memory.

Deletes find the rows by the primary key, whose first column is the memory id: ``remove``
by the ids themselves, ``remove_subject`` through the memories' subject index, a memory's
deletion by cascade. ``tests/integration/test_term_index_plans.py`` reads the plans.

Rows written before a change of the core's terms, or before this index existed, are
rebuilt by :func:`reindex_subjects` (``memory-service reindex``), which also seals the
vectors of globals written before migration 0005 or under another embedding model.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Engine,
    Select,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
)
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.crypto import Keyring, SubjectCipher
from memory_service.adapters.sql.convert import memory_from_row
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.vectors import seal_vector
from memory_service.adapters.tables import MemoryRow, MemoryTermRow, SubjectRow
from memory_service.core.consolidation import candidate_terms
from memory_service.core.consolidation.embedding import Embedder
from memory_service.core.model import Memory, MemoryScope, MemoryStatus
from memory_service.core.progress import SILENT, Progress

RANK_SCALE = 1_000_000


def is_indexed(memory: Memory) -> bool:
    """Only active global memories are consolidation candidates, so only they are filed."""
    return memory.scope is MemoryScope.GLOBAL and memory.status is MemoryStatus.ACTIVE


def term_rows(memory: Memory, cipher: SubjectCipher) -> list[dict[str, Any]]:
    """The index rows of ``memory``: one per distinct term hash, none unless it is indexed."""
    if not is_indexed(memory):
        return []
    hashes = {cipher.term_hash(term) for term in candidate_terms(memory)}
    return [
        {
            "memory_id": memory.id,
            "term_hash": term_hash,
            "tenant_id": memory.tenant_id,
            "subject_id": memory.subject_id,
            "purpose": memory.purpose,
        }
        for term_hash in sorted(hashes)
    ]


class SqlTermIndex:
    """One tenant's ``memory_terms`` rows, in the caller's transaction."""

    def __init__(self, session: Session, tenant_id: str) -> None:
        self._session = session
        self._tenant_id = tenant_id

    def write(self, memories: Collection[Memory], cipher: SubjectCipher) -> None:
        """File the memories that are indexed (their rows must not exist yet)."""
        rows = [row for memory in memories for row in term_rows(memory, cipher)]
        if rows:
            self._session.execute(insert(MemoryTermRow), rows)

    def remove(self, memory_ids: Collection[str]) -> None:
        """Unfile memories of this tenant, found through the index's primary key alone."""
        if memory_ids:
            self._session.execute(
                _REMOVE, {"tenant_id": self._tenant_id, "memory_ids": list(memory_ids)}
            )

    def remove_subject(self, subject_id: str) -> None:
        """Unfile every memory of the subject (through the memories' subject index)."""
        memories = select(col(MemoryRow.id)).where(
            col(MemoryRow.tenant_id) == self._tenant_id,
            col(MemoryRow.subject_id) == subject_id,
        )
        self._session.execute(
            delete(MemoryTermRow).where(col(MemoryTermRow.memory_id).in_(memories))
        )

    def best_rows(
        self,
        subject_id: str,
        term_hashes: Collection[str],
        *,
        purposes: Collection[str],
        limit: int,
    ) -> Sequence[MemoryRow]:
        """The memory rows of the best ``limit`` filed memories of ``purposes`` holding a
        term, best first. Ties go to the larger id in code-point order, as in the core."""
        postgres = self._session.get_bind().dialect.name == "postgresql"
        return self._session.scalars(
            _best_statement(code_point_ids=postgres),
            {
                "tenant_id": self._tenant_id,
                "subject_id": subject_id,
                "term_hashes": list(term_hashes),
                "purposes": list(purposes),
                "limit": limit,
            },
        ).all()


# Built once: a lookup runs for every note of every session, and building and caching a
# statement costs more than running it.
# The rows carry their tenant: no join to the memories, whose tenant condition let SQLite
# (no statistics) walk the tenant's whole memories index once four ids or more were given.
_REMOVE = delete(MemoryTermRow).where(
    col(MemoryTermRow.memory_id).in_(bindparam("memory_ids", expanding=True)),
    col(MemoryTermRow.tenant_id) == bindparam("tenant_id"),
)


@cache
def _best_statement(*, code_point_ids: bool) -> Select[MemoryRow]:
    """Rank on ``memory_terms`` alone, then join the winners' rows by primary key only (a
    condition on the subject, scope or status would tempt SQLite into the subject index)."""
    postings = (
        select(
            col(MemoryTermRow.memory_id),
            func.count().over(partition_by=col(MemoryTermRow.term_hash)).label("holders"),
        )
        .where(
            col(MemoryTermRow.tenant_id) == bindparam("tenant_id"),
            col(MemoryTermRow.subject_id) == bindparam("subject_id"),
            col(MemoryTermRow.term_hash).in_(bindparam("term_hashes", expanding=True)),
            col(MemoryTermRow.purpose).in_(bindparam("purposes", expanding=True)),
        )
        .subquery("postings")
    )
    score = func.sum(literal(RANK_SCALE) // postings.c.holders)
    best = (
        select(postings.c.memory_id, score.label("score"))
        .group_by(postings.c.memory_id)
        .order_by(score.desc(), code_point_order(postings.c.memory_id, code_point_ids).desc())
        .limit(bindparam("limit"))
        .subquery("best")
    )
    return (
        select(MemoryRow)
        .join(best, col(MemoryRow.id) == best.c.memory_id)
        .where(col(MemoryRow.tenant_id) == bindparam("tenant_id"))
        .order_by(best.c.score.desc(), code_point_order(best.c.memory_id, code_point_ids).desc())
    )


def code_point_order(memory_id: ColumnElement[Any], code_point_ids: bool) -> ColumnElement[Any]:
    """Ids compare in code-point order, as Python compares strings (PostgreSQL: "C")."""
    return memory_id.collate("C") if code_point_ids else memory_id


@dataclass(frozen=True)
class ReindexReport:
    subjects: int
    memories: int


def reindex_subjects(
    engine: Engine,
    keyring: Keyring,
    *,
    tenant_id: str | None = None,
    embedder: Embedder | None = None,
    progress: Progress = SILENT,
) -> ReindexReport:
    """Rebuild the index of every subject holding a data key (of one tenant, if given),
    and, given an embedder, the sealed vectors of its active global memories.

    One transaction per subject, under the subject's lock, so a consolidation of the
    subject waits rather than reads a half-built index. Safe to repeat.
    """
    live = select(col(SubjectRow.tenant_id), col(SubjectRow.subject_id)).where(
        col(SubjectRow.data_key_id).is_not(None)
    )
    if tenant_id is not None:
        live = live.where(col(SubjectRow.tenant_id) == tenant_id)
    with Session(engine) as db:
        subjects = db.execute(live.order_by(col(SubjectRow.tenant_id))).all()
    progress.start(len(subjects))
    subjects_done = memories_done = 0
    for tenant, subject in subjects:
        progress.advance()
        with Session(engine) as db:
            keys = SubjectKeys(db, tenant, keyring)
            keys.lock_row(subject)
            cipher = keys.existing(subject)
            if cipher is None:
                continue  # erased since it was listed
            index = SqlTermIndex(db, tenant)
            index.remove_subject(subject)
            rows = db.scalars(
                select(MemoryRow).where(
                    col(MemoryRow.tenant_id) == tenant,
                    col(MemoryRow.subject_id) == subject,
                    col(MemoryRow.scope) == MemoryScope.GLOBAL.value,
                    col(MemoryRow.status) == MemoryStatus.ACTIVE.value,
                )
            ).all()
            memories = [memory_from_row(row, cipher) for row in rows]
            index.write(memories, cipher)
            if embedder is not None:
                vectors = embedder.embed([memory.text for memory in memories])
                for row, memory, vector in zip(rows, memories, vectors, strict=True):
                    row.vector_ciphertext = seal_vector(embedder.model, vector, cipher, memory.id)
            db.commit()
        subjects_done += 1
        memories_done += len(rows)
    return ReindexReport(subjects=subjects_done, memories=memories_done)
