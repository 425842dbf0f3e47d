"""A bounded, time-limited LRU of a subject's values, kept in this process.

One shape for the caches that hold something of a subject in memory (the keyring's unwrapped
ciphers, the rendered contexts): keys begin with the tenant and the subject, so an erasure
can drop everything of one subject at once (:meth:`TimedLru.forget`); an entry lives
``seconds`` at most and is dropped when read stale or by a sweep of the expired ones (at most
every tenth of their lifetime), so nothing of an erased subject lingers until the cache
happens to fill up; past ``size`` entries the least recently used go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=tuple[object, ...])
V = TypeVar("V")


class TimedLru(Generic[K, V]):
    def __init__(self, size: int, seconds: float, monotonic: Callable[[], float]) -> None:
        self._size = size
        self._seconds = seconds
        self._monotonic = monotonic
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()
        self._next_sweep = 0.0

    def get(self, key: K) -> V | None:
        now = self._monotonic()
        with self._lock:
            kept = self._entries.get(key)
            if kept is None:
                return None
            if kept[0] <= now:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return kept[1]

    def put(self, key: K, value: V) -> None:
        if self._size <= 0:
            return
        now = self._monotonic()
        with self._lock:
            if now >= self._next_sweep:
                for stale in [k for k, (expires, _) in self._entries.items() if expires <= now]:
                    del self._entries[stale]
                self._next_sweep = now + self._seconds / 10
            self._entries[key] = (now + self._seconds, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def drop(self, key: K) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def forget(self, tenant_id: str, subject_id: str) -> None:
        """Drop every entry of one subject (keys begin with its tenant and its id)."""
        with self._lock:
            for key in [k for k in self._entries if k[:2] == (tenant_id, subject_id)]:
                del self._entries[key]

    def __iter__(self) -> Iterator[K]:
        """The keys held now (a snapshot)."""
        with self._lock:
            return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)
