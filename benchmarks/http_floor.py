"""Where the time of an authenticated request goes between the service call and the wire.

For SQLite and a scratch PostgreSQL database (``--no-postgres``, ``--no-sqlite``), in one run each:

- the pieces, each timed alone (p50, microseconds): the API key looked up in the database, the
  same key answered by the in-process cache, the in-process rate limiter, one hop to the thread
  pool and back, parsing a note's JSON body;
- two requests, the context render (``GET /v1/subjects/{id}/context``) and a note dry run
  (``POST /v1/sessions/{id}/notes?dry_run=true``: the guards and the session read, nothing
  written, so every call does the same work), each measured in turn with the service call
  alone (``in-process``) so a shared machine's drift cancels: ``over`` is the p50 of the
  per-pair differences, and the CPU columns are CPU time per request beyond the service's:
  - ``ASGI``: the application called in-process with raw ASGI messages (no socket, no server,
    no client library): the hot routes (``api/hot_routes.py``), FastAPI's own routes for the
    same requests (the reference), and the hot routes without each of our middleware in
    turn: each layer's share;
  - ``HTTP``: a real uvicorn process on loopback serving the hot routes or the FastAPI
    routes, one keep-alive connection from ``httpx`` or from the standard library's
    ``http.client`` (a far lighter client), uvicorn's default setting (httptools, uvloop) or,
    with ``--all-servers``, also ``h11`` and ``asyncio``; the server process's CPU per request
    (all threads, from /proc);
- ``canned``: the same paths again with the note and render services answering at once with
  real answers taken before (``canned_services``; in the server processes through a uvicorn
  factory of this module): what is left is the layer around the service alone (key, rate
  limit, parameters, the thread hop, serialisation, middleware, and over HTTP the server and
  the client), without the service's own run-to-run noise, which on a shared machine is
  larger than the layer;
- ``empty``: a bare ASGI app answering ``{}`` under each server setting, with each client:
  the cost of the socket, the server and the client alone.

    .venv/bin/python -m benchmarks.http_floor --no-postgres   # SQLite
    .venv/bin/python -m benchmarks.http_floor --no-sqlite     # PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import logging
import os
import pickle
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from unittest.mock import patch
from urllib.parse import urlsplit

import anyio.to_thread
import httpx
from fastapi import FastAPI
from starlette.types import Message, Receive, Scope, Send

from benchmarks.harness import (
    SERVER_PIDS,
    Backend,
    add_backend_arguments,
    chosen_backends,
    cpu_seconds,
    env_for,
    load,
    ms,
    p50_p99,
    percentile,
    server_process,
    timed_calls,
)
from memory_service.adapters.key_cache import CachedKeyStore
from memory_service.adapters.rate_limit import InProcessRateLimiter
from memory_service.api.allowed_methods import AllowedMethodsMiddleware
from memory_service.api.app import create_app
from memory_service.api.asgi import create_default_app
from memory_service.api.body_limit import BodyLimitMiddleware
from memory_service.api.hot_routes import HotRoute
from memory_service.api.metrics import RequestMetricsMiddleware
from memory_service.api.unexpected import UnexpectedErrorMiddleware
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.model import NoteStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.services import context as context_service
from memory_service.services import notes as notes_service
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
DEFAULT_SERVER = "httptools+uvloop"
OTHER_SERVERS = ("h11+asyncio", "httptools+asyncio", "h11+uvloop")
HOT_APP = "memory_service.api.asgi:create_default_app"
REFERENCE_APP = "benchmarks.http_floor:create_reference_app"
CANNED_APP = "benchmarks.http_floor:create_canned_app"
CANNED_REFERENCE_APP = "benchmarks.http_floor:create_canned_reference_app"
EMPTY_APP = "benchmarks.http_floor:empty_app"
# Compared by identity with what each app's ``user_middleware`` holds.
MIDDLEWARE: dict[str, object] = {
    "unexpected errors": UnexpectedErrorMiddleware,
    "metrics": RequestMetricsMiddleware,
    "body limit": BodyLimitMiddleware,
    "allowed methods": AllowedMethodsMiddleware,
}


def without_hot_routes(app: FastAPI) -> FastAPI:
    """The application as it would be without its hot routes: FastAPI's routes answer."""
    app.router.routes[:] = [r for r in app.router.routes if not isinstance(r, HotRoute)]
    return app


