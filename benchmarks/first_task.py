"""A process's first consolidation against the ones after it, warm and cold, in-process.

What Celery's ``succeeded in`` times mix with the broker's and the pool's own first steps
(``benchmarks.scaling``'s ``first_task_ms``), measured here alone: a fresh process loads the
models (as a worker's parent does before the fork), builds its container, runs the hot
statements once rolled back (``memory_service.warm.warm_statements``) unless ``--cold``, then
consolidates ``--sessions`` ended sessions of six notes each, one after the other, on
PostgreSQL (a scratch database). Each run is a process of its own, warm and cold alternating;
the figure is the first consolidation's time over the median of the rest.

    .venv/bin/python -m benchmarks.first_task --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import time

from memory_service.core.model import Role
from memory_service.core.scope import TenantScope

NOTES = (
    ("Prefers aisle seats on long flights.", "seats"),
    ("Drinks tea, no sugar.", "tea"),
    ("Uses Vim as main editor.", "editor"),
    ("Lives in Lyon.", "home"),
    ("Has a dog.", "pets"),
    ("Likes Italian food.", "food"),
)


def one_process(postgres_url: str, sessions_count: int, *, cold: bool) -> list[float]:
    """Run in a child process: the consolidations' milliseconds, first one first."""
    from memory_service.services import consolidation
    from memory_service.warm import warm_models, warm_statements
    from tests.support.containers import ended_session, migrated_container
    from tests.support.scratch_database import scratch_postgres_service

    with scratch_postgres_service(postgres_url) as found:
        env = found | {
            "MEMORY_SERVICE_HOME": f"/tmp/first-task-{secrets.token_hex(4)}",
            "MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0",
        }
        setup = migrated_container(env)  # another process's work: an engine of its own
        ended = []
        for index in range(sessions_count):
            scope = TenantScope(f"t-{secrets.token_hex(4)}", Role.AGENT, "key:bench")
            ended.append((scope.tenant_id, ended_session(setup, scope, f"subject-{index}", NOTES)))
        setup.engine.dispose()

        container = migrated_container(env)
        warm_models(container.settings)
        if not cold:
            warm_statements(container)
        times = []
        for tenant_id, session_id in ended:
            start = time.perf_counter()
            consolidation.consolidate_session(tenant_id, session_id, deps=container.consolidation)
            times.append((time.perf_counter() - start) * 1000)
        container.engine.dispose()
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="warm and cold processes each")
    parser.add_argument("--sessions", type=int, default=12)
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "MEMORY_SERVICE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        ),
    )
    parser.add_argument("--child", choices=("warm", "cold"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_process(args.postgres, args.sessions, cold=args.child == "cold")))
        return
    results: dict[str, list[dict[str, float]]] = {"warm": [], "cold": []}
    for _ in range(args.runs):
        for kind in ("warm", "cold"):
            out = (
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "benchmarks.first_task",
                        "--child",
                        kind,
                        "--sessions",
                        str(args.sessions),
                        "--postgres",
                        args.postgres,
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            times = json.loads(out)
            rest = statistics.median(times[1:])
            results[kind].append(
                {
                    "first_ms": round(times[0], 1),
                    "rest_p50_ms": round(rest, 1),
                    "ratio": round(times[0] / rest, 2),
                }
            )
            print(kind, results[kind][-1], flush=True)
    print(json.dumps({"load_average": os.getloadavg()[0], **results}, indent=2))


if __name__ == "__main__":
    main()
