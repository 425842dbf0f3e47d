"""API keys: the clear key is returned once; only its SHA-256 is stored.

A key carries 256 bits of randomness, so a plain hash is enough (no slow KDF needed),
and the lookup by hash reveals nothing useful about timing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.sql.convert import api_key_from_row
from memory_service.adapters.sql.failures import connection_failures_as_unavailable
from memory_service.adapters.sql.tenancy import insert_tenant_if_absent
from memory_service.adapters.tables import ApiKeyRow
from memory_service.core.clock import new_id
from memory_service.core.model import ApiKey, Role
from memory_service.core.ports import Clock
from memory_service.core.scope import validate_tenant_id

KEY_PREFIX = "msk_"
_MAX_KEY_LENGTH = 128
_DISPLAY_PREFIX_LENGTH = 12


def hash_key(clear_key: str) -> str:
    return hashlib.sha256(clear_key.encode()).hexdigest()


class SqlKeyStore:
    def __init__(self, engine: Engine, clock: Clock) -> None:
        self._engine = engine
        self._clock = clock

    def create(self, tenant_id: str, role: Role) -> tuple[ApiKey, str]:
        validate_tenant_id(tenant_id)
        clear_key = KEY_PREFIX + secrets.token_urlsafe(32)
        now = self._clock.now()
        row = ApiKeyRow(
            id=new_id(),
            tenant_id=tenant_id,
            role=role.value,
            key_hash=hash_key(clear_key),
            prefix=clear_key[:_DISPLAY_PREFIX_LENGTH],
            created_at=now,
        )
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            insert_tenant_if_absent(session, tenant_id, now)
            session.add(row)
            session.commit()
            return api_key_from_row(row), clear_key

    def authenticate(self, clear_key: str) -> ApiKey | None:
        if (
            not isinstance(clear_key, str)
            or not clear_key.startswith(KEY_PREFIX)
            or len(clear_key) > _MAX_KEY_LENGTH
        ):
            return None
        wanted = hash_key(clear_key)
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            row = session.scalars(select(ApiKeyRow).where(ApiKeyRow.key_hash == wanted)).first()
            if row is None or not hmac.compare_digest(row.key_hash, wanted):
                return None
            return api_key_from_row(row) if row.revoked_at is None else None

    def revoke(self, tenant_id: str, key_id: str) -> bool:
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            result = session.execute(
                update(ApiKeyRow)
                .where(
                    col(ApiKeyRow.tenant_id) == tenant_id,
                    col(ApiKeyRow.id) == key_id,
                    col(ApiKeyRow.revoked_at).is_(None),
                )
                .values(revoked_at=self._clock.now())
            )
            session.commit()
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def active(self, tenant_id: str, key_id: str) -> ApiKey | None:
        with connection_failures_as_unavailable(), Session(self._engine) as session:
            row = session.scalars(
                select(ApiKeyRow).where(
                    col(ApiKeyRow.tenant_id) == tenant_id,
                    col(ApiKeyRow.id) == key_id,
                    col(ApiKeyRow.revoked_at).is_(None),
                )
            ).first()
            return None if row is None else api_key_from_row(row)
