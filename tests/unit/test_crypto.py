"""Envelope encryption details that the store tests do not reach."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from memory_service.adapters.crypto import DecryptionError, Keyring, SubjectCipher


def _cipher(keyring: Keyring, subject: str = "subject-1") -> SubjectCipher:
    return keyring.cipher("tenant-1", subject, keyring.new_wrapped_key("tenant-1", subject))


@pytest.mark.parametrize("cut", [0, 1, 5, 13, 28])
def test_a_truncated_ciphertext_is_a_decryption_error(cut: int) -> None:
    cipher = _cipher(Keyring(os.urandom(32)))
    sealed = cipher.encrypt(b"prefers aisle seats", kind="memory", row_id="m1")
    with pytest.raises(DecryptionError):
        cipher.decrypt(sealed[:cut], kind="memory", row_id="m1")


def test_expired_keys_leave_the_cache_at_the_next_miss() -> None:
    now = [1000.0]
    keyring = Keyring(os.urandom(32), cache_seconds=60.0, monotonic=lambda: now[0])
    _cipher(keyring, "subject-erased")
    now[0] += 61.0
    _cipher(keyring, "subject-other")
    cached_subjects = {subject for _, subject, _ in keyring._cache}
    assert cached_subjects == {"subject-other"}


def test_a_cipher_found_by_key_id_is_asked_of_the_key_store_once_until_forgotten() -> None:
    keyring = Keyring(os.urandom(32))
    key_id = keyring.create_key("tenant-1", "subject-1")
    asked: list[str] = []
    lookup = keyring.store.wrapped_key

    def counted(tenant: str, subject: str, key: str) -> bytes | None:
        asked.append(key)
        return lookup(tenant, subject, key)

    keyring.store.wrapped_key = counted  # type: ignore[method-assign]
    first = keyring.cipher_for("tenant-1", "subject-1", key_id)
    assert first is not None
    assert keyring.cipher_for("tenant-1", "subject-1", key_id) is first
    assert asked == [key_id]
    # Another tenant's or subject's id is its own entry, never this cipher.
    assert keyring.cipher_for("tenant-2", "subject-1", key_id) is None
    # Erasure: the key store drops the key and the keyring forgets the subject.
    keyring.store.destroy_keys("tenant-1", "subject-1", at=datetime.now(UTC))
    keyring.forget("tenant-1", "subject-1")
    assert keyring.cipher_for("tenant-1", "subject-1", key_id) is None


def test_a_cipher_found_by_key_id_is_asked_again_once_expired() -> None:
    now = [1000.0]
    keyring = Keyring(os.urandom(32), cache_seconds=60.0, monotonic=lambda: now[0])
    key_id = keyring.create_key("tenant-1", "subject-1")
    assert keyring.cipher_for("tenant-1", "subject-1", key_id) is not None
    keyring.store.destroy_keys("tenant-1", "subject-1", at=datetime.now(UTC))
    assert keyring.cipher_for("tenant-1", "subject-1", key_id) is not None  # within 60 s
    now[0] += 61.0
    assert keyring.cipher_for("tenant-1", "subject-1", key_id) is None
