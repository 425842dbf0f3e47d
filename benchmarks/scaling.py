"""Scale with processes: notes/s by server processes, sessions/s by worker processes, brokers.

On PostgreSQL (a scratch database), in one run:

- notes/s over HTTP with ``memory-service serve --workers 1`` and ``--workers 2`` (the real
  command: models loaded once and the workers forked), ``--clients`` keep-alive connections
  each saving distinct notes on its own subject, the rate limit off. The load generator
  does not steal the server's cores: one asyncio thread writing requests built as bytes
  before the clock runs and reading the answers (its CPU per note is printed: tens of
  microseconds, against milliseconds for the server). Beside it the CPU seconds the
  server's processes used per note (from /proc, summed over the supervisor and its
  workers), which the machine's other load inflates less than the wall clock;
- consolidation sessions/s with one ``memory-service worker`` process of concurrency 1 and
  of concurrency 2 (prefork: two pool processes), rules only (no LLM): ``--sessions``
  sessions of six notes each are ended first (their tasks wait in the broker), then the
  worker starts and the clock runs from its ``ready`` line until the last is consolidated;
  beside it each pool process's first task's runtime (Celery's ``succeeded in``) against the
  next twenty tasks' p50: a warm worker's first task is no slower;
- a server process's first requests (``first``): ``memory-service serve --workers 1`` on a
  fresh start, one keep-alive client: the first open of a session, save of a note and render
  of the context, each against the p50 of the next twenty of its kind (client wall time,
  HTTP included);
- the broker itself: ``--tasks`` no-op tasks (``memory.worker_process``) drained by a
  worker of concurrency 2, and the consolidation figure again, on Redis and on RabbitMQ.

The machine's load average is printed with each figure: on a shared 2-core machine a second
server process gains only the core nobody else is using. To tell a limit of the machine from
one of the code, each phase also reports where the CPU went while the clock ran (``cpu``):
the server's (or the worker's) processes, PostgreSQL's (every ``postgres`` process, plus the
postmaster's reaped children: backends that ended in the phase), this process (the load
client), the rest of the machine (other jobs), each as CPU ms per note (or session) and as
cores busy (CPU seconds / wall seconds), beside the machine's cores busy in all (``/proc/stat``)
and its core count. Cores busy near the core count: the machine is the limit.

    .venv/bin/python -m benchmarks.scaling
    .venv/bin/python -m benchmarks.scaling --notes 200 --sessions 60 --tasks 500  # quicker
    .venv/bin/python -m benchmarks.scaling --sessions 30 --skip serve brokers --cold  # A/B

``--cold`` starts every worker and server process without warming its statements
(``MEMORY_SERVICE_WARM_STATEMENTS=0``, ``memory_service/warm.py``): run it alternately with
a warm run to see what the warm-up changes on a machine whose load drifts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import statistics
import time
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from benchmarks.harness import (
    DEFAULT_PG,
    SERVER_PIDS,
    Backend,
    consolidation_stack,
    cpu_seconds,
    notes,
    open_http_session,
    postgres_backend,
    server_process,
    tree_cpu_seconds,
)
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.keys import SqlKeyStore
from memory_service.core.clock import SystemClock
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.warm import WARM_SWITCH
from tests.integration.test_consolidation_worker import Stack, add, end, memory, open_session
from tests.support.celery_worker import WorkerProcess, wait_for
from workers.celery_app import WORKER_PROCESS

REDIS = "redis://127.0.0.1:6379/14"
AMQP = "amqp://guest:guest@127.0.0.1:5672//"
TASK_RUNTIME = re.compile(r"\] succeeded in ([0-9.]+)s")
SESSION_NOTES = (
    ("Now uses Vim as editor.", ("editor",)),
    ("Prefers aisle seats on long flights.", ("seats",)),
    ("Prefers aisle seats on long flights.", ("seats",)),
    ("Drinks green tea every morning.", ("tea",)),
    ("Is tired today.", ()),
    ("Works from the Lisbon office.", ("office",)),
)


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


# --- where the CPU goes: per party, from /proc ------------------------------------------


def _stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def named_cpu_seconds(name: str) -> float:
    """User + system CPU of every live process called ``name`` (for ``postgres``: the
    postmaster, its backends and helpers), plus the reaped children of the eldest of them
    (``cutime`` + ``cstime``: PostgreSQL's backends that exited). Needs to read other users'
    ``/proc/<pid>/stat`` (root, or the same user)."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with suppress(FileNotFoundError, ProcessLookupError):
            if (entry / "comm").read_text().strip() != name:
                continue
            fields = _stat_fields(int(entry.name))
            ticks += int(fields[11]) + int(fields[12])
            if _comm(int(fields[1])) != name:  # the eldest: the postmaster
                ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def _each_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds of a process and each of its live descendants, by pid."""
    found = {pid: cpu_seconds(pid)}
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else ():
        with suppress(FileNotFoundError, ProcessLookupError):
            found |= _each_cpu_seconds(int(child))
    return found


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def machine_cpu_seconds() -> float:
    """CPU seconds every core spent busy since boot (``/proc/stat``: all but idle and iowait;
    guest time is already counted in user)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class CpuShares:
    """CPU seconds per party over one phase: ``served`` (the server's or the worker's process
    tree), ``postgres``, ``redis`` (the broker), ``client`` (this process), ``other`` (the rest
    of the machine) and ``machine`` (every core)."""

    def __init__(self, served_pid: int) -> None:
        self._pid = served_pid
        self._start = self._now()
        self._start_each = _each_cpu_seconds(served_pid)

    def _now(self) -> dict[str, float]:
        return {
            "served": tree_cpu_seconds(self._pid),
            "postgres": named_cpu_seconds("postgres"),
            "redis": named_cpu_seconds("redis-server"),
            "client": time.process_time(),
            "machine": machine_cpu_seconds(),
        }

    def stop(self, elapsed: float, units: int, served: str) -> dict[str, Any]:
        """Per party: CPU ms per unit (note, session) and cores busy (CPU s / wall s)."""
        end, end_each = self._now(), _each_cpu_seconds(self._pid)
        used = {name: end[name] - self._start[name] for name in end}
        # Each process of the tree (a supervisor and its workers, a pool's parent and its
        # children): a process at 1.0 while its sibling idles is a limit of how the load is
        # spread (connections to processes), not of the cores.
        each = sorted(
            (
                round((end_each[pid] - self._start_each.get(pid, 0.0)) / elapsed, 2)
                for pid in end_each
            ),
            reverse=True,
        )
        parties = sum(v for n, v in used.items() if n != "machine")
        used["other"] = max(0.0, used["machine"] - parties)
        names = {"served": served}
        return {
            "cpu_ms_per_unit": {
                names.get(n, n): round(v / units * 1000, 2)
                for n, v in used.items()
                if n != "machine"
            },
            "cores_busy": {names.get(n, n): round(v / elapsed, 2) for n, v in used.items()},
            f"{served}_processes_cores_busy": each,
            "cores": os.cpu_count(),
        }


# --- notes/s by server processes ------------------------------------------------------


def note_request(key: str, session_id: str, note: dict[str, Any]) -> bytes:
    """A whole ``POST`` of a note, as bytes: built before the clock runs."""
    body = json.dumps(note).encode()
    head = (
        f"POST /v1/sessions/{session_id}/notes HTTP/1.1\r\nHost: bench\r\n"
        f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _send(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> None:
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    status = head.split(b" ", 2)[1]
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    body = await reader.readexactly(length)
    assert status == b"200" and b'"saved"' in body, (status, body)


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def _load(port: int, server_pid: int, requests: list[list[bytes]], warm: int) -> Any:
    """One keep-alive connection per list, its first ``warm`` requests before the clock;
    the seconds and where the CPU went (:class:`CpuShares`), timed."""
    connections = [await asyncio.open_connection("127.0.0.1", port) for _ in requests]
    for connection, sent in zip(connections, requests, strict=True):
        for request in sent[:warm]:  # warms the connection and the worker it landed on
            await _send(*connection, request)

    async def client(connection: Connection, sent: list[bytes]) -> None:
        for request in sent[warm:]:
            await _send(*connection, request)

    shares, start = CpuShares(server_pid), time.perf_counter()
    await asyncio.gather(*(client(c, r) for c, r in zip(connections, requests, strict=True)))
    elapsed = time.perf_counter() - start
    cpu = shares.stop(elapsed, sum(len(sent) - warm for sent in requests), served="server")
    for _, writer in connections:
        writer.close()
    return elapsed, cpu


def notes_per_second(
    backend: Backend, workers: int, clients: int, per_client: int
) -> dict[str, Any]:
    """Notes/s from ``clients`` connections of a light load generator: one thread, asyncio,
    every request built as bytes before the clock runs (a few tens of microseconds of CPU
    per note, reported), so it takes next to nothing from the server's cores."""
    engine = create_engine_for(backend.url)
    _, key = SqlKeyStore(engine, SystemClock()).create(f"bench-{secrets.token_hex(3)}", Role.AGENT)
    engine.dispose()
    source = notes()
    warm = 5
    env = {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
    with server_process(backend, workers=workers, extra_env=env) as base:
        pid = SERVER_PIDS[base]
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as http:
            sessions = [open_http_session(http) for _ in range(clients)]
        requests = [
            [note_request(key, session_id, next(source)) for _ in range(warm + per_client)]
            for session_id in sessions
        ]
        port = int(base.rsplit(":", 1)[1])
        elapsed, cpu = asyncio.run(_load(port, pid, requests, warm))
    saved = clients * per_client
    per_note = cpu["cpu_ms_per_unit"]
    return {
        "workers": workers,
        "notes_per_second": round(saved / elapsed, 1),
        "server_cpu_ms_per_note": per_note["server"],
        "client_cpu_ms_per_note": per_note["client"],
        "postgres_cpu_ms_per_note": per_note["postgres"],
        "cpu": cpu,
        "load_average": round(os.getloadavg()[0], 1),
    }


# --- consolidation sessions/s by worker processes, and the brokers -----------------------


def ended_sessions(stack: Stack, scope: TenantScope, count: int) -> None:
    """``count`` sessions of six notes over an older global, ended: their tasks wait."""
    for index in range(count):
        subject = f"subject-{index}"
        old = memory(
            scope,
            subject,
            "Uses VS Code as editor.",
            ("editor",),
            at=datetime.now(UTC) - timedelta(days=2),
        )
        add(stack, scope, old)
        session_id = open_session(stack, scope, subject)
        add(
            stack,
            scope,
            *(memory(scope, subject, t, k, session_id=session_id) for t, k in SESSION_NOTES),
        )
        end(stack, scope, session_id)


def consolidated(stack: Stack, tenant: str) -> int:
    with stack.engine.connect() as connection:
        found: int = connection.execute(
            text("SELECT count(*) FROM sessions WHERE tenant_id = :t AND status = 'consolidated'"),
            {"t": tenant},
        ).scalar_one()
    return found


def sessions_per_second(
    server_url: str, broker_env: dict[str, str], concurrency: int, count: int
) -> dict[str, Any]:
    scope = TenantScope(f"t-{secrets.token_hex(5)}", Role.AGENT, "key:bench")
    with consolidation_stack(server_url, broker_env, prefix="scaling") as stack:
        ended_sessions(stack, scope, count)
        worker = WorkerProcess(
            stack.env,
            f"scaling-{concurrency}",
            stack.log_dir,
            pool="prefork",
            concurrency=concurrency,
        )
        try:
            worker.wait_ready(timeout=300)
            start = time.perf_counter()
            shares = CpuShares(worker.process.pid)
            wait_for(
                lambda: consolidated(stack, scope.tenant_id) == count,
                timeout=900,
                what="every session",
            )
            elapsed = time.perf_counter() - start
            shares_used = shares.stop(elapsed, count, served="worker")
        finally:
            worker.stop()
        log = worker.log()  # before the stack's directory goes
    # Celery's own runtime of each task, in the order they ended: the first ``concurrency``
    # are each pool process's first task (issue 14's warm workers: as fast as the later ones).
    runtimes = [float(found) for found in TASK_RUNTIME.findall(log)]
    later = runtimes[concurrency : concurrency + 20]
    return {
        "broker": broker_name(broker_env),
        "concurrency": concurrency,
        "sessions_per_second": round(count / elapsed, 1),
        "worker_cpu_ms_per_session": shares_used["cpu_ms_per_unit"]["worker"],
        "postgres_cpu_ms_per_session": shares_used["cpu_ms_per_unit"]["postgres"],
        "cpu": shares_used,
        "first_task_ms": [round(value * 1000, 1) for value in runtimes[:concurrency]],
        "next_20_tasks_p50_ms": round(statistics.median(later) * 1000, 1) if later else None,
        "load_average": round(os.getloadavg()[0], 1),
    }


def tasks_per_second(server_url: str, broker_env: dict[str, str], count: int) -> dict[str, Any]:
    """No-op tasks through the broker: send ``count``, then time a worker draining them."""
    with consolidation_stack(server_url, broker_env, prefix="scaling") as stack:
        start = time.perf_counter()
        for _ in range(count):
            stack.app.send_task(WORKER_PROCESS)
        send_seconds = time.perf_counter() - start
        worker = WorkerProcess(
            stack.env, "scaling-noop", stack.log_dir, pool="prefork", concurrency=2
        )
        try:
            worker.wait_ready(timeout=300)
            start = time.perf_counter()
            wait_for(lambda: worker.succeeded() >= count, timeout=600, what="the no-op tasks")
            elapsed = time.perf_counter() - start
        finally:
            worker.stop()
    return {
        "broker": broker_name(broker_env),
        "sent_per_second": round(count / send_seconds),
        "drained_per_second": round(count / elapsed),
        "load_average": round(os.getloadavg()[0], 1),
    }


# --- a server process's first requests against its next twenty ---------------------------


def first_requests(backend: Backend, following: int = 20) -> dict[str, Any]:
    """A fresh ``serve --workers 1``: each hot request's first run, then the p50 of the next
    ``following``, timed by the client (one keep-alive connection, HTTP included). The key
    is made in the database, so no request reaches the server before these."""
    engine = create_engine_for(backend.url)
    _, key = SqlKeyStore(engine, SystemClock()).create(f"bench-{secrets.token_hex(3)}", Role.AGENT)
    engine.dispose()
    source = notes()
    timings: dict[str, list[float]] = {"open": [], "save": [], "render": []}
    env = {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
    with (
        server_process(backend, workers=1, extra_env=env) as base,
        httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as http,
    ):
        for _ in range(following + 1):
            subject = f"subject-{secrets.token_hex(4)}"
            start = time.perf_counter()
            opened = http.post("/v1/sessions", json={"subject_id": subject})
            timings["open"].append(time.perf_counter() - start)
            opened.raise_for_status()
            session_id = opened.json()["session_id"]
            start = time.perf_counter()
            saved = http.post(f"/v1/sessions/{session_id}/notes", json=next(source))
            timings["save"].append(time.perf_counter() - start)
            assert saved.json()["status"] == "saved", saved.text
            start = time.perf_counter()
            rendered = http.get(
                f"/v1/subjects/{subject}/context", params={"session_id": session_id}
            )
            timings["render"].append(time.perf_counter() - start)
            rendered.raise_for_status()
    row: dict[str, Any] = {"backend": backend.name}
    for name, found in timings.items():
        row[f"{name}_first_ms"] = round(found[0] * 1000, 1)
        row[f"{name}_next_{following}_p50_ms"] = round(statistics.median(found[1:]) * 1000, 1)
    row["load_average"] = round(os.getloadavg()[0], 1)
    return row


def broker_name(broker_env: dict[str, str]) -> str:
    return "rabbitmq" if broker_env.get("CELERY_BROKER_URL", "").startswith("amqp") else "redis"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=400, help="notes per server measurement")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sessions", type=int, default=120, help="sessions per worker measurement")
    parser.add_argument("--tasks", type=int, default=1000, help="no-op tasks per broker")
    parser.add_argument("--postgres-url", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_PG))
    parser.add_argument(
        "--skip", nargs="*", default=(), choices=("serve", "first", "workers", "brokers")
    )
    parser.add_argument(
        "--cold", action="store_true", help="start workers and servers without the warm-up"
    )
    args = parser.parse_args()
    if args.cold:
        os.environ[WARM_SWITCH] = "0"  # inherited by every worker and server started below
    results: dict[str, list[dict[str, Any]]] = {}
    if "serve" not in args.skip:
        results["serve"] = []
        for workers in (1, 2):
            with postgres_backend(args.postgres_url) as backend:
                results["serve"].append(
                    notes_per_second(backend, workers, args.clients, args.notes // args.clients)
                )
                print(json.dumps(results["serve"][-1]), flush=True)
    if "first" not in args.skip:
        with postgres_backend(args.postgres_url) as backend:
            results["first"] = [first_requests(backend)]
        print(json.dumps(results["first"][-1]), flush=True)
    redis = {"CELERY_BROKER_URL": REDIS}
    if "workers" not in args.skip:
        results["workers"] = []
        for concurrency in (1, 2):
            results["workers"].append(
                sessions_per_second(args.postgres_url, redis, concurrency, args.sessions)
            )
            print(json.dumps(results["workers"][-1]), flush=True)
    if "brokers" not in args.skip:
        results["brokers"] = []
        for broker in (redis, {"CELERY_BROKER_URL": AMQP}):
            row = tasks_per_second(args.postgres_url, broker, args.tasks)
            row |= sessions_per_second(args.postgres_url, broker, 2, args.sessions)
            results["brokers"].append(row)
            print(json.dumps(results["brokers"][-1]), flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
