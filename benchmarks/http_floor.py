"""Where the time of an authenticated request goes between the service call and the wire.

For one backend (SQLite by default, ``--postgres`` for a scratch PostgreSQL database), in one run:

- the pieces, each timed alone (p50, microseconds): the API key looked up in the database, the
  same key answered by the in-process cache, the in-process rate limiter, one hop to the thread
  pool and back, parsing a note's JSON body;
- two requests, p50 and p99 (ms): the context render (``GET /v1/subjects/{id}/context``) and a
  note dry run (``POST /v1/sessions/{id}/notes?dry_run=true``, the guards and the session read,
  nothing written, so every call does the same work):
  - ``in-process``: the service call alone;
  - ``ASGI``: the whole FastAPI app called in-process (httpx's ASGI transport: dependencies,
    auth, middleware, body parsing, serialisation; no socket, no server), key cache off and on;
  - ``HTTP``: a real uvicorn process on loopback, one keep-alive httpx client, for
    ``--http h11`` and ``httptools``, each on the ``asyncio`` and the ``uvloop`` event loop;
- CPU per request: the server process's CPU time (all threads, from /proc) and the client's,
  against the service call's own in-process CPU time: on a busy shared machine wall times
  count the waits for a core at each hand-off (client, server loop, thread pool and back),
  CPU times only the work;
- ``empty``: a bare ASGI app answering ``{}`` under each server setting, with the same client:
  the cost of the socket, the server and the client alone.

    .venv/bin/python -m benchmarks.http_floor                 # SQLite
    .venv/bin/python -m benchmarks.http_floor --postgres      # PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial

import anyio.to_thread
import httpx
from starlette.types import Receive, Scope, Send

from benchmarks.save_note import (
    DEFAULT_PG,
    SERVER_PIDS,
    Backend,
    cpu_seconds,
    env_for,
    ms,
    percentile,
    postgres_backend,
    server_process,
    sqlite_backend,
    timed_calls,
)
from memory_service.adapters.key_cache import CachedKeyStore
from memory_service.adapters.rate_limit import InProcessRateLimiter
from memory_service.api.app import create_app
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.model import NoteStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.services.context import render_context
from memory_service.services.notes import save_memory_note
from memory_service.services.sessions import open_session

NOTE = {"text": "Prefers aisle seats on long flights.", "keywords": ["seats"]}
SEED = (
    "Prefers window seats on short flights.",
    "Drinks green tea in the morning.",
    "Uses Vim as editor.",
    "Likes striped navy scarves.",
)
SERVERS = (("h11", "asyncio"), ("httptools", "asyncio"), ("h11", "uvloop"), ("httptools", "uvloop"))


async def empty_app(scope: Scope, receive: Receive, send: Send) -> None:
    """The floor of any request: a bare ASGI answer."""
    if scope["type"] != "http":
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"2")],
        }
    )
    await send({"type": "http.response.body", "body": b"{}"})


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f}"


def p50(values: list[float]) -> float:
    return percentile(values, 0.5)


def pieces(container: Container, clear_key: str, calls: int) -> dict[str, float]:
    keys = container.keys
    inner = keys._inner if isinstance(keys, CachedKeyStore) else keys
    cached = CachedKeyStore(inner, ttl_seconds=60)
    cached.authenticate(clear_key)
    limiter = InProcessRateLimiter(10**9)
    body = json.dumps(NOTE).encode()

    async def hops() -> list[float]:
        durations = []
        for _ in range(calls):
            start = time.perf_counter()
            await anyio.to_thread.run_sync(lambda: None)
            durations.append(time.perf_counter() - start)
        return durations

    return {
        "key lookup (database)": p50(timed_calls(calls, lambda _: inner.authenticate(clear_key))),
        "key lookup (cache)": p50(timed_calls(calls, lambda _: cached.authenticate(clear_key))),
        "rate limiter (in-process)": p50(timed_calls(calls, lambda _: limiter.take("key:x"))),
        "thread-pool hop": p50(asyncio.run(hops())),
        "note body json.loads": p50(timed_calls(calls, lambda _: json.loads(body))),
    }


class Requests:
    """The two measured requests, as service calls and as HTTP requests."""

    def __init__(self, container: Container, tenant: str) -> None:
        self.container = container
        self.scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
        self.subject = f"subject-{secrets.token_hex(4)}"
        session = open_session(
            self.scope, self.subject, uow_factory=container.uow_factory, clock=container.clock
        )
        self.session_id = session.id
        for text in SEED:
            result = save_memory_note(self.scope, session.id, {"text": text}, deps=container.notes)
            assert result.status is NoteStatus.SAVED, result

    def in_process(self) -> dict[str, Callable[[], object]]:
        container = self.container

        def context() -> object:
            return render_context(self.scope, self.subject, deps=container.context)

        def dry_run() -> object:
            result = save_memory_note(
                self.scope, self.session_id, dict(NOTE), dry_run=True, deps=container.notes
            )
            assert result.status is NoteStatus.SAVED, result
            return result

        return {"context": context, "note dry run": dry_run}

    def http(self) -> dict[str, Callable[[httpx.Client], object]]:
        return {
            "context": lambda c: _ok(c.get(f"/v1/subjects/{self.subject}/context")),
            "note dry run": lambda c: _ok(
                c.post(f"/v1/sessions/{self.session_id}/notes?dry_run=true", json=NOTE)
            ),
        }

    def asgi(self) -> dict[str, Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]]:
        return {
            "context": lambda c: c.get(f"/v1/subjects/{self.subject}/context"),
            "note dry run": lambda c: c.post(
                f"/v1/sessions/{self.session_id}/notes?dry_run=true", json=NOTE
            ),
        }


def _ok(response: httpx.Response) -> httpx.Response:
    assert response.status_code == 200, response.text
    return response


def paired(
    calls: int, baseline: Callable[[], object], measured: Callable[[], object]
) -> tuple[tuple[float, float], float]:
    """Both calls in turn, ``calls`` times: (p50, p99) of ``measured`` and the p50 of the
    per-round differences. Taking turns cancels most of a shared machine's drift."""
    for _ in range(20):
        baseline()
        measured()
    durations, differences = [], []
    for _ in range(calls):
        start = time.perf_counter()
        baseline()
        middle = time.perf_counter()
        measured()
        end = time.perf_counter()
        durations.append(end - middle)
        differences.append((end - middle) - (middle - start))
    return _p(durations), p50(differences)


