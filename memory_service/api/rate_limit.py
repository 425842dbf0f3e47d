"""The notes rate limit as a route dependency: 429 ``rate_limited`` with ``Retry-After``.

It runs after authentication (a bad key is a 401, never a 429) and counts per API key,
so one noisy agent deployment cannot crowd out the tenant's others. Dry runs count too:
they cost the same guard work.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from memory_service.adapters.rate_limit import InProcessRateLimiter, NoRateLimit, retry_after_header
from memory_service.api.deps import AgentScope, ContainerDep

RATE_LIMITED = 429


async def limit_notes(scope: AgentScope, container: ContainerDep) -> None:
    limiter = container.note_rate_limiter
    if isinstance(limiter, InProcessRateLimiter | NoRateLimit):
        decision = limiter.take(scope.actor)  # a dict and a lock: no thread hop for that
    else:
        decision = await run_in_threadpool(limiter.take, scope.actor)  # Redis: network I/O
    if not decision.allowed:
        raise HTTPException(
            RATE_LIMITED,
            detail="too many notes for this API key; retry later",
            headers={"Retry-After": retry_after_header(decision)},
        )
