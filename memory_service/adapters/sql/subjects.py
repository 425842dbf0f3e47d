"""Subjects: their data keys (inside the adapter) and their encrypted state.

A subject's row names its data key by id; the wrapped key itself lives in the key store,
another database (:mod:`memory_service.adapters.keystore`). The row outlives its erasure
as a tombstone whose key id is NULL. Such a
subject is never given a key by a lock, a session note or a turn: each of those hangs off
data the erasure removed (a late task, a request that read before the erasure committed),
so it is refused with ``NotFound``. The same subject id may start a new lifecycle, but only
through a write that starts one: opening a session, putting the state, or adding a memory
of no session. It gets a fresh random data key; the old one is destroyed in the key store, so no
ciphertext of the old lifecycle (in a backup, the WAL, a replica) opens again. A row whose
key the key store no longer has (data restored from a backup taken before an erasure)
reads as erased too. ``erased_at``
keeps the time of the last erasure.
"""

from __future__ import annotations

import functools
import json
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, bindparam, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert
from sqlmodel import col

from memory_service.adapters.crypto import Keyring, NewDataKey, SubjectCipher
from memory_service.adapters.database import begin_writing
from memory_service.adapters.sql.convert import STATE_KIND
from memory_service.adapters.sql.tenancy import require_own_tenant
from memory_service.adapters.sql.upsert import dialect_insert, insert_if_absent
from memory_service.adapters.tables import SubjectRow
from memory_service.core.errors import NotFound
from memory_service.core.model import SubjectState
from memory_service.core.ports import Clock


def _erased() -> NotFound:
    return NotFound("no such subject")


