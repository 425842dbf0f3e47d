"""The key store: subjects' wrapped data keys and erasure receipts, in a database of their own.

On the embedded default it is ``keys.db`` beside ``memory.db`` (never inside it); in
production a separate PostgreSQL database (``KEYSTORE_URL``) with its own, shorter, backup
schedule. The schema is three small tables this adapter creates itself (the memory
database's migrations never see them).

Destroying a subject's keys commits at once, before the data is deleted: from then on no
copy of the subject's ciphertexts (a backup of the data, the WAL, a replica) opens. The
freed bytes are then scrubbed from the live files: on SQLite ``secure_delete`` zeroes them
and a ``TRUNCATE`` checkpoint empties the WAL; on PostgreSQL ``VACUUM FULL`` rewrites the
key table (small: one row per subject), since a plain ``VACUUM`` may leave a deleted
tuple's bytes in a page's free space. What stays out of reach is the key store's own
backups and WAL archive: keep them for less than the erasure deadline you promise.

:class:`MemoryDataKeyStore` keeps the same in a process (tests and benchmarks).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy import Engine

from memory_service.adapters.database import (
    create_engine_for,
    normalize_database_url,
    scrub_sqlite_wal,
)
from memory_service.config import ConfigurationError
from memory_service.core.ports import KeyErasure

# The canary is a data key of a subject no tenant can have (tenant ids are never empty).
CANARY_TENANT = ""
CANARY_SUBJECT = "canary"

_metadata = sa.MetaData()
_data_keys = sa.Table(
    "data_keys",
    _metadata,
    sa.Column("tenant_id", sa.String(64), primary_key=True),
    sa.Column("subject_id", sa.String(128), primary_key=True),
    sa.Column("key_id", sa.String(32), primary_key=True),
    sa.Column("wrapped_key", sa.LargeBinary, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
_erasures = sa.Table(
    "erasures",
    _metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tenant_id", sa.String(64), nullable=False),
    sa.Column("subject_id", sa.String(128), nullable=False),
    sa.Column("erased_at", sa.DateTime(timezone=True), nullable=False),
)
_canary = sa.Table(
    "canary",
    _metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("wrapped_key", sa.LargeBinary, nullable=False),
)


def _now() -> datetime:
    return datetime.now(UTC)


class SqlDataKeyStore:
    """The key store on its own SQLite file or PostgreSQL database."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        try:
            _metadata.create_all(engine)
        except sa.exc.DBAPIError:
            # Several processes starting at once on a new store: one created the tables
            # between another's check and its CREATE. The second look finds them.
            _metadata.create_all(engine)

    @classmethod
    def open(
        cls, url: str, *, data_url: str | None = None, prepared_statements: bool = True
    ) -> SqlDataKeyStore:
        """Refuses a key store that is the memory database itself: backups would hold keys."""
        if data_url is not None and _same_database(url, data_url):
            raise ConfigurationError("KEYSTORE_URL must name another database than DATABASE_URL")
        return cls(create_engine_for(url, prepared_statements=prepared_statements))

    @property
    def engine(self) -> Engine:
        return self._engine

    def wrapped_key(self, tenant_id: str, subject_id: str, key_id: str) -> bytes | None:
        statement = sa.select(_data_keys.c.wrapped_key).where(
            _data_keys.c.tenant_id == tenant_id,
            _data_keys.c.subject_id == subject_id,
            _data_keys.c.key_id == key_id,
        )
        with self._engine.connect() as connection:
            value = connection.execute(statement).scalar()
        return bytes(value) if value is not None else None

    def add_key(self, tenant_id: str, subject_id: str, key_id: str, wrapped: bytes) -> None:
        with self._engine.begin() as connection:
            connection.execute(
                _data_keys.insert().values(
                    tenant_id=tenant_id,
                    subject_id=subject_id,
                    key_id=key_id,
                    wrapped_key=wrapped,
                    created_at=_now(),
                )
            )

    def destroy_keys(self, tenant_id: str, subject_id: str, *, at: datetime) -> int:
        with self._engine.begin() as connection:
            destroyed = connection.execute(
                _data_keys.delete().where(
                    _data_keys.c.tenant_id == tenant_id, _data_keys.c.subject_id == subject_id
                )
            ).rowcount
            connection.execute(
                _erasures.insert().values(tenant_id=tenant_id, subject_id=subject_id, erased_at=at)
            )
        return int(destroyed)

    def scrub(self) -> None:
        """Take destroyed keys' bytes out of the live files (see the module docstring).

        Run once the erasure's data transaction has ended: on PostgreSQL ``VACUUM FULL``
        must keep a deleted row while any transaction older than the delete still runs on
        the server (in any database), so the erasure runs it after its commit, and the
        nightly beat task runs it again for what a long transaction held back.
        """
        if self._engine.dialect.name == "sqlite":
            scrub_sqlite_wal(self._engine)
            return
        with self._engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM FULL data_keys"
            )

    def erasures(self) -> list[KeyErasure]:
        statement = sa.select(
            _erasures.c.tenant_id, _erasures.c.subject_id, _erasures.c.erased_at
        ).order_by(_erasures.c.seq)
        with self._engine.connect() as connection:
            return [KeyErasure(*row) for row in connection.execute(statement)]

    def rewrap_all(self, rewrap: Callable[[str, str, bytes], bytes]) -> int:
        count = 0
        with self._engine.begin() as connection:
            rows = connection.execute(
                sa.select(
                    _data_keys.c.tenant_id,
                    _data_keys.c.subject_id,
                    _data_keys.c.key_id,
                    _data_keys.c.wrapped_key,
                ).with_for_update()
            ).all()
            for tenant_id, subject_id, key_id, wrapped in rows:
                connection.execute(
                    _data_keys.update()
                    .where(
                        _data_keys.c.tenant_id == tenant_id,
                        _data_keys.c.subject_id == subject_id,
                        _data_keys.c.key_id == key_id,
                    )
                    .values(wrapped_key=rewrap(tenant_id, subject_id, bytes(wrapped)))
                )
                count += 1
            canary = connection.execute(sa.select(_canary.c.wrapped_key)).scalar()
            if canary is not None:
                connection.execute(
                    _canary.update().values(
                        wrapped_key=rewrap(CANARY_TENANT, CANARY_SUBJECT, bytes(canary))
                    )
                )
        self.scrub()  # the keys as wrapped by the old master key
        return count

    def canary(self) -> bytes | None:
        with self._engine.connect() as connection:
            value = connection.execute(sa.select(_canary.c.wrapped_key)).scalar()
        return bytes(value) if value is not None else None

    def set_canary_if_absent(self, sealed: bytes) -> bytes:
        try:
            with self._engine.begin() as connection:
                connection.execute(_canary.insert().values(id=1, wrapped_key=sealed))
        except sa.exc.IntegrityError:
            pass  # another process sealed it first
        kept = self.canary()
        assert kept is not None
        return kept

    def any_key(self) -> tuple[str, str, bytes] | None:
        statement = sa.select(
            _data_keys.c.tenant_id, _data_keys.c.subject_id, _data_keys.c.wrapped_key
        ).limit(1)
        with self._engine.connect() as connection:
            row = connection.execute(statement).first()
        return (row[0], row[1], bytes(row[2])) if row is not None else None


