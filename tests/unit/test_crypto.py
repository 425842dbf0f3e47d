"""Envelope encryption details that the store tests do not reach."""

from __future__ import annotations

import os

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
