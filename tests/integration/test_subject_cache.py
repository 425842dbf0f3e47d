"""Redis holds nothing about an erased subject: its namespace is purged after the commit."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
import redis

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.subject_cache import RedisSubjectCache, subject_namespace
from memory_service.core.errors import DependencyUnavailable
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services import admin
from tests.factories import random_subject_id
from tests.integration.conftest import sql_store
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock
from tests.support.notes import NoLibraryIdentifiers

pytestmark = pytest.mark.redis


class NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture
def tenant() -> str:
    return f"t-{secrets.token_hex(6)}"


def _keys_naming(client: redis.Redis, *parts: str) -> list[bytes]:
    return [key for key in client.scan_iter(count=1000) if all(p.encode() in key for p in parts)]


def test_the_purge_removes_the_subjects_namespace_only(
    client: redis.Redis, redis_url: str, tenant: str
) -> None:
    # "s-1" must not take "s-10" with it, nor another tenant's "s-1".
    mine = [subject_namespace(tenant, "s-1") + suffix for suffix in ("lock", "ctx:a", "ctx:b")]
    others = [
        subject_namespace(tenant, "s-10") + "lock",
        subject_namespace(f"{tenant}x", "s-1") + "lock",
    ]
    for key in [*mine, *others]:
        client.set(key, "1", ex=60)
    try:
        purged = RedisSubjectCache.from_url(redis_url).purge_subject(tenant, "s-1")
        assert purged == 3
        assert [client.exists(key) for key in mine] == [0, 0, 0]
        assert [client.exists(key) for key in others] == [1, 1]
    finally:
        client.delete(*mine, *others)


def test_after_an_erasure_redis_holds_nothing_about_the_subject(
    client: redis.Redis,
    redis_url: str,
    tenant: str,
    sqlite_url: str,
    keyring: Keyring,
    clock: FixedClock,
) -> None:
    subject = random_subject_id("cust")
    for suffix in ("consolidation-lock", "context:general", "rate"):
        client.set(subject_namespace(tenant, subject) + suffix, "1", ex=60)
    assert len(_keys_naming(client, tenant, subject)) == 3
    with sql_store(sqlite_url, keyring, clock) as store:
        with store.uow_factory(tenant) as uow:
            uow.memories.add(make_memory(tenant, subject, clock.now()))
            uow.commit()
        deps = admin.AdminDeps(
            uow_factory=store.uow_factory,
            clock=clock,
            pii=NoPii(),
            cache=RedisSubjectCache.from_url(redis_url),
            identifiers=NoLibraryIdentifiers(),
        )
        receipt = admin.erase_subject(TenantScope(tenant, Role.ADMIN, "key:a"), subject, deps=deps)
    assert receipt.counts["memories"] == 1
    assert _keys_naming(client, tenant, subject) == []


def test_an_unreachable_redis_makes_the_erasure_retryable(
    tenant: str, keyring: Keyring, clock: FixedClock, sqlite_url: str
) -> None:
    cache = RedisSubjectCache.from_url("redis://127.0.0.1:1/0")  # nothing listens on port 1
    with sql_store(sqlite_url, keyring, clock) as store:
        deps = admin.AdminDeps(
            uow_factory=store.uow_factory,
            clock=clock,
            pii=NoPii(),
            cache=cache,
            identifiers=NoLibraryIdentifiers(),
        )
        scope = TenantScope(tenant, Role.ADMIN, "key:a")
        with pytest.raises(DependencyUnavailable):
            admin.erase_subject(scope, "cust-1", deps=deps)
        # The erasure itself was committed; retrying once Redis is back is idempotent.
        with store.uow_factory(tenant) as uow:
            assert len(uow.erasure.list_receipts("cust-1")) == 1