def create_reference_app() -> FastAPI:
    """The server's application without its hot routes (a uvicorn factory)."""
    return without_hot_routes(create_default_app())


CANNED = "BENCH_CANNED_ANSWERS"
"""A pickle file of the answers the canned services give (a note's, a render's)."""


@contextmanager
def canned_services(answers: tuple[object, object]) -> Iterator[None]:
    """The note and render services answer at once with real answers taken before: what is
    left of a request is the layer around the service (auth, limits, parameters, the thread
    hop, serialisation, middleware, and over HTTP the server and the client)."""
    note, rendered = answers
    with (
        patch.object(notes_service, "save_memory_note", lambda *_a, **_k: note),
        patch.object(context_service, "render_context", lambda *_a, **_k: rendered),
    ):
        yield


_SERVER_PATCHES = ExitStack()
"""Held by the module: the canned services last as long as the server process."""


def _canned(app: Callable[[], FastAPI]) -> FastAPI:
    answers = pickle.loads(Path(os.environ[CANNED]).read_bytes())
    _SERVER_PATCHES.enter_context(canned_services(answers))
    return app()


def create_canned_app() -> FastAPI:
    """The server's application on canned services (a uvicorn factory)."""
    return _canned(create_default_app)


def create_canned_reference_app() -> FastAPI:
    """The same without its hot routes (a uvicorn factory)."""
    return _canned(create_reference_app)


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


@dataclass(frozen=True)
class Call:
    """One request as the client sends it."""

    method: str
    path: str
    body: dict[str, Any] | None = None


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

    def calls(self) -> dict[str, Call]:
        return {
            "context": Call("GET", f"/v1/subjects/{self.subject}/context"),
            "note dry run": Call(
                "POST", f"/v1/sessions/{self.session_id}/notes?dry_run=true", NOTE
            ),
        }


class PlainClient:
    """The standard library's ``http.client`` on one keep-alive connection."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        address = urlsplit(base)
        assert address.hostname is not None
        self._connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        self._headers = headers

    def send(self, call: Call) -> tuple[int, bytes]:
        headers = dict(self._headers)
        body = None
        if call.body is not None:
            body = json.dumps(call.body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self._connection.request(call.method, call.path, body=body, headers=headers)
        except ConnectionError:  # the server closed the idle connection (keep-alive timeout)
            self._connection.close()
            self._connection.request(call.method, call.path, body=body, headers=headers)
        response = self._connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self._connection.close()


class HttpxClient:
    def __init__(self, base: str, headers: dict[str, str]) -> None:
        self._client = httpx.Client(base_url=base, headers=headers, timeout=60)

    def send(self, call: Call) -> tuple[int, bytes]:
        response = self._client.request(call.method, call.path, json=call.body)
        return response.status_code, response.content

    def close(self) -> None:
        self._client.close()


CLIENTS: dict[str, Callable[[str, dict[str, str]], PlainClient | HttpxClient]] = {
    "httpx": HttpxClient,
    "http.client": PlainClient,
}


def _ok(answer: tuple[int, bytes]) -> None:
    assert answer[0] == 200, answer


class AsgiCaller:
    """Calls an ASGI application in-process with raw ASGI messages: no socket, no client."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], key: str) -> None:
        self._app = app
        self._key = key

    async def send(self, call: Call) -> tuple[int, bytes]:
        path, _, query = call.path.partition("?")
        body = b"" if call.body is None else json.dumps(call.body).encode()
        headers = [(b"host", b"bench"), (b"authorization", f"Bearer {self._key}".encode())]
        if call.body is not None:
            headers += [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": call.method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("bench", 80),
        }
        messages = [{"type": "http.request", "body": body, "more_body": False}]
        sent: list[Message] = []

        async def receive() -> Message:
            if messages:
                return messages.pop()
            await asyncio.Event().wait()  # no disconnect while the app answers
            raise AssertionError("unreachable")

        async def send(message: Message) -> None:
            sent.append(message)

        await self._app(scope, receive, send)
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


Row = tuple[tuple[float, float], float, float]
"""(p50, p99) of the request, p50 of its excess over the service call, CPU excess per call."""


