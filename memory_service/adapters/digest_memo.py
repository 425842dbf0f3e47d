"""A bounded memo keyed by a keyed digest of a text, so no text stays in memory.

A cache keyed by the text itself would keep every note's values (identifiers, words) in the
process after the note was refused or erased. The key here is the process's own random
secret: the digests cannot be matched against guessed texts, and they die with the process.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class DigestMemo(Generic[T]):
    """``memo(text, compute)``: the value computed for ``text`` before, or ``compute(text)``
    now; the oldest entries go first past ``size``."""

    def __init__(self, size: int) -> None:
        self._key = secrets.token_bytes(32)
        self._values: dict[bytes, T] = {}
        self._size = size
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def digests(self) -> list[bytes]:
        """What is held as keys (for tests: 16-byte digests, never a text)."""
        return list(self._values)

    def __call__(self, text: str, compute: Callable[[str], T]) -> T:
        digest = hashlib.blake2b(text.encode(), digest_size=16, key=self._key).digest()
        if digest in self._values:
            return self._values[digest]
        value = compute(text)
        with self._lock:
            self._values[digest] = value
            if len(self._values) > self._size:
                del self._values[next(iter(self._values))]
        return value
