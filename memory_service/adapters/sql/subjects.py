"""Subjects: their data keys (inside the adapter) and their encrypted state."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from memory_service.adapters.crypto import Keyring, SubjectCipher
from memory_service.adapters.sql.convert import STATE_KIND
from memory_service.adapters.sql.upsert import insert_if_absent
from memory_service.adapters.tables import SubjectRow
from memory_service.core.model import SubjectState
from memory_service.core.ports import Clock


class SubjectKeys:
    """One unit of work's access to its tenant's subject keys, unwrapped once per subject."""

    def __init__(self, session: Session, tenant_id: str, keyring: Keyring) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keyring = keyring
        self._ciphers: dict[str, SubjectCipher] = {}

    def row(self, subject_id: str) -> SubjectRow | None:
        return self._session.get(SubjectRow, (self._tenant_id, subject_id))

    def existing(self, subject_id: str) -> SubjectCipher | None:
        """The subject's cipher; None if it never existed or was erased."""
        cipher = self._ciphers.get(subject_id)
        if cipher is None:
            row = self.row(subject_id)
            if row is None or row.wrapped_data_key is None:
                return None
            cipher = self._keyring.cipher(self._tenant_id, subject_id, row.wrapped_data_key)
            self._ciphers[subject_id] = cipher
        return cipher

    def forget(self, subject_id: str) -> None:
        """Drop the unwrapped key held by this unit of work (after an erasure)."""
        self._ciphers.pop(subject_id, None)

    def ensure(self, subject_id: str, at: datetime) -> SubjectRow:
        """The subject's row, created with a fresh data key if new (or erased before)."""
        row = self.row(subject_id)
        if row is None:
            insert_if_absent(
                self._session,
                SubjectRow.__table__,  # type: ignore[arg-type]
                {
                    "tenant_id": self._tenant_id,
                    "subject_id": subject_id,
                    "wrapped_data_key": self._keyring.new_wrapped_key(self._tenant_id, subject_id),
                    "created_at": at,
                },
            )
            row = self.row(subject_id)
            assert row is not None  # inserted above, or by a concurrent transaction
        if row.wrapped_data_key is None:
            # A subject erased earlier starts over with a new key: the old one stays gone.
            row.wrapped_data_key = self._keyring.new_wrapped_key(self._tenant_id, subject_id)
            row.erased_at = None
            self._session.flush()
        return row

    def ensure_cipher(self, subject_id: str, at: datetime) -> SubjectCipher:
        self.ensure(subject_id, at)
        cipher = self.existing(subject_id)
        assert cipher is not None  # ensure() guarantees a key
        return cipher


class SqlSubjectRepository:
    def __init__(self, session: Session, tenant_id: str, keys: SubjectKeys, clock: Clock) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._clock = clock

    def get_state(self, subject_id: str) -> SubjectState | None:
        row = self._keys.row(subject_id)
        cipher = self._keys.existing(subject_id)
        if row is None or cipher is None or row.state_ciphertext is None:
            return None
        plain = cipher.decrypt(row.state_ciphertext, kind=STATE_KIND, row_id=subject_id)
        assert row.state_updated_at is not None  # written together with the ciphertext
        return SubjectState(
            tenant_id=self._tenant_id,
            subject_id=subject_id,
            state=json.loads(plain),
            updated_at=row.state_updated_at,
        )

    def put_state(self, state: SubjectState) -> None:
        if state.tenant_id != self._tenant_id:
            raise ValueError("the record belongs to another tenant than this unit of work")
        row = self._keys.ensure(state.subject_id, state.updated_at)
        cipher = self._keys.ensure_cipher(state.subject_id, state.updated_at)
        row.state_ciphertext = cipher.encrypt(
            json.dumps(state.state).encode(), kind=STATE_KIND, row_id=state.subject_id
        )
        row.state_updated_at = state.updated_at
        self._session.flush()

    def lock(self, subject_id: str) -> None:
        """``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises."""
        self._keys.ensure(subject_id, self._clock.now())
        self._session.execute(
            select(SubjectRow)
            .where(SubjectRow.tenant_id == self._tenant_id, SubjectRow.subject_id == subject_id)
            .with_for_update()
        )

    def lock_if_present(self, subject_id: str) -> bool:
        """The lock without :meth:`SubjectKeys.ensure`, so an erased subject is not re-keyed.

        ``populate_existing`` refreshes a row this session read before the lock was granted.
        """
        row = self._session.scalars(
            select(SubjectRow)
            .where(SubjectRow.tenant_id == self._tenant_id, SubjectRow.subject_id == subject_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).first()
        return row is not None and row.wrapped_data_key is not None
