"""The in-process token bucket and the setting that sizes it."""

from __future__ import annotations

import pytest

from memory_service.adapters.rate_limit import (
    InProcessRateLimiter,
    NoRateLimit,
    retry_after_header,
)
from memory_service.config import ConfigurationError, Settings
from memory_service.core.ports import RateDecision


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_key_bursts_up_to_a_minutes_budget_then_waits_for_a_token() -> None:
    time = FakeTime()
    limiter = InProcessRateLimiter(6, now=time)

    decisions = [limiter.take("key:a") for _ in range(7)]

    assert [d.allowed for d in decisions] == [True] * 6 + [False]
    assert decisions[-1].retry_after_seconds == pytest.approx(10.0)  # 6/min: one per 10 s


def test_tokens_come_back_at_the_rate_and_never_beyond_the_capacity() -> None:
    time = FakeTime()
    limiter = InProcessRateLimiter(6, now=time)
    for _ in range(6):
        limiter.take("key:a")

    time.now += 10.0
    assert limiter.take("key:a").allowed
    assert not limiter.take("key:a").allowed

    time.now += 3600.0  # an hour idle refills only to the capacity
    assert sum(limiter.take("key:a").allowed for _ in range(10)) == 6


def test_each_key_has_its_own_bucket() -> None:
    limiter = InProcessRateLimiter(1, now=FakeTime())
    assert limiter.take("key:a").allowed
    assert not limiter.take("key:a").allowed
    assert limiter.take("key:b").allowed


def test_retry_after_is_whole_seconds_and_at_least_one() -> None:
    assert retry_after_header(RateDecision(False, 0.2)) == "1"
    assert retry_after_header(RateDecision(False, 9.01)) == "10"


def test_a_rate_of_zero_turns_the_limit_off() -> None:
    assert all(NoRateLimit().take("key:a").allowed for _ in range(1000))


def test_the_rate_comes_from_the_environment() -> None:
    assert Settings.from_env({}).notes_rate_per_minute == 600
    env = {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "30"}
    assert Settings.from_env(env).notes_rate_per_minute == 30
    for bad in ("-1", "many"):
        with pytest.raises(ConfigurationError, match="MEMORY_SERVICE_NOTES_RATE_PER_MINUTE"):
            Settings.from_env({"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": bad})
