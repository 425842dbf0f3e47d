"""Envelope encryption at rest: one data key per (tenant, subject), wrapped by the master key.

Every ciphertext is AES-GCM with associated data naming its tenant, subject and row
(kind and id), so a ciphertext copied into another row, subject or tenant fails to
decrypt. Exact duplicates are found through a keyed fingerprint whose key derives from
the subject's data key: it reveals no text, and once the wrapped data key is destroyed
(erasure) neither the ciphertexts nor the fingerprints mean anything, backups included.
Consolidation candidates are found the same way, through keyed hashes of single terms
under a key of their own (:meth:`SubjectCipher.term_hash`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from memory_service.adapters.keystore import CANARY_SUBJECT, CANARY_TENANT, MemoryDataKeyStore
from memory_service.adapters.timed_cache import TimedLru
from memory_service.config import ConfigurationError
from memory_service.core.errors import MemoryServiceError
from memory_service.core.ports import DataKeyStore
from memory_service.core.text import normalize_text

KEY_BYTES = 32
_NONCE_BYTES = 12
_TAG_BYTES = 16
_FORMAT_VERSION = b"\x01"
_FINGERPRINT_LABEL = b"memory-service/fingerprint/v1"
_TERM_LABEL = b"memory-service/term/v1"
# 128 bits: a collision between two terms of one subject only offers one more candidate.
TERM_HASH_CHARS = 32


class DecryptionError(MemoryServiceError):
    """A ciphertext does not open with its subject's key: tampered, swapped or foreign."""

    code = "internal"


def _wrong_master_key() -> ConfigurationError:
    return ConfigurationError(
        "MEMORY_SERVICE_MASTER_KEY does not open this key store's data keys: "
        "start with the master key the data was sealed with"
    )


def _associated_data(*parts: str) -> bytes:
    # JSON keeps the parts unambiguous whatever characters ids contain.
    return json.dumps(parts, separators=(",", ":")).encode()


def _seal(aead: AESGCM, plaintext: bytes, associated: bytes) -> bytes:
    nonce = os.urandom(_NONCE_BYTES)
    return _FORMAT_VERSION + nonce + aead.encrypt(nonce, plaintext, associated)


def _open(aead: AESGCM, sealed: bytes, associated: bytes) -> bytes:
    if sealed[:1] != _FORMAT_VERSION or len(sealed) < 1 + _NONCE_BYTES + _TAG_BYTES:
        raise DecryptionError("unknown or truncated ciphertext")
    nonce = sealed[1 : 1 + _NONCE_BYTES]
    try:
        return aead.decrypt(nonce, sealed[1 + _NONCE_BYTES :], associated)
    except InvalidTag as exc:
        raise DecryptionError("a stored ciphertext failed authentication") from exc


class SubjectCipher:
    """Encrypts and fingerprints one subject's data with its (unwrapped) data key."""

    def __init__(self, tenant_id: str, subject_id: str, data_key: bytes) -> None:
        self.tenant_id = tenant_id
        self.subject_id = subject_id
        self._aead = AESGCM(data_key)
        self._fingerprint_key = hmac.new(data_key, _FINGERPRINT_LABEL, hashlib.sha256).digest()
        self._term_key = hmac.new(data_key, _TERM_LABEL, hashlib.sha256).digest()

    def _bound(self, kind: str, row_id: str) -> bytes:
        return _associated_data(self.tenant_id, self.subject_id, kind, row_id)

    def encrypt(self, plaintext: bytes, *, kind: str, row_id: str) -> bytes:
        return _seal(self._aead, plaintext, self._bound(kind, row_id))

    def decrypt(self, sealed: bytes, *, kind: str, row_id: str) -> bytes:
        return _open(self._aead, sealed, self._bound(kind, row_id))

    def fingerprint(self, text: str) -> str:
        """Keyed hash of the normalised text: same fact, same value; meaningless without the key."""
        normalized = normalize_text(text).encode()
        return hmac.new(self._fingerprint_key, normalized, hashlib.sha256).hexdigest()

    def term_hash(self, term: str) -> str:
        """Keyed hash of one candidate term: equal terms of this subject hash alike.

        A key apart from the fingerprint's, so a term hash never equals a text fingerprint
        even for a one-word text. Another subject's hash of the same term differs.
        """
        digest = hmac.new(self._term_key, term.encode(), hashlib.sha256).hexdigest()
        return digest[:TERM_HASH_CHARS]


@dataclass(frozen=True, slots=True)
class NewDataKey:
    """A data key made for a subject but not yet in the key store (:meth:`Keyring.new_key`)."""

    tenant_id: str
    subject_id: str
    key_id: str
    wrapped: bytes