async def interleaved(
    calls: int,
    baseline: Callable[[], object],
    measured: Mapping[str, Callable[[], Awaitable[object]]],
    server_pids: dict[str, int] | None = None,
) -> dict[str, Row]:
    """The service call and every measured path in turn, ``calls`` rounds: a shared
    machine's drift hits them all alike, and the per-round differences cancel most of it.

    The CPU excess is the CPU per call beyond the service call's: of this process (the
    application called in-process), or of the server process named in ``server_pids``.
    One event loop for all (the application's thread pool lives on, as under a server)."""
    for _ in range(20):
        baseline()
        for call in measured.values():
            await call()
    durations: dict[str, list[float]] = {label: [] for label in measured}
    differences: dict[str, list[float]] = {label: [] for label in measured}
    cpu = dict.fromkeys(measured, 0.0)
    pids = server_pids or {}
    servers = {label: cpu_seconds(pid) for label, pid in pids.items()}
    baseline_cpu = 0.0
    for _ in range(calls):
        c0, start = time.process_time(), time.perf_counter()
        baseline()
        alone, alone_cpu = time.perf_counter() - start, time.process_time() - c0
        baseline_cpu += alone_cpu
        for label, call in measured.items():
            c0, start = time.process_time(), time.perf_counter()
            await call()
            took = time.perf_counter() - start
            durations[label].append(took)
            differences[label].append(took - alone)
            cpu[label] += time.process_time() - c0 - alone_cpu
    for label, pid in pids.items():
        cpu[label] = cpu_seconds(pid) - servers[label] - baseline_cpu
    return {
        label: (p50_p99(durations[label]), p50(differences[label]), cpu[label] / calls)
        for label in measured
    }


def asgi_layers(
    container: Container,
    key: str,
    requests: Requests,
    calls: int,
    service: Mapping[str, Callable[[], object]],
) -> dict[str, dict[str, Row]]:
    """Each request through the application in-process: hot routes, FastAPI's routes, and
    the hot routes without each of our middleware in turn, interleaved with ``service``."""
    apps: dict[str, FastAPI] = {
        "ASGI, hot routes": create_app(container),
        "ASGI, FastAPI routes": without_hot_routes(create_app(container)),
    }
    for name, middleware in MIDDLEWARE.items():
        app = create_app(container)
        app.user_middleware = [m for m in app.user_middleware if m.cls is not middleware]
        apps[f"ASGI, hot, no {name}"] = app
    rows: dict[str, dict[str, Row]] = {}

    async def run() -> None:
        for name, call in requests.calls().items():
            measured = {
                label: partial(_checked, AsgiCaller(app, key).send, call)
                for label, app in apps.items()
            }
            rows[name] = await interleaved(calls, service[name], measured)

    asyncio.run(run())
    return rows


async def _checked(send: Callable[[Call], Awaitable[tuple[int, bytes]]], call: Call) -> None:
    _ok(await send(call))


async def _sent(send: Callable[[Call], tuple[int, bytes]], call: Call) -> None:
    _ok(send(call))


def _sent_now(send: Callable[[Call], tuple[int, bytes]], call: Call, _index: int) -> None:
    _ok(send(call))


def over_http(
    backend: Backend,
    env: dict[str, str],
    requests: Requests,
    key: str,
    calls: int,
    server: str,
    service: Mapping[str, Callable[[], object]],
    apps: tuple[str, str] = (HOT_APP, REFERENCE_APP),
) -> dict[str, dict[str, Row]]:
    """Both servers (hot routes, FastAPI's) at once, each with one connection of each client;
    every request path interleaved with ``service``."""
    parser, loop = server.split("+")
    args = ["--http", parser, "--loop", loop]
    headers = {"Authorization": f"Bearer {key}"}
    rows: dict[str, dict[str, Row]] = {}
    with (
        server_process(backend, args=args, extra_env=env, app=apps[0]) as hot,
        server_process(backend, args=args, extra_env=env, app=apps[1]) as reference,
    ):
        clients = {
            f"HTTP {app_label}, {client_label}, {server}": (make(base, headers), base)
            for app_label, base in (("hot", hot), ("FastAPI", reference))
            for client_label, make in CLIENTS.items()
        }
        for name, call in requests.calls().items():
            # One client per server at a time, so a server's CPU is its requests' alone.
            for client_label in CLIENTS:
                chosen = {k: v for k, v in clients.items() if f", {client_label}," in k}
                measured = {k: partial(_sent, c.send, call) for k, (c, _) in chosen.items()}
                pids = {k: SERVER_PIDS[base] for k, (_, base) in chosen.items()}
                found = asyncio.run(interleaved(calls, service[name], measured, pids))
                rows.setdefault(name, {}).update(found)
        for client, _ in clients.values():
            client.close()
    return rows


