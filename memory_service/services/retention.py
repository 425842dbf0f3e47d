"""The nightly purge: memories past their retention and the grace period leave the store.

Expiry (status ``expired``, no longer injected) is the consolidation sweep's job; this purge
runs after it and removes the rows, text and all, in bounded batches so one run never
holds a long transaction. The audit history keeps a ``memory.purged`` event per memory.
"""

from __future__ import annotations

import logging

from memory_service.core.ports import Clock, RetentionStore
from memory_service.core.progress import SILENT, Progress
from memory_service.core.retention import RetentionPolicy

log = logging.getLogger("memory_service.retention")

PURGE_ACTOR = "system:retention"
PURGE_BATCH_SIZE = 1000


def purge_expired_memories(
    *,
    store: RetentionStore,
    policy: RetentionPolicy,
    clock: Clock,
    batch_size: int = PURGE_BATCH_SIZE,
    progress: Progress = SILENT,
) -> int:
    """Purge every memory expired for longer than the grace period; returns how many."""
    now = clock.now()
    cutoff = policy.purge_cutoff(now)
    total = 0
    while True:
        purged = store.purge_expired(cutoff, limit=batch_size, at=now, actor=PURGE_ACTOR)
        total += purged
        progress.advance(purged)
        if purged < batch_size:
            break
    log.info("purged %d memories past retention and grace", total)
    return total