class SubjectKeys:
    """One unit of work's access to its tenant's subject keys, unwrapped once per subject."""

    def __init__(self, session: Session, tenant_id: str, keyring: Keyring) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keyring = keyring
        self._ciphers: dict[str, SubjectCipher] = {}
        # Rows read by a joined statement, kept so the session's identity map (which holds
        # rows weakly) answers ``row`` without another SELECT.
        self._held: dict[str, SubjectRow] = {}
        self._named: dict[str, str | None] = {}

    def _where(self, subject_id: str) -> tuple[ColumnElement[bool], ...]:
        return (
            col(SubjectRow.tenant_id) == self._tenant_id,
            col(SubjectRow.subject_id) == subject_id,
        )

    def hold(self, row: SubjectRow) -> None:
        self._held[row.subject_id] = row

    def row(self, subject_id: str) -> SubjectRow | None:
        return self._session.get(SubjectRow, (self._tenant_id, subject_id))

    def name_key(self, subject_id: str, key_id: str | None) -> None:
        """The key id of the subject as a plain read found it (a render's, which loads no
        ORM row): :meth:`existing` uses it instead of reading the row."""
        self._ciphers.pop(subject_id, None)
        self._named[subject_id] = key_id

    def existing(self, subject_id: str) -> SubjectCipher | None:
        """The subject's cipher; None if it never existed or was erased."""
        cipher = self._ciphers.get(subject_id)
        if cipher is None:
            if subject_id in self._named:
                key_id = self._named[subject_id]
            else:
                row = self.row(subject_id)
                key_id = None if row is None else row.data_key_id
            if key_id is None:
                return None
            cipher = self._keyring.cipher_for(self._tenant_id, subject_id, key_id)
            if cipher is None:
                return None
            self._ciphers[subject_id] = cipher
        return cipher

    def forget(self, subject_id: str) -> None:
        """Drop the unwrapped key held by this unit of work (after an erasure)."""
        self._ciphers.pop(subject_id, None)
        self._named.pop(subject_id, None)

    def lock_row(self, subject_id: str) -> SubjectRow | None:
        """Lock the subject's row until the transaction ends and read it afresh; None if absent.

        The lock comes first (on SQLite the write lock, which also ends a stale read
        snapshot), then the row is re-read over whatever this unit of work loaded before,
        and its key unwrapped again from that row.
        """
        begin_writing(self._session.connection())
        self.forget(subject_id)
        return self._session.scalars(
            select(SubjectRow)
            .where(*self._where(subject_id))
            .with_for_update()
            .execution_options(populate_existing=True)
        ).first()

    def insert_new(self, subject_id: str, at: datetime) -> None:
        """Create the subject with a fresh data key, unless a concurrent transaction did."""
        insert_if_absent(
            self._session,
            SubjectRow.__table__,  # type: ignore[attr-defined]
            {
                "tenant_id": self._tenant_id,
                "subject_id": subject_id,
                "data_key_id": self._keyring.create_key(self._tenant_id, subject_id),
                "created_at": at,
            },
        )

    def keyed(self, subject_id: str, at: datetime) -> ReturningInsert[tuple[str]]:
        """The statement that gives a new subject, or an erased one starting a new lifecycle,
        a fresh data key, returning its id; no row for a subject that holds a key already.

        ``INSERT ... ON CONFLICT DO UPDATE SET data_key_id = ... WHERE data_key_id IS NULL``:
        a concurrent creator's row is waited for, then kept (the key made here is an orphan,
        destroyed with the others at the subject's erasure). For a write that starts a new
        lifecycle only (opening a session); :meth:`ensure` does the same in more statements.
        """
        table = SubjectRow.__table__  # type: ignore[attr-defined]
        self.forget(subject_id)
        statement = dialect_insert(self._session, table).values(
            tenant_id=self._tenant_id,
            subject_id=subject_id,
            data_key_id=self._keyring.create_key(self._tenant_id, subject_id),
            created_at=at,
        )
        upsert = statement.on_conflict_do_update(
            index_elements=[table.c.tenant_id, table.c.subject_id],
            set_={"data_key_id": statement.excluded.data_key_id},
            where=table.c.data_key_id.is_(None),
        )
        return upsert.returning(table.c.subject_id)

    def keyed_unless_keyed(
        self, subject_id: str, at: datetime
    ) -> tuple[dict[str, Any], NewDataKey]:
        """The parameters of :func:`keyed_unless_keyed_statement` for this subject, and the
        key they name: made here, not stored. Store it (:meth:`store`) before the transaction
        commits, and only if the statement returned a row (it took the key); a key never
        taken costs nothing in the key store."""
        self.forget(subject_id)
        key = self._keyring.new_key(self._tenant_id, subject_id)
        params = {
            "k_tenant_id": self._tenant_id,
            "k_subject_id": subject_id,
            "k_data_key_id": key.key_id,
            "k_created_at": at,
        }
        return params, key

    def store(self, key: NewDataKey) -> None:
        """Store a key :meth:`keyed_unless_keyed` made and its statement took."""
        self._keyring.store_key(key)

    def ensure(self, subject_id: str, at: datetime, *, new_lifecycle: bool) -> SubjectRow:
        """The subject's row with a data key, created if the subject is new.

        An erased subject gets a fresh key only for a write that starts a new lifecycle
        (``new_lifecycle``); any other write to it raises ``NotFound``.
        """
        row = self.row(subject_id)
        if row is None:
            self.insert_new(subject_id, at)
            row = self.row(subject_id)
            assert row is not None  # inserted above, or by a concurrent transaction
        if row.data_key_id is None:
            if not new_lifecycle:
                raise _erased()
            self._start_new_lifecycle(subject_id)
            row = self.lock_row(subject_id)
            assert row is not None and row.data_key_id is not None
        return row

    def _start_new_lifecycle(self, subject_id: str) -> None:
        # Conditional, so two transactions starting over at once agree on one key.
        self._session.execute(
            update(SubjectRow)
            .where(*self._where(subject_id), col(SubjectRow.data_key_id).is_(None))
            .values(data_key_id=self._keyring.create_key(self._tenant_id, subject_id))
        )

    def ensure_cipher(self, subject_id: str, at: datetime, *, new_lifecycle: bool) -> SubjectCipher:
        self.ensure(subject_id, at, new_lifecycle=new_lifecycle)
        cipher = self.existing(subject_id)
        if cipher is None:  # the key store destroyed the key this row names: erased
            raise _erased()
        return cipher


