"""Sealed memory vectors and the per-subject nearest-neighbour search over them.

A vector is stored as the embedding model's name and its float16 values, sealed with the
subject's data key (AES-GCM, bound to the row id and the ``vector`` kind), so erasure makes
it noise with the text. A search reads the subject's sealed vectors (one column of its
active globals, through ``ix_memories_subject_recent``), unseals them, and ranks them with
one matrix product: a subject holds hundreds to thousands of memories, which fit in memory
comfortably (10,000 x 256 float32 is 10 MB), the most recent :data:`SEARCH_WINDOW` of
them. Vectors of another model are skipped. A
bounded, expiring process cache (:class:`VectorCache`) keeps what it unsealed, so a
subject's next search unseals only new or changed vectors.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import ColumnElement, Connection, Select, select
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.crypto import SubjectCipher
from memory_service.adapters.tables import MemoryRow

VECTOR_KIND = "vector"
_SEPARATOR = b"\n"


def seal_vector(
    model: str, vector: Sequence[float], cipher: SubjectCipher, memory_id: str
) -> bytes:
    payload = model.encode() + _SEPARATOR + np.asarray(vector, dtype=np.float16).tobytes()
    return cipher.encrypt(payload, kind=VECTOR_KIND, row_id=memory_id)


def open_vector(sealed: bytes, cipher: SubjectCipher, memory_id: str) -> tuple[str, np.ndarray]:
    payload = cipher.decrypt(sealed, kind=VECTOR_KIND, row_id=memory_id)
    model, _, values = payload.partition(_SEPARATOR)
    return model.decode(), np.frombuffer(values, dtype=np.float16).astype(np.float32)


class VectorCache:
    """Unsealed vectors of recently searched subjects, so a subject's next consolidation
    unseals only what changed.

    Entries are keyed by memory id and text fingerprint (a plain column): a vector follows
    the text alone, so a changed text is a new key and a stale vector is never used. The
    cache is bounded (``capacity`` vectors, least recently searched subjects leave first)
    and a subject's vectors are dropped ``ttl_seconds`` after its last search, as the
    keyring drops unwrapped keys: an erased subject's vectors do not outlive that in memory.
    """

    def __init__(
        self,
        capacity: int = 50_000,
        ttl_seconds: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._capacity = capacity
        self._ttl = ttl_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._subjects: OrderedDict[tuple[str, str], tuple[float, CachedSubject]] = OrderedDict()

    def take(self, tenant_id: str, subject_id: str) -> CachedSubject:
        """The subject's entry (the caller's alone until it puts it back), empty when absent
        or expired."""
        now = self._clock()
        with self._lock:
            entry = self._subjects.pop((tenant_id, subject_id), None)
        if entry is None or now - entry[0] > self._ttl:
            return CachedSubject()
        return entry[1]

    def put(self, tenant_id: str, subject_id: str, entry: CachedSubject) -> None:
        with self._lock:
            self._subjects[(tenant_id, subject_id)] = (self._clock(), entry)
            total = sum(len(e.vectors) for _, e in self._subjects.values())
            while total > self._capacity and self._subjects:
                _, (_, evicted) = self._subjects.popitem(last=False)
                total -= len(evicted.vectors)


_Key = tuple[str, str]
# The model a vector was made with, and the vector.
_Cached = tuple[str, np.ndarray]


@dataclass
class CachedSubject:
    """A subject's unsealed vectors by (memory id, fingerprint), and its ranking matrix."""

    vectors: dict[_Key, _Cached] = field(default_factory=dict)
    snapshot: _Snapshot | None = None


@dataclass
class _Snapshot:
    """The ranking matrix, and the version of the subject's active globals it reflects:
    their count and latest ``updated_at``, for one model and set of purposes."""

    key: tuple[str, tuple[str, ...]]
    count: int
    latest: datetime | None
    ids: list[str]
    fingerprints: list[str]
    matrix: np.ndarray


