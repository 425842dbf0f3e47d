"""Rendered contexts kept in this process, by what they were rendered from.

A render still reads what it always read (its two statements); when the reads' fingerprint
(a digest of every stored value they returned: ciphertexts, times, statuses, ids, the
subject's key id and state, the session and its trim marks) is the one a render of the same
request had, its text and manifest are reused instead of decrypting, converting, dumping the
state's YAML, ranking, packing and counting again. Any write a render would see changes a
value it reads (a new or re-sealed ciphertext has a fresh nonce; a status, time or key id
changes), so it changes the fingerprint: nothing stale is served, whatever wrote it, in this
process or another. An expired memory drops out of the read itself.

The entries hold rendered text, which is plaintext memory: the cache is bounded in entries
(least recently used go first) and in time (``seconds``), and an entry is keyed by tenant,
subject and request, so it is only ever looked up by the request that made it. An erased
subject's entry can no longer match (its rows and key are gone); an erasure made in this
process drops it at once (:meth:`forget`, called by the keyring's ``forget``), one made by
another process leaves it at its next miss, or at the latest after ``seconds``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from memory_service.adapters.timed_cache import TimedLru

# Entries and lifetime: a few thousand subjects' contexts (a few KB each) for one minute.
ENTRIES = 2048
SECONDS = 60.0


class InProcessRenderCache:
    def __init__(
        self,
        entries: int = ENTRIES,
        seconds: float = SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._kept: TimedLru[tuple[object, ...], tuple[bytes, str, dict[str, Any]]] = TimedLru(
            entries, seconds, monotonic
        )

    def get(self, key: tuple[object, ...], reads: bytes) -> tuple[str, dict[str, Any]] | None:
        kept = self._kept.get(key)
        if kept is None:
            return None
        fingerprint, text, manifest = kept
        if fingerprint != reads:
            self._kept.drop(key)  # stale: dropped now, not only when the cache fills
            return None
        return text, manifest

    def put(
        self, key: tuple[object, ...], reads: bytes, text: str, manifest: dict[str, Any]
    ) -> None:
        self._kept.put(key, (reads, text, manifest))

    def forget(self, tenant_id: str, subject_id: str) -> None:
        """Drop every entry of a subject (its erasure): no rendered text of it stays here."""
        self._kept.forget(tenant_id, subject_id)

    def __len__(self) -> int:
        return len(self._kept)