def paired_asgi(
    container: Container,
    key: str,
    calls: int,
    baseline: Callable[[], object],
    request: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
) -> tuple[tuple[float, float], float]:
    """:func:`paired` for the app called in-process through httpx's ASGI transport, all in
    one task (as under a server, whose thread pool lives as long as the server)."""

    async def run() -> tuple[tuple[float, float], float]:
        transport = httpx.ASGITransport(app=create_app(container))
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench", headers=headers
        ) as client:
            durations, differences = [], []
            for index in range(calls + 20):
                start = time.perf_counter()
                baseline()
                middle = time.perf_counter()
                _ok(await request(client))
                end = time.perf_counter()
                if index >= 20:
                    durations.append(end - middle)
                    differences.append((end - middle) - (middle - start))
            return _p(durations), p50(differences)

    return asyncio.run(run())


@contextmanager
def with_cache_seconds(container: Container, seconds: float) -> Iterator[Container]:
    keys = container.keys
    inner = keys._inner if isinstance(keys, CachedKeyStore) else keys
    container.keys = CachedKeyStore(inner, ttl_seconds=seconds)
    try:
        yield container
    finally:
        container.keys = keys


def run(backend: Backend, calls: int) -> None:
    env = env_for(backend) | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": str(10**6)}
    container = build_container(Settings.from_env(env))
    tenant = f"bench-{secrets.token_hex(3)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    requests = Requests(container, tenant)

    print(f"\n{backend.name}: the pieces alone, p50 (microseconds), {calls} calls each")
    for name, value in pieces(container, key, calls).items():
        print(f"  {name:<28}{us(value):>8}")

    Row = tuple[tuple[float, float], float]
    rows: dict[str, dict[str, Row]] = {}
    cpu: dict[str, dict[str, tuple[float, float]]] = {}
    service = requests.in_process()
    for name, call in service.items():
        for _ in range(20):
            call()
        before = time.process_time()
        alone = _p(timed_calls(calls, lambda _, c=call: c()))
        rows.setdefault(name, {})["in-process"] = (alone, 0.0)
        cpu.setdefault(name, {})["in-process"] = ((time.process_time() - before) / calls, 0.0)
    for label, seconds in (("ASGI, no key cache", 0.0), ("ASGI, key cache", 5.0)):
        with with_cache_seconds(container, seconds):
            for name, acall in requests.asgi().items():
                rows[name][label] = paired_asgi(container, key, calls, service[name], acall)

    empty: dict[str, tuple[float, float]] = {}
    for http, loop in SERVERS:
        label = f"HTTP {http}+{loop}"
        args = ["--http", http, "--loop", loop]
        with (
            server_process(backend, args=args, extra_env=env) as base,
            httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as client,
        ):
            for name, hcall in requests.http().items():
                rows[name][label] = paired(calls, service[name], partial(hcall, client))
                cpu[name][label] = cpu_per_request(SERVER_PIDS[base], calls, partial(hcall, client))
        with (
            server_process(
                backend,
                args=args,
                extra_env=env,
                app="benchmarks.http_floor:empty_app",
                health=None,
            ) as base,
            httpx.Client(base_url=base) as client,
        ):
            empty[label] = _p(timed_calls(calls, lambda _: _ok(client.get("/"))))
    container.engine.dispose()

    print(f"\n{backend.name}: request latency, {calls} requests each (ms); each path measured")
    print("  in turn with the in-process call, 'over' is the p50 of the per-pair differences")
    header = f"  {'request':<14}{'path':<28}{'p50':>8}{'p99':>8}{'over in-process':>17}"
    print(header)
    for name, paths in rows.items():
        for label, ((q50, q99), over) in paths.items():
            shown = "" if label == "in-process" else f"{over * 1000:+.2f}"
            print(f"  {name:<14}{label:<28}{ms(q50):>8}{ms(q99):>8}{shown:>17}")
    print(f"\n{backend.name}: CPU per request (ms): what the machine's load cannot inflate")
    print(f"  {'request':<14}{'path':<28}{'server':>8}{'client':>8}{'server over in-process':>24}")
    for name, paths in cpu.items():
        base_cpu = paths["in-process"][0]
        for label, (server, client_cpu) in paths.items():
            over = "" if label == "in-process" else f"{(server - base_cpu) * 1000:+.2f}"
            print(f"  {name:<14}{label:<28}{ms(server):>8}{ms(client_cpu):>8}{over:>24}")
    print(f"\n  load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"\n{backend.name}: an empty ASGI app over HTTP (socket, server, client alone), ms")
    for label, (q50, q99) in empty.items():
        print(f"  {label:<28}p50 {ms(q50)}  p99 {ms(q99)}")


def cpu_per_request(pid: int, calls: int, call: Callable[[], object]) -> tuple[float, float]:
    """CPU seconds per call used by the server process (all threads) and by this client."""
    server, client = cpu_seconds(pid), time.process_time()
    for _ in range(calls):
        call()
    return (cpu_seconds(pid) - server) / calls, (time.process_time() - client) / calls


def _p(values: list[float]) -> tuple[float, float]:
    return percentile(values, 0.5), percentile(values, 0.99)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="requests per measurement")
    parser.add_argument("--postgres", action="store_true", help="a scratch PostgreSQL database")
    parser.add_argument("--postgres-url", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_PG))
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.postgres:
        with postgres_backend(args.postgres_url) as backend:
            run(backend, args.calls)
    else:
        with sqlite_backend() as backend:
            run(backend, args.calls)


if __name__ == "__main__":
    main()