class MemoryDataKeyStore:
    """The key store in this process only: for tests and benchmarks, never wired by bootstrap."""

    def __init__(self) -> None:
        self._keys: dict[tuple[str, str, str], bytes] = {}
        self._erasures: list[KeyErasure] = []
        self._canary: bytes | None = None
        self._lock = threading.Lock()

    def wrapped_key(self, tenant_id: str, subject_id: str, key_id: str) -> bytes | None:
        return self._keys.get((tenant_id, subject_id, key_id))

    def add_key(self, tenant_id: str, subject_id: str, key_id: str, wrapped: bytes) -> None:
        with self._lock:
            self._keys[(tenant_id, subject_id, key_id)] = wrapped

    def destroy_keys(self, tenant_id: str, subject_id: str, *, at: datetime) -> int:
        with self._lock:
            gone = [k for k in self._keys if k[:2] == (tenant_id, subject_id)]
            for key in gone:
                del self._keys[key]
            self._erasures.append(KeyErasure(tenant_id, subject_id, at))
        return len(gone)

    def erasures(self) -> list[KeyErasure]:
        return list(self._erasures)

    def scrub(self) -> None:
        """Nothing lingers in a dict."""

    def rewrap_all(self, rewrap: Callable[[str, str, bytes], bytes]) -> int:
        with self._lock:
            for (tenant, subject, key_id), wrapped in list(self._keys.items()):
                self._keys[(tenant, subject, key_id)] = rewrap(tenant, subject, wrapped)
            if self._canary is not None:
                self._canary = rewrap(CANARY_TENANT, CANARY_SUBJECT, self._canary)
            return len(self._keys)

    def canary(self) -> bytes | None:
        return self._canary

    def set_canary_if_absent(self, sealed: bytes) -> bytes:
        with self._lock:
            if self._canary is None:
                self._canary = sealed
            return self._canary

    def any_key(self) -> tuple[str, str, bytes] | None:
        for (tenant, subject, _), wrapped in self._keys.items():
            return tenant, subject, wrapped
        return None


def _same_database(first: str, second: str) -> bool:
    a, b = (
        sa.engine.make_url(normalize_database_url(first)),
        sa.engine.make_url(normalize_database_url(second)),
    )
    return (a.drivername, a.host, a.port, a.database) == (
        b.drivername,
        b.host,
        b.port,
        b.database,
    )
