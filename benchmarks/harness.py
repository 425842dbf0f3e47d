"""What the latency and scaling benchmarks share: backends, timing, servers, clients, stacks.

- backends: a migrated SQLite file or a scratch PostgreSQL database, and the environment a
  container or a server process is built from (:func:`env_for`); the command-line switches
  that choose them (:func:`add_backend_arguments`, :func:`chosen_backends`);
- timing: :func:`timed_calls`, :func:`percentile`, CPU seconds of a live process and of its
  children from /proc (:func:`cpu_seconds`, :func:`tree_cpu_seconds`);
- a server in its own process (:func:`server_process`: uvicorn with a chosen app, or the real
  ``memory-service serve --workers N``), and notes to send it (:func:`notes`,
  :func:`open_http_session`, :func:`post_note`, :func:`run_clients`);
- a consolidation stack (:func:`consolidation_stack`): a scratch PostgreSQL service, a Celery
  app and queue on a broker, a unit-of-work factory, for the worker benchmarks.

    Used by save_note.py, hot_paths.py, http_floor.py, scaling.py and worker_recovery.py.
"""

from __future__ import annotations

import argparse
import base64
import itertools
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from memory_service.adapters import migrate
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from tests.integration.test_consolidation_worker import Stack, celery_queue
from tests.support.loopback import free_port
from tests.support.scratch_database import (
    keyring_for,
    scratch_postgres_database,
    scratch_postgres_service,
)

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"

# --- backends ---------------------------------------------------------------------------


@dataclass
class Backend:
    name: str
    url: str
    home: Path


@contextmanager
def sqlite_backend() -> Iterator[Backend]:
    with tempfile.TemporaryDirectory(prefix="bench-notes-") as home:
        url = f"sqlite:///{Path(home) / 'memory.db'}"
        migrate.upgrade(url)
        yield Backend("SQLite", url, Path(home))


@contextmanager
def postgres_backend(server_url: str) -> Iterator[Backend]:
    with (
        scratch_postgres_database(server_url, prefix="ms_bench") as url,
        tempfile.TemporaryDirectory(prefix="bench-notes-") as home,
    ):
        yield Backend("PostgreSQL", url, Path(home))


def env_for(backend: Backend) -> dict[str, str]:
    env = {"MEMORY_SERVICE_HOME": str(backend.home), "DATABASE_URL": backend.url}
    if not backend.url.startswith("sqlite"):
        # The key store apart from the data (a file is enough here), and a given master key.
        env["KEYSTORE_URL"] = f"sqlite:///{backend.home / 'keys.db'}"
        env["MEMORY_SERVICE_MASTER_KEY"] = base64.b64encode(b"b" * 32).decode()
    return env


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--postgres-url", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_PG))
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")


def chosen_backends(args: argparse.Namespace) -> Iterator[Backend]:
    """Each backend the switches of :func:`add_backend_arguments` keep, set up in turn."""
    if not args.no_sqlite:
        with sqlite_backend() as backend:
            yield backend
    if not args.no_postgres:
        with postgres_backend(args.postgres_url) as backend:
            yield backend


# --- timing -----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def p50_p99(values: list[float]) -> tuple[float, float]:
    return percentile(values, 0.5), percentile(values, 0.99)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def timed_calls(calls: int, call: Callable[[int], Any]) -> list[float]:
    durations = []
    for index in range(calls):
        start = time.perf_counter()
        call(index)
        durations.append(time.perf_counter() - start)
    return durations


def cpu_seconds(pid: int) -> float:
    """User + system CPU a live process (all its threads) has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its live children (server workers, pool processes)."""
    total = cpu_seconds(pid)
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else ():
        with suppress(FileNotFoundError, ProcessLookupError):
            total += tree_cpu_seconds(int(child))
    return total


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


# --- notes and a server -----------------------------------------------------------------

_COLOURS = ("red", "blue", "green", "black", "white", "grey", "navy", "amber", "teal", "olive")
_THINGS = ("mugs", "scarves", "notebooks", "umbrellas", "backpacks", "lamps", "pens", "socks")
_USES = ("work", "travel", "hiking", "reading", "cooking", "running", "gifts", "school", "winter")
_STYLES = ("plain", "striped", "matte", "glossy", "woven", "knitted", "leather", "linen")