def by_primary_key(tenant_id: str, ids: Sequence[str]) -> tuple[ColumnElement[bool], ...]:
    """Conditions reading a few rows by id, still only the tenant's.

    The tenant test is written ``tenant_id || '' = ?`` so that no index can serve it:
    SQLite, without table statistics, otherwise walks the tenant's or the subject's whole
    index (every memory) rather than looking the ids up by primary key, which made reading
    eight winners cost tens of milliseconds at 10,000 memories. Scope and status are left
    to the caller to check on the rows for the same reason.
    """
    listed: ColumnElement[bool] = col(MemoryRow.id).in_(ids)
    own: ColumnElement[bool] = (col(MemoryRow.tenant_id) + "") == tenant_id
    return listed, own


PROCESS_CACHE = VectorCache()
_FETCH_CHUNK = 500
# The search by meaning covers a subject's most recently updated active globals, so its
# cost stops growing past this many; older ones are still found by shared terms and by
# attribute (the term index), just not by meaning alone.
SEARCH_WINDOW = 2_000


def nearest_rows(
    session: Session,
    rows_query: Select[Any],
    version_query: Select[Any],
    cipher: SubjectCipher,
    *,
    model: str,
    purposes: Sequence[str],
    queries: Sequence[Sequence[float]],
    limit: int,
    cache: VectorCache = PROCESS_CACHE,
) -> list[str]:
    """Ids of the ``limit`` nearest stored vectors to each query; their union.

    ``version_query`` answers (count, latest ``updated_at``) of the subject's active globals
    from the index alone: when it matches the cached ranking matrix's, that matrix is used
    as is. Otherwise the subject's (id, fingerprint) pairs are read, only the vectors the
    cache lacks are unsealed, and the matrix is rebuilt. A version that failed to notice a
    change costs recall, never a wrong decision: the winners' rows are read and checked
    again, and the term index still offers what shares a word.
    """
    connection = session.connection()
    entry = cache.take(cipher.tenant_id, cipher.subject_id)
    key = (model, tuple(sorted(purposes)))
    count, latest = connection.execute(version_query).one()
    snapshot = entry.snapshot
    if snapshot is None or snapshot.key != key or latest is None or snapshot.latest is None:
        snapshot = _rebuild(connection, rows_query, cipher, entry, key, count, latest)
    elif (snapshot.count, snapshot.latest) != (count, latest):
        since = snapshot.latest
        snapshot = _refresh(connection, rows_query, cipher, entry, snapshot, since, count, latest)
    entry.snapshot = snapshot
    ids, matrix = snapshot.ids, snapshot.matrix
    cache.put(cipher.tenant_id, cipher.subject_id, entry)
    if not ids:
        return []
    query = np.asarray(queries, dtype=np.float32)
    if query.shape[1] != matrix.shape[1]:
        return []
    # einsum, not ``@``: a few queries against a few thousand rows is too small a product
    # for BLAS's threads, which only wait on each other on a busy host (3 ms against 10).
    scores = np.einsum("qd,md->qm", query, matrix)
    k = min(limit, len(ids))
    best = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    return sorted({ids[i] for i in best.ravel()})


def _unseal(
    connection: Connection, cipher: SubjectCipher, entry: CachedSubject, keys: list[_Key]
) -> None:
    """Unseal the vectors of ``keys`` (listed from the subject's active globals) the cache
    lacks into ``entry.vectors``."""
    missing = [
        memory_id
        for memory_id, fingerprint in keys
        if (memory_id, fingerprint) not in entry.vectors
    ]
    for start in range(0, len(missing), _FETCH_CHUNK):
        chunk = missing[start : start + _FETCH_CHUNK]
        statement = select(
            MemoryRow.id,
            MemoryRow.subject_id,
            MemoryRow.text_fingerprint,
            MemoryRow.vector_ciphertext,
        ).where(*by_primary_key(cipher.tenant_id, chunk))
        for memory_id, subject_id, fingerprint, sealed in connection.execute(statement):
            if subject_id == cipher.subject_id and sealed is not None:
                entry.vectors[(memory_id, fingerprint)] = open_vector(sealed, cipher, memory_id)


