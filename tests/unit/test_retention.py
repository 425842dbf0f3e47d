"""Retention policy (pure) and the purge service on the fakes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from memory_service.adapters.retention_file import load_retention_policy
from memory_service.config import ConfigurationError, Settings
from memory_service.core.model import Source
from memory_service.core.retention import (
    DEFAULT_POLICY,
    RetentionPolicyError,
    parse_policy,
)
from memory_service.services.retention import purge_expired_memories
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock, InMemoryRetentionStore, InMemoryUnitOfWorkFactory
from workers.celery_app import PURGE_EXPIRED_MEMORIES, create_celery_app

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


def test_the_policy_loads_from_json_or_yaml(tmp_path: Path) -> None:
    as_json = tmp_path / "retention.json"
    as_json.write_text('{"default_days": 200, "purposes": {"support": 60}, "grace_days": 7}')
    as_yaml = tmp_path / "retention.yaml"
    as_yaml.write_text("default_days: 200\npurposes:\n  support: 60\ngrace_days: 7\n")
    assert load_retention_policy(as_json) == load_retention_policy(as_yaml)
    assert (
        load_retention_policy(as_yaml).retention_days(purpose="support", source=Source.USER_STATED)
        == 60
    )
    assert load_retention_policy(None) == DEFAULT_POLICY


@pytest.mark.parametrize(
    "content", ["default_days: [", "- 1\n- 2\n", '{"grace_days": "soon"}', "unknown: 3"]
)
def test_a_bad_retention_file_stops_the_start(tmp_path: Path, content: str) -> None:
    path = tmp_path / "retention.yaml"
    path.write_text(content)
    with pytest.raises(ConfigurationError):
        load_retention_policy(path)
    with pytest.raises(ConfigurationError):
        load_retention_policy(tmp_path / "missing.yaml")


def test_the_nightly_purge_runs_after_the_expiry(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "REDIS_URL": "redis://127.0.0.1:1/0"}
    )
    schedule = create_celery_app(settings).conf.beat_schedule
    purge = schedule["purge-expired-memories"]
    expire = schedule["expire-due-memories"]["schedule"]
    assert purge["task"] == PURGE_EXPIRED_MEMORIES
    assert purge["schedule"].hour == expire.hour
    assert min(purge["schedule"].minute) > min(expire.minute)
