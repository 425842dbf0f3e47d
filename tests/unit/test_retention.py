"""Retention policy (pure) and the purge service on the fakes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_service.core.model import Source
from memory_service.core.retention import (
    DEFAULT_POLICY,
    RetentionPolicyError,
    parse_policy,
)
from memory_service.services.retention import purge_expired_memories
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock, InMemoryRetentionStore, InMemoryUnitOfWorkFactory

POLICY = parse_policy(
    {
        "default_days": 365,
        "purposes": {"support": 90, "travel": 400},
        "sources": {"model_inferred": 30},
        "grace_days": 30,
    }
)


@pytest.mark.parametrize(
    ("purpose", "source", "days"),
    [
        ("general", Source.USER_STATED, 365),
        ("support", Source.USER_STATED, 90),
        ("general", Source.MODEL_INFERRED, 30),
        ("support", Source.MODEL_INFERRED, 30),
        ("travel", Source.USER_STATED, 365),  # a longer purpose rule never extends the default
    ],
)
def test_the_shortest_applicable_period_wins(purpose: str, source: Source, days: int) -> None:
    created = FixedClock().now()
    assert POLICY.expires_at(purpose=purpose, source=source, created_at=created) == (
        created + timedelta(days=days)
    )


def test_missing_fields_take_the_built_in_defaults() -> None:
    assert parse_policy({}) == DEFAULT_POLICY
    assert parse_policy(None) == DEFAULT_POLICY
    assert parse_policy({"grace_days": 0}).grace_days == 0


@pytest.mark.parametrize(
    "document",
    [
        [],
        {"default_days": "365"},
        {"default_days": 0},
        {"default_days": True},
        {"purposes": {"Support Desk": 10}},
        {"purposes": ["support"]},
        {"sources": {"rumour": 10}},
        {"grace_days": -1},
        {"retention": 10},
        {"default_days": 10**9},
    ],
)
def test_malformed_policies_are_refused(document: object) -> None:
    with pytest.raises(RetentionPolicyError):
        parse_policy(document)


def test_purge_is_due_only_after_the_grace_period() -> None:
    now = FixedClock().now()
    assert not POLICY.is_due_for_purge(None, now)
    assert not POLICY.is_due_for_purge(now - timedelta(days=29), now)
    assert POLICY.is_due_for_purge(now - timedelta(days=30), now)


def test_the_purge_removes_memories_past_grace_and_audits_ids_only() -> None:
    clock = FixedClock()
    now = clock.now()
    factory = InMemoryUnitOfWorkFactory()
    past_grace = [
        make_memory("t-1", "s-1", now, expires_at=now - timedelta(days=31 + i)) for i in range(5)
    ]
    in_grace = make_memory("t-1", "s-1", now, expires_at=now - timedelta(days=2))
    forever = make_memory("t-2", "s-2", now)
    with factory("t-1") as uow:
        for memory in [*past_grace, in_grace]:
            uow.memories.add(memory)
        uow.commit()
    with factory("t-2") as uow:
        uow.memories.add(forever)
        uow.commit()

    purged = purge_expired_memories(
        store=InMemoryRetentionStore(factory.store), policy=POLICY, clock=clock, batch_size=2
    )

    assert purged == 5
    remaining = {memory.id for memory in factory.store.memories.values()}
    assert remaining == {in_grace.id, forever.id}
    events = [e for e in factory.store.audit if e.kind == "memory.purged"]
    assert {e.memory_id for e in events} == {m.id for m in past_grace}
    assert all(e.details == {} and e.actor == "system:retention" for e in events)
