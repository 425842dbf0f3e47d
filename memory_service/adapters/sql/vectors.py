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
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

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
    """A subject's unsealed vectors by (memory id, fingerprint), and the last ranking matrix
    with the version of the subject's active globals it was built for."""

    vectors: dict[_Key, _Cached] = field(default_factory=dict)
    snapshot: tuple[tuple[Any, ...], list[str], np.ndarray] | None = None


PROCESS_CACHE = VectorCache()
_FETCH_CHUNK = 500
# The search by meaning covers a subject's most recently updated active globals, so its
# cost stops growing past this many; older ones are still found by shared terms and by
# attribute (the term index), just not by meaning alone.
SEARCH_WINDOW = 2_000


def nearest_rows(
    session: Session,
    rows_query: Any,
    version_query: Any,
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
    version = (model, tuple(sorted(purposes)), tuple(connection.execute(version_query).one()))
    if entry.snapshot is not None and entry.snapshot[0] == version:
        ids, matrix = entry.snapshot[1], entry.snapshot[2]
    else:
        ids, matrix = _rebuild(connection, rows_query, cipher, entry, model)
        entry.snapshot = (version, ids, matrix)
    cache.put(cipher.tenant_id, cipher.subject_id, entry)
    if not ids:
        return []
    query = np.asarray(queries, dtype=np.float32)
    if query.shape[1] != matrix.shape[1]:
        return []
    scores = query @ matrix.T
    k = min(limit, len(ids))
    best = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    return sorted({ids[i] for i in best.ravel()})


def _rebuild(
    connection: Any, rows_query: Any, cipher: SubjectCipher, entry: CachedSubject, model: str
) -> tuple[list[str], np.ndarray]:
    """The ranking matrix of the subject's most recent globals, unsealing what is new."""
    # Core rows, not ORM ones: thousands of (id, fingerprint) pairs, the most recently
    # updated first through ix_memories_subject_recent.
    recent = (
        rows_query.with_only_columns(MemoryRow.id, MemoryRow.text_fingerprint)
        .order_by(MemoryRow.updated_at.desc())  # type: ignore[attr-defined]
        .limit(SEARCH_WINDOW)
    )
    listed: list[_Key] = [(row[0], row[1]) for row in connection.execute(recent)]
    vectors = {key: entry.vectors[key] for key in listed if key in entry.vectors}
    missing = [
        memory_id for memory_id, fingerprint in listed if (memory_id, fingerprint) not in vectors
    ]
    for start in range(0, len(missing), _FETCH_CHUNK):
        chunk = missing[start : start + _FETCH_CHUNK]
        statement = rows_query.with_only_columns(
            MemoryRow.id, MemoryRow.text_fingerprint, MemoryRow.vector_ciphertext
        ).where(MemoryRow.id.in_(chunk))  # type: ignore[attr-defined]
        for memory_id, fingerprint, sealed in connection.execute(statement):
            vectors[(memory_id, fingerprint)] = open_vector(sealed, cipher, memory_id)
    entry.vectors = vectors
    ids = [key[0] for key, (stored_model, _) in vectors.items() if stored_model == model]
    stored = [vector for stored_model, vector in vectors.values() if stored_model == model]
    if not stored:
        return [], np.zeros((0, 0), dtype=np.float32)
    return ids, np.vstack(stored)
