"""The in-process cache of verified API keys: what it keeps, for how long, and revocation."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_service.adapters.key_cache import CachedKeyStore
from memory_service.core.model import ApiKey, Role


class CountingKeys:
    """A key store with one active key per clear key; counts the lookups that reach it."""

    def __init__(self) -> None:
        self.keys: dict[str, ApiKey] = {}
        self.lookups = 0
        self.during_lookup: list[object] = []

    def add(self, clear_key: str, key_id: str) -> ApiKey:
        key = ApiKey(
            id=key_id,
            tenant_id="t-a",
            role=Role.AGENT,
            created_at=datetime(2026, 1, 1, tzinfo=UTC),
        )
        self.keys[clear_key] = key
        return key

    def create(self, tenant_id: str, role: Role) -> tuple[ApiKey, str]:
        raise NotImplementedError

    def authenticate(self, clear_key: str) -> ApiKey | None:
        self.lookups += 1
        key = self.keys.get(clear_key)
        for action in self.during_lookup:
            assert callable(action)
            action()
        return key

    def revoke(self, tenant_id: str, key_id: str) -> bool:
        gone = [clear for clear, key in self.keys.items() if key.id == key_id]
        for clear in gone:
            del self.keys[clear]
        return bool(gone)

    def active(self, tenant_id: str, key_id: str) -> ApiKey | None:
        return next((k for k in self.keys.values() if k.id == key_id), None)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def cached_store(
    ttl: float = 5.0, max_entries: int = 100
) -> tuple[CachedKeyStore, CountingKeys, Clock]:
    inner, clock = CountingKeys(), Clock()
    return CachedKeyStore(inner, ttl_seconds=ttl, max_entries=max_entries, now=clock), inner, clock


def test_a_verified_key_is_answered_from_memory_until_it_expires() -> None:
    store, inner, clock = cached_store(ttl=5)
    key = inner.add("msk_one", "k1")

    assert store.authenticate("msk_one") == key
    assert store.authenticate("msk_one") == key
    assert store.cached("msk_one") == key
    assert inner.lookups == 1

    clock.now += 5
    assert store.cached("msk_one") is None
    assert store.authenticate("msk_one") == key
    assert inner.lookups == 2


def test_unknown_keys_are_never_cached() -> None:
    store, inner, _ = cached_store()
    assert store.authenticate("msk_made_up") is None
    assert store.authenticate("msk_made_up") is None
    assert inner.lookups == 2
    # A key created after a failed attempt works at once.
    key = inner.add("msk_made_up", "k2")
    assert store.authenticate("msk_made_up") == key


def test_revoking_through_this_process_drops_the_key_at_once() -> None:
    store, inner, _ = cached_store(ttl=300)
    inner.add("msk_one", "k1")
    kept = inner.add("msk_two", "k2")
    store.authenticate("msk_one")
    store.authenticate("msk_two")

    assert store.revoke("t-a", "k1") is True
    assert store.authenticate("msk_one") is None
    assert store.cached("msk_two") == kept


def test_a_key_revoked_by_another_process_is_accepted_until_its_entry_expires() -> None:
    store, inner, clock = cached_store(ttl=5)
    key = inner.add("msk_one", "k1")
    store.authenticate("msk_one")

    inner.revoke("t-a", "k1")  # another process: this one is not told
    assert store.authenticate("msk_one") == key  # the documented cost of the cache
    clock.now += 5
    assert store.authenticate("msk_one") is None


def test_a_lookup_that_overlaps_a_revoke_is_not_kept() -> None:
    store, inner, _ = cached_store(ttl=300)
    key = inner.add("msk_one", "k1")
    # The revoke commits while the lookup is on its way back with the key still active.
    inner.during_lookup.append(lambda: store.revoke("t-a", "k1"))

    assert store.authenticate("msk_one") == key
    inner.during_lookup.clear()
    assert store.cached("msk_one") is None
    assert store.authenticate("msk_one") is None


def test_the_cache_is_bounded_and_off_at_zero_seconds() -> None:
    store, inner, _ = cached_store(max_entries=2)
    for index in range(3):
        inner.add(f"msk_{index}", f"k{index}")
        store.authenticate(f"msk_{index}")
    assert store.cached("msk_0") is None
    assert store.cached("msk_1") is not None and store.cached("msk_2") is not None

    off, inner_off, _ = cached_store(ttl=0)
    inner_off.add("msk_one", "k1")
    off.authenticate("msk_one")
    off.authenticate("msk_one")
    assert inner_off.lookups == 2 and off.cached("msk_one") is None