class Keyring:
    """The master key and the key store it guards: creates, finds and unwraps subjects'
    data keys; keeps recently unwrapped ones briefly.

    The wrapped keys live in the key store (:mod:`memory_service.adapters.keystore`), never
    in the memory database, which holds only each subject's key id. Without a store given,
    keys are kept in this process (tests and benchmarks). Unwrapped keys are cached for
    ``cache_seconds`` by the wrapped key itself (:meth:`cipher`) and by the key id the memory
    database names (:meth:`cipher_for`), so a render or a save of a subject seen in the last
    ``cache_seconds`` sends nothing to the key store (it cost a round trip to that database
    per request). A subject whose key was replaced has a new key id, and an erased one has
    none in the memory database (the erasure empties it in the transaction that deletes the
    rows), so neither is served a stale cipher; the one case a cache by id cannot see is data
    restored from a backup taken before an erasure, whose rows still name the destroyed key:
    a process that used that key in the last ``cache_seconds`` (300 s) would still open them.
    Restore with the API and workers stopped, or restart them after the restore, before
    ``keys replay-erasures`` (README "Backups and erasure").
    """

    def __init__(
        self,
        master_key: bytes,
        store: DataKeyStore | None = None,
        *,
        cache_size: int = 4096,
        cache_seconds: float = 300.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(master_key) != KEY_BYTES:
            raise ValueError(f"the master key must be {KEY_BYTES} bytes")
        self._master = AESGCM(master_key)
        self.store: DataKeyStore = store if store is not None else MemoryDataKeyStore()
        self._cache: TimedLru[tuple[str, str, bytes], SubjectCipher] = TimedLru(
            cache_size, cache_seconds, monotonic
        )
        self._by_id: TimedLru[tuple[str, str, str], SubjectCipher] = TimedLru(
            cache_size, cache_seconds, monotonic
        )
        self._forget_listeners: list[Callable[[str, str], None]] = []

    def on_forget(self, listener: Callable[[str, str], None]) -> None:
        """Call ``listener(tenant_id, subject_id)`` whenever a subject's keys are forgotten
        (its erasure): other caches of this process holding its plaintext drop it too."""
        self._forget_listeners.append(listener)

    def new_wrapped_key(self, tenant_id: str, subject_id: str) -> bytes:
        return self._wrap(tenant_id, subject_id, AESGCM.generate_key(bit_length=KEY_BYTES * 8))

    def _wrap(self, tenant_id: str, subject_id: str, data_key: bytes) -> bytes:
        return _seal(self._master, data_key, _associated_data(tenant_id, subject_id, "data-key"))

    def _unwrap(self, tenant_id: str, subject_id: str, wrapped_key: bytes) -> bytes:
        return _open(self._master, wrapped_key, _associated_data(tenant_id, subject_id, "data-key"))

    def create_key(self, tenant_id: str, subject_id: str) -> str:
        """A fresh data key for the subject, stored (committed) in the key store; its id.

        The id is what the memory database keeps. A key whose id never gets committed
        there (a rolled-back transaction, a lost race) is an orphan the subject's erasure
        destroys with the others.
        """
        key = self.new_key(tenant_id, subject_id)
        self.store_key(key)
        return key.key_id

    def new_key(self, tenant_id: str, subject_id: str) -> NewDataKey:
        """A fresh data key, wrapped, not stored yet: :meth:`store_key` stores it, and must
        commit before any memory database row naming its id does."""
        wrapped = self.new_wrapped_key(tenant_id, subject_id)
        return NewDataKey(tenant_id, subject_id, secrets.token_hex(16), wrapped)

    def store_key(self, key: NewDataKey) -> None:
        self.store.add_key(key.tenant_id, key.subject_id, key.key_id, key.wrapped)

    def cipher_for(self, tenant_id: str, subject_id: str, key_id: str) -> SubjectCipher | None:
        """The subject's cipher; None once the key store has destroyed that key (asked of the
        key store unless the key was unwrapped by its id in the last ``cache_seconds``)."""
        by_id = (tenant_id, subject_id, key_id)
        cipher = self._by_id.get(by_id)
        if cipher is None:
            wrapped = self.store.wrapped_key(tenant_id, subject_id, key_id)
            if wrapped is None:
                return None
            cipher = self.cipher(tenant_id, subject_id, wrapped)
            self._by_id.put(by_id, cipher)
        return cipher

    def check_master_key(self) -> None:
        """Raise ConfigurationError unless this master key opens the key store's keys.

        The first process seals a canary with its master key; every process after it (and
        ``/healthz``) opens it. A store that already holds keys but no canary (from before
        the canary) is checked against one of its keys before the canary is sealed.
        """
        canary = self.store.canary()
        if canary is None:
            existing = self.store.any_key()
            if existing is not None and not self._opens(*existing):
                raise _wrong_master_key()
            canary = self.store.set_canary_if_absent(
                self.new_wrapped_key(CANARY_TENANT, CANARY_SUBJECT)
            )
        if not self._opens(CANARY_TENANT, CANARY_SUBJECT, canary):
            raise _wrong_master_key()

    def opens_store(self) -> bool:
        """The health check's question: does the master key open the canary?"""
        canary = self.store.canary()
        return canary is not None and self._opens(CANARY_TENANT, CANARY_SUBJECT, canary)

    def _opens(self, tenant_id: str, subject_id: str, wrapped_key: bytes) -> bool:
        try:
            self._unwrap(tenant_id, subject_id, wrapped_key)
        except DecryptionError:
            return False
        return True

    def rewrap_all(self, new: Keyring) -> int:
        """Re-wrap every data key of the store (and the canary) under ``new``'s master key,
        in one key-store transaction; the data is not touched. Returns how many keys."""
        return self.store.rewrap_all(
            lambda tenant, subject, wrapped: new._wrap(
                tenant, subject, self._unwrap(tenant, subject, wrapped)
            )
        )

    def cipher(self, tenant_id: str, subject_id: str, wrapped_key: bytes) -> SubjectCipher:
        cache_key = (tenant_id, subject_id, wrapped_key)
        cipher = self._cache.get(cache_key)
        if cipher is None:
            data_key = self._unwrap(tenant_id, subject_id, wrapped_key)
            cipher = SubjectCipher(tenant_id, subject_id, data_key)
            self._cache.put(cache_key, cipher)
        return cipher

    def forget(self, tenant_id: str, subject_id: str) -> None:
        """Drop a subject's cached keys, e.g. right after its erasure."""
        self._cache.forget(tenant_id, subject_id)
        self._by_id.forget(tenant_id, subject_id)
        for listener in self._forget_listeners:
            listener(tenant_id, subject_id)
