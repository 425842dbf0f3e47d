"""CPU per in-process call of a save, a render and opening a session (``process_time``).

Opening a session twice: for a returning subject, and a new subject's first (its key made).

This process's threads, 150 calls after 20 of warm-up, on the subjects of
``benchmarks.hot_paths``.

Less noisy than wall time on a loaded machine: run it alternately on two trees (e.g. the old
one with ``PYTHONPATH`` set to its export) to compare code.

    .venv/bin/python -m benchmarks.hot_cpu sqlite
    .venv/bin/python -m benchmarks.hot_cpu postgres
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time

from benchmarks.harness import DEFAULT_PG, env_for, load, notes, postgres_backend, sqlite_backend
from benchmarks.hot_paths import Subjects, in_process_calls
from memory_service.bootstrap import build_container
from memory_service.config import Settings
from memory_service.core.model import Role

REQUESTS = (
    "save a note (saved)",
    "render the context",
    "open a session",
    "open, new subject",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=("sqlite", "postgres"))
    parser.add_argument("--calls", type=int, default=150)
    args = parser.parse_args()
    backend = sqlite_backend() if args.database == "sqlite" else postgres_backend(DEFAULT_PG)
    with backend as chosen:
        env = env_for(chosen) | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
        container = build_container(Settings.from_env(env))
        tenant = f"bench-{secrets.token_hex(3)}"
        container.keys.create(tenant, Role.AGENT)
        calls = in_process_calls(Subjects(container, tenant), notes())
        for name in REQUESTS:
            call = calls[name]
            for _ in range(20):
                call()
            cpu = []
            for _ in range(args.calls):
                start = time.process_time()
                call()
                cpu.append(time.process_time() - start)
            print(f"{chosen.name} {name}: CPU p50 {statistics.median(cpu) * 1000:.2f} ms")
        print(load())
        assert container.manifests is not None
        container.manifests.close()
        container.engine.dispose()


if __name__ == "__main__":
    main()