def empty_floor(backend: Backend, calls: int, server: str) -> dict[str, tuple[float, float]]:
    parser, loop = server.split("+")
    args = ["--http", parser, "--loop", loop]
    floor = {}
    with server_process(backend, args=args, app=EMPTY_APP, health=None) as base:
        for client_label, make_client in CLIENTS.items():
            client = make_client(base, {})
            send = partial(_sent_now, client.send, Call("GET", "/"))
            floor[f"{client_label}, {server}"] = p50_p99(timed_calls(calls, send))
            client.close()
    return floor


def run(backend: Backend, calls: int, all_servers: bool) -> None:
    env = env_for(backend) | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": str(10**6)}
    container = build_container(Settings.from_env(env))
    tenant = f"bench-{secrets.token_hex(3)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    requests = Requests(container, tenant)

    print(f"\n{backend.name}: the pieces alone, p50 (microseconds), {calls} calls each")
    for name, value in pieces(container, key, calls).items():
        print(f"  {name:<28}{us(value):>8}")

    service = requests.in_process()
    answers = (
        save_memory_note(
            requests.scope, requests.session_id, dict(NOTE), dry_run=True, deps=container.notes
        ),
        render_context(requests.scope, requests.subject, deps=container.context),
    )
    servers = (DEFAULT_SERVER, *(OTHER_SERVERS if all_servers else ()))
    rows = asgi_layers(container, key, requests, calls, service)
    for server in servers:
        for name, found in over_http(backend, env, requests, key, calls, server, service).items():
            rows[name].update(found)
    canned: dict[str, dict[str, Row]] = {}
    empty: dict[str, tuple[float, float]] = {}
    nothing = dict.fromkeys(service, lambda: None)
    with tempfile.NamedTemporaryFile(prefix="bench-canned-") as file:
        file.write(pickle.dumps(answers))
        file.flush()
        with canned_services(answers):
            canned = asgi_layers(container, key, requests, calls, nothing)
        canned_env = env | {CANNED: file.name}
        apps = (CANNED_APP, CANNED_REFERENCE_APP)
        for server in servers:
            for name, found in over_http(
                backend, canned_env, requests, key, calls, server, nothing, apps
            ).items():
                canned[name].update(found)
            empty |= empty_floor(backend, calls, server)
    container.engine.dispose()
    report(backend, calls, rows, canned, empty)


def report(
    backend: Backend,
    calls: int,
    rows: dict[str, dict[str, Row]],
    canned: dict[str, dict[str, Row]],
    empty: dict[str, tuple[float, float]],
) -> None:
    print(f"\n{backend.name}: {calls} rounds (ms); each round calls the service alone, then")
    print("  each path of the group in turn. 'over' = p50 of the per-round differences with")
    print("  the service call; 'CPU over' = CPU per request beyond the service call's, of this")
    print("  process (ASGI rows) or of the server process (HTTP rows)")
    _table(rows)
    print(f"\n{backend.name}: the same on canned services (answers taken before, given at once):")
    print("  the layer around the service alone, without the service's own noise")
    _table(canned)
    print(f"\n{backend.name}: an empty ASGI app over HTTP (socket, server, client alone), ms")
    for label, (q50, q99) in empty.items():
        print(f"  {label:<36}p50 {ms(q50)}  p99 {ms(q99)}")
    print(f"\n  {load()} at the end of the run")


def _table(rows: dict[str, dict[str, Row]]) -> None:
    print(f"  {'request':<14}{'path':<44}{'p50':>8}{'p99':>8}{'over':>8}{'CPU over':>10}")
    for name, paths in rows.items():
        for label, ((q50, q99), over, cpu) in paths.items():
            print(
                f"  {name:<14}{label:<44}{ms(q50):>8}{ms(q99):>8}{over * 1000:>+8.2f}"
                f"{cpu * 1000:>+10.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="requests per measurement")
    parser.add_argument("--all-servers", action="store_true", help="h11 and asyncio too")
    add_backend_arguments(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    for backend in chosen_backends(args):
        run(backend, args.calls, args.all_servers)


if __name__ == "__main__":
    main()