@functools.cache
def keyed_unless_keyed_statement() -> ReturningInsert[tuple[str]]:
    """:meth:`SubjectKeys.keyed` for PostgreSQL, to run in the same statement as the read of
    the key (one statement opens a session, whatever the subject): the row is proposed only
    if the subject holds no key in the statement's snapshot, so a returning subject's row is
    neither written nor locked. Built once per process, every value bound (``k_`` and the
    column: :meth:`SubjectKeys.keyed_unless_keyed`); built at each call it was a third of
    opening a session's CPU (cProfile, session 7)."""
    table = SubjectRow.__table__  # type: ignore[attr-defined]
    columns = ("tenant_id", "subject_id", "data_key_id", "created_at")
    bound = {name: bindparam(f"k_{name}", type_=table.c[name].type) for name in columns}
    holds_key = (
        select(table.c.subject_id)
        .where(
            table.c.tenant_id == bound["tenant_id"],
            table.c.subject_id == bound["subject_id"],
            table.c.data_key_id.is_not(None),
        )
        .exists()
    )
    proposed = select(*bound.values()).where(~holds_key)
    statement = postgresql.insert(table).from_select(list(columns), proposed)
    upsert = statement.on_conflict_do_update(
        index_elements=[table.c.tenant_id, table.c.subject_id],
        set_={"data_key_id": statement.excluded.data_key_id},
        where=table.c.data_key_id.is_(None),
    )
    return upsert.returning(table.c.subject_id)


def subject_state(
    tenant_id: str,
    subject_id: str,
    cipher: SubjectCipher,
    sealed: bytes | None,
    updated_at: datetime | None,
) -> SubjectState | None:
    """The subject's state from its row's columns; None when it has none."""
    if sealed is None:
        return None
    assert updated_at is not None  # written together with the ciphertext
    plain = cipher.decrypt(sealed, kind=STATE_KIND, row_id=subject_id)
    return SubjectState(
        tenant_id=tenant_id, subject_id=subject_id, state=json.loads(plain), updated_at=updated_at
    )


class SqlSubjectRepository:
    def __init__(self, session: Session, tenant_id: str, keys: SubjectKeys, clock: Clock) -> None:
        self._session = session
        self._tenant_id = tenant_id
        self._keys = keys
        self._clock = clock

    def get_state(self, subject_id: str) -> SubjectState | None:
        row = self._keys.row(subject_id)
        cipher = self._keys.existing(subject_id)
        if row is None or cipher is None:
            return None
        return subject_state(
            self._tenant_id, subject_id, cipher, row.state_ciphertext, row.state_updated_at
        )

    def put_state(self, state: SubjectState) -> None:
        require_own_tenant(state.tenant_id, self._tenant_id)
        cipher = self._keys.ensure_cipher(state.subject_id, state.updated_at, new_lifecycle=True)
        row = self._keys.row(state.subject_id)
        assert row is not None  # ensured above
        row.state_ciphertext = cipher.encrypt(
            json.dumps(state.state).encode(), kind=STATE_KIND, row_id=state.subject_id
        )
        row.state_updated_at = state.updated_at
        self._session.flush()

    def lock(self, subject_id: str) -> None:
        """``SELECT ... FOR UPDATE`` (on SQLite the write lock), taken before anything is read.

        A new subject is created; an erased one raises ``NotFound`` and keeps no key.
        """
        row = self._keys.lock_row(subject_id)
        if row is None:
            self._keys.insert_new(subject_id, self._clock.now())
            row = self._keys.lock_row(subject_id)
        if row is None or self._keys.existing(subject_id) is None:
            raise _erased()

    def lock_if_present(self, subject_id: str) -> bool:
        """The lock for a subject that exists and still has its key; never creates one."""
        row = self._keys.lock_row(subject_id)
        return row is not None and self._keys.existing(subject_id) is not None
