"""The manifest queue: batches after the response, back-pressure when full, nothing lost on
a failed write or at a graceful stop."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from memory_service.adapters.manifest_queue import ManifestQueue
from memory_service.core.manifests import StoredManifest

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def manifest(number: int) -> StoredManifest:
    return StoredManifest(f"m-{number}", "t-1", "subject-1", None, NOW, NOW + timedelta(1), {})


class Store:
    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.failing = False

    def write(self, manifests: Sequence[StoredManifest]) -> None:
        if self.failing:
            raise ConnectionError("database down")
        self.batches.append([m.id for m in manifests])


def test_manifests_are_written_in_order_in_batches() -> None:
    store = Store()
    queue = ManifestQueue(store.write, interval=3600, batch=2)
    for number in range(5):
        queue.record(manifest(number))
    queue.close()
    assert [m for batch in store.batches for m in batch] == [f"m-{n}" for n in range(5)]
    assert all(len(batch) <= 2 for batch in store.batches)


def test_a_failed_write_keeps_the_batch_queued_in_order() -> None:
    store = Store()
    queue = ManifestQueue(store.write, interval=3600)
    queue.record(manifest(1))
    store.failing = True
    with pytest.raises(ConnectionError):
        queue.flush()
    queue.record(manifest(2))
    store.failing = False
    queue.flush()
    assert store.batches == [["m-1", "m-2"]]
    queue.close()


def test_a_full_queue_makes_the_render_write_its_own_manifest() -> None:
    store = Store()
    queue = ManifestQueue(store.write, interval=3600, capacity=1)
    queue.record(manifest(1))
    queue.record(manifest(2))  # no room: written at once
    assert store.batches == [["m-2"]] and len(queue) == 1
    store.failing = True
    with pytest.raises(ConnectionError):  # and the render fails when that write fails
        queue.record(manifest(3))
    store.failing = False
    queue.close()
    assert store.batches == [["m-2"], ["m-1"]]


def test_after_close_a_manifest_is_written_at_once() -> None:
    store = Store()
    queue = ManifestQueue(store.write)
    queue.close()
    queue.record(manifest(1))
    assert store.batches == [["m-1"]]


def test_the_thread_writes_without_being_asked() -> None:
    store = Store()
    queue = ManifestQueue(store.write, interval=0.01)
    queue.record(manifest(1))
    deadline = datetime.now(UTC) + timedelta(seconds=10)
    while not store.batches and datetime.now(UTC) < deadline:
        pass
    assert store.batches == [["m-1"]]
    queue.close()
