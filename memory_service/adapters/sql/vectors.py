"""Sealed memory vectors and the per-subject nearest-neighbour search over them.

A vector is stored as the embedding model's name and its float16 values, sealed with the
subject's data key (AES-GCM, bound to the row id and the ``vector`` kind), so erasure makes
it noise with the text. A search reads the subject's sealed vectors (one column of its
active globals, through ``ix_memories_subject_recent``), unseals them, and ranks them with
one matrix product: a subject holds hundreds to thousands of memories, which fit in memory
comfortably (10,000 x 256 float32 is 10 MB). Vectors of another model are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def nearest_rows(
    session: Session,
    rows_query: Any,
    cipher: SubjectCipher,
    *,
    model: str,
    queries: Sequence[Sequence[float]],
    limit: int,
) -> list[str]:
    """Ids of the ``limit`` nearest stored vectors to each query; their union."""
    statement = rows_query.with_only_columns(MemoryRow.id, MemoryRow.vector_ciphertext)
    ids: list[str] = []
    stored: list[np.ndarray] = []
    for memory_id, sealed in session.execute(statement):
        stored_model, vector = open_vector(sealed, cipher, memory_id)
        if stored_model == model:
            ids.append(memory_id)
            stored.append(vector)
    if not stored:
        return []
    matrix = np.vstack(stored)
    query = np.asarray(queries, dtype=np.float32)
    if query.shape[1] != matrix.shape[1]:
        return []
    scores = query @ matrix.T
    k = min(limit, len(ids))
    best = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    return sorted({ids[i] for i in best.ravel()})
