"""What a ``kill -9`` of a worker mid-batch costs, with Redis and with RabbitMQ as the broker.

For each broker: PostgreSQL (data and key store), two real ``memory-service worker``
processes (solo pool, acks_late, prefetch 1), a batch of ended sessions whose
consolidations each wait on the fake LLM, then SIGKILL of one worker while it holds a task.
Measured: seconds from the kill until every session of the batch is consolidated, and how
many ``consolidation.run`` events each session got (must be exactly one).

On Redis an unacknowledged message comes back only after the visibility timeout (default
3600 s): the run sets ``--redis-visibility`` (default 60 s) so it ends, and the recovery
time it reports follows that setting. RabbitMQ puts the message back when the dead
consumer's connection drops, whatever the timeout (left at its default here).

    .venv/bin/python -m benchmarks.worker_recovery
    .venv/bin/python -m benchmarks.worker_recovery --batch 6 --redis-visibility 30
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from contextlib import AbstractContextManager

from benchmarks.harness import DEFAULT_PG, consolidation_stack
from memory_service.core.model import Role, SessionStatus
from memory_service.core.scope import TenantScope
from tests.integration.test_consolidation_worker import (
    JUDGED,
    Stack,
    end,
    events,
    session_status,
    vs_code_then_vim,
)
from tests.support.celery_worker import wait_for
from tests.support.fake_llm import FakeLLM, Reply, Request

POSTGRES = DEFAULT_PG
REDIS = "redis://127.0.0.1:6379/15"
AMQP = "amqp://guest:guest@127.0.0.1:5672//"
TASK_SECONDS = 1.0
LIMIT_SECONDS = 900.0


def stack_for(llm: FakeLLM, broker_env: dict[str, str]) -> AbstractContextManager[Stack]:
    env = {
        **broker_env,
        "REDIS_URL": REDIS,
        "OPENAI_BASE_URL": llm.base_url,
        "OPENAI_API_KEY": "bench-key",
        "MEMORY_SERVICE_LLM_MODEL": "fake-model",
        "MEMORY_SERVICE_LLM_TIMEOUT": "30",
    }
    return consolidation_stack(POSTGRES, env, prefix="recovery")


def measure(llm: FakeLLM, name: str, broker_env: dict[str, str], batch: int) -> dict[str, object]:
    scope = TenantScope(f"t-{secrets.token_hex(5)}", Role.AGENT, "key:bench")
    with stack_for(llm, broker_env) as stack:
        session_ids = [vs_code_then_vim(stack, scope, f"subject-{i}") for i in range(batch)]
        victim, survivor = stack.worker("victim"), stack.worker("survivor")
        try:
            victim.wait_ready(timeout=120)
            survivor.wait_ready(timeout=120)
            for session_id in session_ids:
                end(stack, scope, session_id)
            wait_for(lambda: victim.succeeded() >= 1, timeout=120, what="a first consolidation")
            victim.kill()
            killed_at = time.monotonic()
            wait_for(
                lambda: all(
                    session_status(stack, scope, s) is SessionStatus.CONSOLIDATED
                    for s in session_ids
                ),
                timeout=LIMIT_SECONDS,
                what="the whole batch",
            )
            recovery = time.monotonic() - killed_at
        finally:
            victim.stop()
            survivor.stop()
        runs = [
            len(events(stack, scope, f"subject-{i}", "consolidation.run")) for i in range(batch)
        ]
    return {
        "broker": name,
        "batch": batch,
        "seconds_from_kill_to_all_consolidated": round(recovery, 1),
        "consolidations_per_session": sorted(set(runs)),
        "settings": {k: v for k, v in broker_env.items() if "URL" not in k},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--redis-visibility", type=int, default=60)
    args = parser.parse_args()

    def slow(request: Request) -> Reply:
        time.sleep(TASK_SECONDS)
        return JUDGED(request)

    llm = FakeLLM().start()
    llm.behaviour = slow
    try:
        results = [
            measure(llm, "rabbitmq", {"CELERY_BROKER_URL": AMQP}, args.batch),
            measure(
                llm,
                "redis",
                {
                    "CELERY_BROKER_URL": REDIS,
                    "MEMORY_SERVICE_VISIBILITY_TIMEOUT": str(args.redis_visibility),
                },
                args.batch,
            ),
        ]
    finally:
        llm.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
