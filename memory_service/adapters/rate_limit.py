"""Token buckets per API key, for the notes endpoint: in-process, or shared in Redis.

A bucket holds ``rate_per_minute`` tokens and refills continuously at that rate, so a key
may burst up to a minute's budget and then sustain the rate. With several server processes
only the Redis bucket is shared; the in-process one (the embedded default, no Redis) limits
each process on its own.

The Redis bucket is one Lua script, so taking a token is atomic across processes, and it
reads the time from Redis itself, so the servers' clocks never disagree about a bucket.
When Redis cannot be reached the call is let through and a warning logged: the limiter
protects the service from a noisy key, it must not turn a broker outage into refusals.
Bucket keys hold API key ids only, never the key itself.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

import redis

from memory_service.core.ports import RateDecision

log = logging.getLogger(__name__)

ALLOWED = RateDecision(allowed=True)

# KEYS[1] bucket; ARGV[1] capacity, ARGV[2] tokens per second.
# Returns {allowed (0/1), seconds to wait as a string (Lua numbers become integers)}.
_TAKE_SCRIPT = """
local capacity = tonumber(ARGV[1])
local per_second = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * per_second)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = (1 - tokens) / per_second
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / per_second) + 1)
return {allowed, tostring(wait)}
"""


def retry_after_header(decision: RateDecision) -> str:
    """Whole seconds, at least one: what a ``Retry-After`` header can say."""
    return str(max(1, math.ceil(decision.retry_after_seconds)))


class NoRateLimit:
    """A rate of 0 turns the limit off."""

    def take(self, key: str) -> RateDecision:
        return ALLOWED


class InProcessRateLimiter:
    def __init__(self, rate_per_minute: int, *, now: Callable[[], float] = time.monotonic) -> None:
        self._capacity = float(rate_per_minute)
        self._per_second = rate_per_minute / 60.0
        self._now = now
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> RateDecision:
        with self._lock:
            now = self._now()
            tokens, at = self._buckets.get(key, (self._capacity, now))
            tokens = min(self._capacity, tokens + max(0.0, now - at) * self._per_second)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                return ALLOWED
            self._buckets[key] = (tokens, now)
            return RateDecision(False, (1 - tokens) / self._per_second)


class RedisRateLimiter:
    def __init__(self, client: redis.Redis, rate_per_minute: int, *, prefix: str) -> None:
        self._client = client
        self._capacity = rate_per_minute
        self._per_second = rate_per_minute / 60.0
        self._prefix = prefix
        self._script = client.register_script(_TAKE_SCRIPT)

    @classmethod
    def from_url(
        cls, url: str, rate_per_minute: int, *, prefix: str = "memory-service:rate:notes:"
    ) -> RedisRateLimiter:
        # Short timeouts: a hung Redis must not hold every note for long.
        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        return cls(client, rate_per_minute, prefix=prefix)

    def take(self, key: str) -> RateDecision:
        try:
            allowed, wait = self._script(
                keys=[self._prefix + key], args=[self._capacity, repr(self._per_second)]
            )
        except (redis.RedisError, OSError) as exc:
            log.warning("note rate limiter unavailable (%s); call allowed", type(exc).__name__)
            return ALLOWED
        if int(allowed):
            return ALLOWED
        return RateDecision(False, float(wait))