def _rebuild(
    connection: Connection,
    rows_query: Select[Any],
    cipher: SubjectCipher,
    entry: CachedSubject,
    key: tuple[str, tuple[str, ...]],
    count: int,
    latest: datetime | None,
) -> _Snapshot:
    """The ranking matrix of the subject's most recent globals, unsealing what is new.

    One query reads the window's ids, fingerprints and sealed vectors together (a rebuild
    is mostly a cold cache, where every vector is needed): listing ids first and fetching
    the missing ones by id lists cost more than the unsealing itself."""
    # Core rows, not ORM ones: thousands of rows, the most recently updated first through
    # ix_memories_subject_recent.
    recent = (
        rows_query.with_only_columns(
            MemoryRow.id, MemoryRow.text_fingerprint, MemoryRow.vector_ciphertext
        )
        .order_by(MemoryRow.updated_at.desc())  # type: ignore[attr-defined]
        .limit(SEARCH_WINDOW)
    )
    listed: list[_Key] = []
    for memory_id, fingerprint, sealed in connection.execute(recent):
        listed.append((memory_id, fingerprint))
        if (memory_id, fingerprint) not in entry.vectors:
            entry.vectors[(memory_id, fingerprint)] = open_vector(sealed, cipher, memory_id)
    entry.vectors = {k: entry.vectors[k] for k in listed if k in entry.vectors}
    kept = [(k, v) for k, (m, v) in entry.vectors.items() if m == key[0]]
    dimensions = len(kept[0][1]) if kept else 0
    return _Snapshot(
        key=key,
        count=count,
        latest=latest,
        ids=[k[0] for k, _ in kept],
        fingerprints=[k[1] for k, _ in kept],
        matrix=np.vstack([v for _, v in kept]) if kept else np.zeros((0, dimensions)),
    )


def _refresh(
    connection: Connection,
    rows_query: Select[Any],
    cipher: SubjectCipher,
    entry: CachedSubject,
    snapshot: _Snapshot,
    since: datetime,
    count: int,
    latest: datetime | None,
) -> _Snapshot:
    """Add what was written since the snapshot (``updated_at`` at or after its latest, an
    index range), replacing a changed text's row. Rows that left the active set stay until
    the next rebuild (they are filtered when read); a rebuild comes once the matrix holds a
    quarter more rows than there are active globals or than the window."""
    changed = rows_query.with_only_columns(MemoryRow.id, MemoryRow.text_fingerprint).where(
        MemoryRow.updated_at >= since
    )
    listed: list[_Key] = [(row[0], row[1]) for row in connection.execute(changed)]
    _unseal(connection, cipher, entry, listed)
    ids, fingerprints = list(snapshot.ids), list(snapshot.fingerprints)
    position = {memory_id: i for i, memory_id in enumerate(ids)}
    rows = [snapshot.matrix] if ids else []
    replaced: dict[int, np.ndarray] = {}
    for memory_id, fingerprint in listed:
        cached = entry.vectors.get((memory_id, fingerprint))
        if cached is None or cached[0] != snapshot.key[0]:
            continue
        vector = cached[1]
        at = position.get(memory_id)
        if at is None:
            position[memory_id] = len(ids)
            ids.append(memory_id)
            fingerprints.append(fingerprint)
            rows.append(vector[np.newaxis, :])
        elif fingerprints[at] != fingerprint:
            fingerprints[at] = fingerprint
            replaced[at] = vector
    matrix = np.vstack(rows) if rows else snapshot.matrix.copy()
    for at, vector in replaced.items():
        matrix[at] = vector
    if len(ids) > 1.25 * min(max(count, 1), SEARCH_WINDOW):
        return _rebuild(connection, rows_query, cipher, entry, snapshot.key, count, latest)
    return _Snapshot(snapshot.key, count, latest, ids, fingerprints, matrix)