def notes() -> Iterator[dict[str, Any]]:
    """Distinct durable notes every guard accepts (checked: the benchmarks fail otherwise)."""
    for style, colour, thing, use in itertools.product(_STYLES, _COLOURS, _THINGS, _USES):
        yield {"text": f"Prefers {style} {colour} {thing} for {use}.", "keywords": [thing]}


SERVER_PIDS: dict[str, int] = {}
"""Base URL to the pid of the server process serving it (for :func:`cpu_seconds`)."""


def listening_sockets(port: int) -> int:
    """How many sockets listen on TCP ``port`` on this machine (Linux ``/proc``; 0 elsewhere)."""
    count = 0
    for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")):
        if table.exists():
            for line in table.read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                    count += 1  # 0A: LISTEN
    return count


@contextmanager
def server_process(
    backend: Backend,
    *,
    args: Sequence[str] = (),
    extra_env: Mapping[str, str] | None = None,
    app: str = "memory_service.api.asgi:create_default_app",
    health: str | None = "/healthz",
    workers: int | None = None,
) -> Iterator[str]:
    """A server in its own process; yields the base URL once it answers.

    ``uvicorn`` serving ``app`` (a factory when ``health`` is set) with ``args``; or, with
    ``workers``, the real ``memory-service serve --workers N`` (warm models, TCP_NODELAY).
    """
    port = free_port()
    if workers is not None:
        command = [str(Path(sys.executable).with_name("memory-service")), "serve"]
        command += ["--port", str(port), "--workers", str(workers)]
    else:
        command = [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1"]
        command += ["--port", str(port), "--log-level", "warning", "--no-access-log", *args]
        if health is not None:
            command.append("--factory")
    process = subprocess.Popen(
        command,
        env=os.environ | env_for(backend) | dict(extra_env or {}),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a loaded machine loads the models slowly
        while True:
            try:
                if httpx.get(f"{base}{health or '/'}", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the benchmark server did not start")
            time.sleep(0.1)
        if workers is not None and workers > 1:
            # Each server process binds its own listening socket (SO_REUSEPORT) once its app
            # has started: connections opened before the last one listens all go to the others.
            while listening_sockets(port) < workers and time.monotonic() < deadline:
                time.sleep(0.1)
        SERVER_PIDS[base] = process.pid
        yield base
    finally:
        SERVER_PIDS.pop(base, None)
        process.terminate()
        process.wait(timeout=30)


def open_http_session(client: httpx.Client) -> str:
    response = client.post("/v1/sessions", json={"subject_id": f"subject-{secrets.token_hex(4)}"})
    response.raise_for_status()
    session_id: str = response.json()["session_id"]
    return session_id


def post_note(client: httpx.Client, session_id: str, note: dict[str, Any]) -> None:
    response = client.post(f"/v1/sessions/{session_id}/notes", json=note)
    assert response.status_code == 200 and response.json()["status"] == "saved", response.text


def run_clients(clients: int, prepare: Callable[[], Callable[[], None]]) -> float:
    """``clients`` threads: each runs ``prepare()`` (its connection, session, warm-up), then
    all start together on the work it returned; the seconds from that start to the last end.
    A client's error is raised here (a thread's would only be printed, and the figure kept)."""
    barrier = threading.Barrier(clients + 1)
    errors: list[BaseException] = []

    def client() -> None:
        try:
            work = prepare()
            barrier.wait()
            work()
        except BaseException as error:
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    with suppress(threading.BrokenBarrierError):
        barrier.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - start


# --- a consolidation stack --------------------------------------------------------------


@contextmanager
def consolidation_stack(server_url: str, env: Mapping[str, str], *, prefix: str) -> Iterator[Stack]:
    """A scratch PostgreSQL service (data and key store), a Celery app and queue on the
    broker ``env`` names, and a unit-of-work factory on the data database."""
    with ExitStack() as stack:
        service = stack.enter_context(scratch_postgres_service(server_url))
        home = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"bench-{prefix}-"))
        full_env = {
            **service,
            **env,
            "MEMORY_SERVICE_HOME": home,
            "MEMORY_SERVICE_CELERY_NAMESPACE": f"ms-{prefix}-{secrets.token_hex(4)}",
        }
        engine = create_engine_for(service["DATABASE_URL"])
        stack.callback(engine.dispose)
        app, queue = celery_queue(full_env)
        yield Stack(
            full_env,
            engine,
            SqlUnitOfWorkFactory(engine, keyring_for(full_env)),
            app,
            queue,
            Path(home),
        )
