"""Renders' manifests, written after the response in batches: the render stays read only.

A render hands its manifest to a bounded in-process queue and answers; a daemon thread
writes what the queue holds every ``interval`` seconds (or as soon as a batch is full) in one
transaction on the primary (:func:`memory_service.adapters.sql.manifests.write_manifests`).
The same queue serves the embedded default and a PostgreSQL deployment: the batch needs no
broker, and a manifest (ids and counts) never sits in a task payload.

The audit guarantee: a manifest is in the store at most ``interval`` seconds (plus one
batch's write) after its render answered. A graceful stop (``close``, also run at interpreter
exit: SIGTERM under uvicorn, Ctrl-C) writes what is queued. If the process dies without
that (SIGKILL, a crash, the machine), the manifests of the renders of the last ``interval``
seconds are lost: their renders answered, their records are not kept. While the database
cannot be written, batches are retried and stay queued; once the queue is full a render
writes its own manifest, and fails as it did before the queue when that write fails: no
render goes unrecorded beyond what the queue holds.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Sequence

from memory_service.core.manifests import StoredManifest

log = logging.getLogger(__name__)

DEFAULT_INTERVAL_SECONDS = 1.0
DEFAULT_CAPACITY = 10_000
DEFAULT_BATCH = 500

WriteBatch = Callable[[Sequence[StoredManifest]], object]


class ManifestQueue:
    """Bounded queue of manifests and the thread that writes them; ``record`` never blocks
    on the database unless the queue is full."""

    def __init__(
        self,
        write: WriteBatch,
        *,
        interval: float = DEFAULT_INTERVAL_SECONDS,
        capacity: int = DEFAULT_CAPACITY,
        batch: int = DEFAULT_BATCH,
    ) -> None:
        self._write = write
        self._interval = interval
        self._capacity = capacity
        self._batch = batch
        self._pending: deque[StoredManifest] = deque()
        self._lock = threading.Lock()  # guards _pending
        self._writing = threading.Lock()  # one batch at a time, in queue order
        self._wake = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._thread_pid = 0  # a forked child (a Celery or server worker) starts its own
        atexit.register(self.close)

    def record(self, manifest: StoredManifest) -> None:
        due = False
        with self._lock:
            full = self._closed or len(self._pending) >= self._capacity
            if not full:
                self._pending.append(manifest)
                due = len(self._pending) >= self._batch
        if full:
            # Back-pressure (or a stopped queue): raises if the store cannot take it.
            self._write([manifest])
            return
        self._start()
        if due:
            self._wake.set()

    def flush(self) -> None:
        """Write everything queued now, in the caller's thread; raises if a write fails
        (the batch stays queued)."""
        with self._writing:
            while batch := self._take():
                try:
                    self._write(batch)
                except BaseException:
                    self._put_back(batch)
                    raise

    def close(self) -> None:
        """Stop the thread and write what is left; idempotent."""
        self._closed = True
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        try:
            self.flush()
        except Exception as exc:
            with self._lock:
                lost = len(self._pending)
            log.error("%d context manifests not written at shutdown (%s)", lost, type(exc).__name__)

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)

    def _start(self) -> None:
        if self._thread_pid != os.getpid():
            with self._lock:
                if self._thread_pid != os.getpid() and not self._closed:
                    self._thread = threading.Thread(
                        target=self._run, name="manifest-writer", daemon=True
                    )
                    self._thread.start()
                    self._thread_pid = os.getpid()

    def _run(self) -> None:
        while not self._closed:
            self._wake.wait(self._interval)
            self._wake.clear()
            try:
                self.flush()
            except Exception as exc:  # retried at the next interval
                log.warning("context manifests not written yet (%s); retrying", type(exc).__name__)

    def _take(self) -> list[StoredManifest]:
        with self._lock:
            count = min(self._batch, len(self._pending))
            return [self._pending.popleft() for _ in range(count)]

    def _put_back(self, batch: list[StoredManifest]) -> None:
        with self._lock:
            self._pending.extendleft(reversed(batch))
