"""The process cache of unsealed vectors: bounded, expiring, never serving a stale text."""

from __future__ import annotations

import numpy as np

from memory_service.adapters.sql.vectors import CachedSubject, VectorCache


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _vector() -> tuple[str, np.ndarray]:
    return ("model", np.zeros(4, dtype=np.float32))


def test_a_subject_gets_back_what_it_put() -> None:
    cache = VectorCache()
    cache.put("t", "s", CachedSubject({("m1", "fp1"): _vector()}))

    assert set(cache.take("t", "s").vectors) == {("m1", "fp1")}
    assert cache.take("t", "other").vectors == {}


def test_entries_expire_after_the_ttl() -> None:
    ticks = Ticks()
    cache = VectorCache(ttl_seconds=60, clock=ticks)
    cache.put("t", "s", CachedSubject({("m1", "fp1"): _vector()}))
    ticks.now = 61

    assert cache.take("t", "s").vectors == {}


def test_the_least_recently_searched_subjects_leave_first_past_the_capacity() -> None:
    cache = VectorCache(capacity=3)
    cache.put("t", "old", CachedSubject({("a", "1"): _vector(), ("b", "1"): _vector()}))
    cache.put("t", "new", CachedSubject({("c", "1"): _vector(), ("d", "1"): _vector()}))

    assert cache.take("t", "old").vectors == {}
    assert len(cache.take("t", "new").vectors) == 2
