"""A short-lived, bounded, in-process cache of verified API keys in front of the key store.

Every authenticated request used to look its key up in the database: one round trip (and on
the embedded default one SQLite read) before any work. The cache keeps, per process, the
keys it has verified for ``ttl_seconds``, keyed by the key's SHA-256 (never the clear key),
at most ``max_entries`` of them (the oldest verified goes first). Unknown, malformed and
revoked keys are never cached: a made-up key costs a lookup each time, as before, and a
key created in another process works at once.

What revocation costs:

- revoked through this process (``revoke`` here: the admin API, the console, the CLI's own
  container), the key's entries are dropped at once: its next request is a 401;
- revoked through another process (``memory-service keys revoke`` on the command line,
  another server worker or replica), this process keeps accepting the key until its entry
  expires: at most ``ttl_seconds`` (``MEMORY_SERVICE_KEY_CACHE_SECONDS``, default 5; 0
  turns the cache off). Say so to operators: a revocation is effective everywhere within
  that many seconds.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from memory_service.adapters.sql.keys import hash_key
from memory_service.core.model import ApiKey, Role
from memory_service.core.ports import KeyStore


class CachedKeyStore:
    """A :class:`KeyStore` whose ``authenticate`` answers verified keys from memory."""

    def __init__(
        self,
        inner: KeyStore,
        *,
        ttl_seconds: float,
        max_entries: int = 10_000,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = inner
        self._ttl = ttl_seconds
        self._max = max_entries
        self._now = now
        self._entries: OrderedDict[str, tuple[ApiKey, float]] = OrderedDict()
        self._lock = threading.Lock()
        # Bumped by every revoke: a lookup that began before one never caches its answer.
        self._revocations = 0

    def cached(self, clear_key: str) -> ApiKey | None:
        """The key if this process verified it less than ``ttl_seconds`` ago; no I/O."""
        digest = hash_key(clear_key)
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                return None
            key, expires = entry
            if self._now() >= expires:
                del self._entries[digest]
                return None
            return key

    def authenticate(self, clear_key: str) -> ApiKey | None:
        if not isinstance(clear_key, str):
            return None
        key = self.cached(clear_key)
        if key is not None:
            return key
        revocations = self._revocations
        key = self._inner.authenticate(clear_key)
        if key is not None and self._ttl > 0:
            with self._lock:
                if revocations != self._revocations:
                    return key  # answered before a revoke may have committed: not kept
                self._entries[hash_key(clear_key)] = (key, self._now() + self._ttl)
                while len(self._entries) > self._max:
                    self._entries.popitem(last=False)
        return key

    def revoke(self, tenant_id: str, key_id: str) -> bool:
        revoked = self._inner.revoke(tenant_id, key_id)
        with self._lock:
            self._revocations += 1
            for digest in [d for d, (key, _) in self._entries.items() if key.id == key_id]:
                del self._entries[digest]
        return revoked

    def create(self, tenant_id: str, role: Role) -> tuple[ApiKey, str]:
        return self._inner.create(tenant_id, role)

    def active(self, tenant_id: str, key_id: str) -> ApiKey | None:
        return self._inner.active(tenant_id, key_id)
