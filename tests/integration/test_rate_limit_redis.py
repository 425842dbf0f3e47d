"""The Redis token bucket: one bucket per key across processes, open when Redis is down."""

from __future__ import annotations

import secrets

import redis

from memory_service.adapters.rate_limit import RedisRateLimiter
from tests.support.loopback import free_port


def _limiter(url: str, rate: int, prefix: str) -> RedisRateLimiter:
    return RedisRateLimiter.from_url(url, rate, prefix=prefix)


def test_two_server_processes_share_one_bucket_per_key(redis_url: str) -> None:
    prefix = f"test:rate:{secrets.token_hex(4)}:"
    first, second = _limiter(redis_url, 4, prefix), _limiter(redis_url, 4, prefix)

    taken = [(first if n % 2 else second).take("key:a") for n in range(5)]

    assert [d.allowed for d in taken] == [True] * 4 + [False]
    assert 0 < taken[-1].retry_after_seconds <= 15  # 4/min: a token every 15 s
    assert first.take("key:b").allowed  # another key, another bucket


def test_the_bucket_refills_with_the_time_redis_keeps(redis_url: str) -> None:
    prefix = f"test:rate:{secrets.token_hex(4)}:"
    limiter = _limiter(redis_url, 2, prefix)
    assert limiter.take("key:a").allowed and limiter.take("key:a").allowed
    assert not limiter.take("key:a").allowed

    client = redis.Redis.from_url(redis_url)
    at = float(client.hget(prefix + "key:a", "at") or 0)
    client.hset(prefix + "key:a", "at", repr(at - 30.0))  # as if 30 s had passed: one token

    assert limiter.take("key:a").allowed
    assert not limiter.take("key:a").allowed
    assert 0 < client.ttl(prefix + "key:a") <= 61  # idle buckets leave Redis
    client.delete(prefix + "key:a")


def test_with_redis_down_calls_are_let_through() -> None:
    limiter = _limiter(f"redis://127.0.0.1:{free_port()}/0", 1, "test:rate:")
    assert all(limiter.take("key:a").allowed for _ in range(3))
