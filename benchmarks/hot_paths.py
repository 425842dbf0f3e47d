"""Each hot request's statements, p50 and p99 against its floor, in-process and over HTTP.

For SQLite (a file, the embedded default) and PostgreSQL (a scratch database), in one run,
the five requests of issue 14's table:

- save a note (saved), save a note ``dry_run``, save a note refused for PII, render the
  context, open a session (a returning subject's), open a new subject's first session;
- statements and commits of one request, counted on the engine
  (``memory_service/adapters/statement_counter.py``) after warm-up: the round trips; and the
  statements sent to the key store (another database), which are round trips too;
- p50/p99 in-process (the service call) and over HTTP (a real uvicorn process on loopback,
  one keep-alive ``http.client`` connection, the API key answered by the server's key cache
  after the first);
- the HTTP floor (``x HTTP floor``): the same server, its middleware, its bearer key check
  and its thread-pool hop, answering two routes of its own (:func:`create_floor_app`): the
  guards and the bare INSERT for a save, the bare SELECT for a render; what an HTTP request
  could cost with none of our work but the database's and the guards';
- the floor: for a save, the guards alone plus a bare INSERT of the same memory row in its
  own transaction; for a dry run and a refusal, the guards alone; for a render, a bare
  indexed SELECT of the rows the render shows (on PostgreSQL both in autocommit: one
  statement, one round trip, no BEGIN nor COMMIT) (the subject's active memories: six stated
  and two inferred global ones and four session notes; no decryption); for opening a
  session, none (it is only writes). ``x floor`` is each p50 over the floor's; ``CPU`` is
  the in-process call's CPU p50 (this process), ``x floor CPU`` over the floor's CPU p50:
  what a loaded machine inflates less than wall time.

Every path is timed in every round, in a shuffled order (in-process and HTTP alike, the
floors too), so a shared machine's drift hits them all alike and each ratio compares
figures of the same rounds. The render reads a subject of its own (state, global memories,
an open session with notes) that the measured writes never touch, so it renders the same
text in every round.

    .venv/bin/python -m benchmarks.hot_paths
    .venv/bin/python -m benchmarks.hot_paths --calls 100 --no-postgres  # quicker
    .venv/bin/python -m benchmarks.hot_paths --only render  # one request and its floor
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy import Engine, text
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from benchmarks.harness import (
    Backend,
    add_backend_arguments,
    chosen_backends,
    env_for,
    load,
    ms,
    notes,
    p50_p99,
    server_process,
)
from benchmarks.http_floor import SEED, Call, PlainClient
from benchmarks.save_note import bare_insert
from memory_service.adapters.statement_counter import StatementCount, count_statements
from memory_service.api.asgi import create_default_app
from memory_service.api.hot_routes import caller
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.guards import validate_note
from memory_service.core.model import NoteStatus, Role, Source
from memory_service.core.scope import TenantScope
from memory_service.services.context import render_context
from memory_service.services.notes import save_memory_note
from memory_service.services.sessions import open_session
from memory_service.services.subjects import put_state
from tests.factories import make_memory_for

PII_NOTE = {"text": "Her e-mail address is jane.doe@example.com."}
BARE_SELECT = text(
    "SELECT * FROM memories WHERE tenant_id = :tenant AND subject_id = :subject "
    "AND status = 'active' ORDER BY updated_at DESC, id DESC LIMIT 12"
)
GLOBAL_NOTES = (
    "Prefers aisle seats on long flights.",
    "Writes in British English.",
    "Works from Lyon on Tuesdays.",
    "Has a dog called Pixel.",
    "Reads the news in French.",
    "Prefers short answers with code first.",
    "Probably plays the piano.",
    "Seems to travel for work every month.",
)
STATE = {"plan": "pro", "locale": "en-GB", "preferences": {"units": "metric", "tone": "brief"}}


@dataclass
class Measured:
    request: str
    statements: StatementCount
    key_store: int
    in_process: tuple[float, float] = (0.0, 0.0)
    http: tuple[float, float] = (0.0, 0.0)
    floor: float | None = None
    http_floor: float | None = None
    cpu: float = 0.0
    floor_cpu: float | None = None


@dataclass
class Rounds:
    """Every path's durations, one per round."""

    durations: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)

    def time(self, label: str, call: Callable[[], object]) -> None:
        cpu, start = time.process_time(), time.perf_counter()
        call()
        self.durations.setdefault(label, []).append(time.perf_counter() - start)
        self.cpu.setdefault(label, []).append(time.process_time() - cpu)

    def p50_p99(self, label: str) -> tuple[float, float]:
        return p50_p99(self.durations[label])

    def cpu_p50(self, label: str) -> float:
        """This process's CPU per call (its other threads included): the in-process paths'
        and the floors', which a loaded machine inflates less than their wall time."""
        return p50_p99(self.cpu[label])[0]


class Subjects:
    """Of one tenant: a writer (its session takes the saved notes; new sessions are opened on
    it) and a reader whose context is rendered (a state, six stated and two inferred global
    memories, an open session with four notes), which no measured request writes to."""

    def __init__(self, container: Container, tenant: str) -> None:
        self.container = container
        self.scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
        self.writer = f"writer-{secrets.token_hex(4)}"
        self.writer_session = self._session(self.writer)
        # A note of its own (the bare INSERT copies it), from past the measured ones.
        self._save(self.writer_session, next(itertools.islice(notes(), 4000, None)))
        self.reader = f"reader-{secrets.token_hex(4)}"
        self.reader_session = self._session(self.reader)
        for note in SEED:
            self._save(self.reader_session, {"text": note})
        self._seed_reader()

    def _session(self, subject: str) -> str:
        c = self.container
        return open_session(self.scope, subject, uow_factory=c.uow_factory, clock=c.clock).id

    def _save(self, session_id: str, note: dict[str, Any]) -> None:
        saved = save_memory_note(self.scope, session_id, note, deps=self.container.notes)
        assert saved.status is NoteStatus.SAVED, saved

    def _seed_reader(self) -> None:
        c = self.container
        put_state(
            self.scope,
            self.reader,
            STATE,
            uow_factory=c.uow_factory,
            clock=c.clock,
            pii=c.pii,
            identifiers=c.identifiers,
        )
        now = c.clock.now()
        with c.uow_factory(self.scope.tenant_id) as uow:
            for number, note in enumerate(GLOBAL_NOTES):
                inferred = number >= 6
                source = Source.MODEL_INFERRED if inferred else Source.USER_STATED
                at = now - timedelta(minutes=number + 1)
                uow.memories.add(
                    make_memory_for(self.scope, self.reader, note, at=at, source=source)
                )
            uow.commit()


def in_process_calls(
    subjects: Subjects, source: Iterator[dict[str, Any]]
) -> dict[str, Callable[[], object]]:
    c, scope = subjects.container, subjects.scope

    def save(note: dict[str, Any], expected: NoteStatus, *, dry_run: bool = False) -> object:
        result = save_memory_note(
            scope, subjects.writer_session, note, dry_run=dry_run, deps=c.notes
        )
        assert result.status is expected, result
        return result

    return {
        "save a note (saved)": lambda: save(next(source), NoteStatus.SAVED),
        "save a note, dry_run": lambda: save(next(source), NoteStatus.SAVED, dry_run=True),
        "save refused for PII": lambda: save(dict(PII_NOTE), NoteStatus.REJECTED),
        "render the context": lambda: render_context(
            scope, subjects.reader, session_id=subjects.reader_session, deps=c.context
        ),
        "open a session": lambda: open_session(
            scope, subjects.writer, uow_factory=c.uow_factory, clock=c.clock
        ),
        "open, new subject": lambda: open_session(
            scope, f"new-{secrets.token_hex(6)}", uow_factory=c.uow_factory, clock=c.clock
        ),
    }


def http_calls(
    subjects: Subjects, source: Iterator[dict[str, Any]], client: PlainClient
) -> dict[str, Callable[[], object]]:
    notes_path = f"/v1/sessions/{subjects.writer_session}/notes"
    context_path = f"/v1/subjects/{subjects.reader}/context?session_id={subjects.reader_session}"

    def send(call: Call, status: str | None = None) -> object:
        code, body = client.send(call)
        assert code in (200, 201), body
        assert status is None or json.loads(body)["status"] == status, body
        return body

    return {
        "save a note (saved)": lambda: send(Call("POST", notes_path, next(source)), "saved"),
        "save a note, dry_run": lambda: send(
            Call("POST", notes_path + "?dry_run=true", next(source)), "saved"
        ),
        "save refused for PII": lambda: send(Call("POST", notes_path, dict(PII_NOTE)), "rejected"),
        "render the context": lambda: send(Call("GET", context_path)),
        "open a session": lambda: send(
            Call("POST", "/v1/sessions", {"subject_id": subjects.writer})
        ),
        "open, new subject": lambda: send(
            Call("POST", "/v1/sessions", {"subject_id": f"new-{secrets.token_hex(6)}"})
        ),
    }


def bare_engine(container: Container) -> Engine:
    """One statement, one round trip on PostgreSQL: autocommit (psycopg would send a BEGIN
    first and a COMMIT or ROLLBACK after, each a round trip of its own)."""
    if container.engine.dialect.name == "postgresql":
        return container.engine.execution_options(isolation_level="AUTOCOMMIT")
    return container.engine


def bare_select(engine: Engine, tenant: str, subject: str) -> list[str]:
    """The ids of the rows a render of ``subject`` shows, by one indexed SELECT."""
    with engine.connect() as connection:
        rows = connection.execute(BARE_SELECT, {"tenant": tenant, "subject": subject}).all()
    assert len(rows) == len(GLOBAL_NOTES) + len(SEED), rows
    return [row.id for row in rows]


def floor_calls(container: Container, subjects: Subjects) -> dict[str, Callable[[], object]]:
    sample = itertools.cycle(list(itertools.islice(notes(), 5000, 5200)))
    bare = bare_engine(container)
    insert = bare_insert(container, subjects.scope.tenant_id, subjects.writer, bare)
    return {
        "guards": lambda: validate_note(
            next(sample), pii=container.pii, identifiers=container.identifiers
        ),
        "bare INSERT": lambda: insert(0),
        "bare SELECT": lambda: bare_select(bare, subjects.scope.tenant_id, subjects.reader),
    }


FLOOR_APP = "benchmarks.hot_paths:create_floor_app"
FLOOR_SELECT = "/bench/floor/select"
FLOOR_SAVE = "/bench/floor/save"


def create_floor_app() -> FastAPI:
    """The server's application with two floor routes in front (a uvicorn factory).

    Each is behind the application's middleware, the same bearer key check and the same hop
    to the thread pool as the hot routes, and answers JSON: ``GET`` :data:`FLOOR_SELECT`
    ``?subject=`` the bare indexed SELECT of a render's rows (their ids), ``POST``
    :data:`FLOOR_SAVE` ``?subject=`` the note's guards, then a bare INSERT of a copy of one of
    the subject's memories in autocommit. The fair floor of a request over HTTP: the stack
    with none of our work but the database's and the guards'."""
    app = create_default_app()
    container: Container = app.state.container
    engine = bare_engine(container)
    inserts: dict[tuple[str, str], Callable[[int], None]] = {}

    def save(tenant: str, subject: str, body: bytes) -> None:
        validate_note(json.loads(body), pii=container.pii, identifiers=container.identifiers)
        if (tenant, subject) not in inserts:
            inserts[tenant, subject] = bare_insert(container, tenant, subject, engine)
        inserts[tenant, subject](0)

    async def select_floor(request: Request) -> Response:
        _, scope = await caller(request)
        subject = request.query_params["subject"]
        ids = await run_in_threadpool(bare_select, engine, scope.tenant_id, subject)
        return Response(json.dumps({"ids": ids}), media_type="application/json")

    async def save_floor(request: Request) -> Response:
        _, scope = await caller(request)
        subject, body = request.query_params["subject"], await request.body()
        await run_in_threadpool(save, scope.tenant_id, subject, body)
        return Response(json.dumps({"status": "saved"}), media_type="application/json")

    app.router.routes[:0] = [
        Route(FLOOR_SELECT, select_floor, methods=["GET"]),
        Route(FLOOR_SAVE, save_floor, methods=["POST"]),
    ]
    return app


def http_floor_calls(
    subjects: Subjects, source: Iterator[dict[str, Any]], client: PlainClient
) -> dict[str, Callable[[], object]]:
    def send(call: Call) -> object:
        code, body = client.send(call)
        assert code == 200, body
        return body

    return {
        "HTTP guards + INSERT": lambda: send(
            Call("POST", f"{FLOOR_SAVE}?subject={subjects.writer}", next(source))
        ),
        "HTTP bare SELECT": lambda: send(Call("GET", f"{FLOOR_SELECT}?subject={subjects.reader}")),
    }


def counted(container: Container, call: Callable[[], object]) -> tuple[StatementCount, int]:
    """The statements and commits of one call, and the key store's statements."""
    key_store = container.keyring.store
    engine = getattr(key_store, "engine", None)
    with count_statements(container.engine) as found:
        if engine is None:
            call()
            return found, 0
        with count_statements(engine) as keys:
            call()
    return found, keys.statements


# The floors each request is set against.
NEEDS = {
    "save a note (saved)": ("guards", "bare INSERT"),
    "save a note, dry_run": ("guards",),
    "save refused for PII": ("guards",),
    "render the context": ("bare SELECT",),
    "open a session": (),
    "open, new subject": (),
}
# Over HTTP: the same server's floor routes (create_floor_app).
HTTP_NEEDS = {
    "save a note (saved)": "HTTP guards + INSERT",
    "render the context": "HTTP bare SELECT",
}


def run_backend(backend: Backend, calls: int, seed: int, only: str | None = None) -> list[Measured]:
    env = env_for(backend) | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
    container = build_container(Settings.from_env(env))
    tenant = f"bench-{secrets.token_hex(3)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    subjects = Subjects(container, tenant)
    source = notes()
    local = {
        name: call
        for name, call in in_process_calls(subjects, source).items()
        if only is None or only in name
    }
    results: dict[str, Measured] = {}
    for name, call in local.items():
        for _ in range(10):
            call()
        found, keys = counted(container, call)
        results[name] = Measured(name, found, keys)
    needed = {label for name in local for label in NEEDS[name]}
    needed |= {HTTP_NEEDS[name] for name in local if name in HTTP_NEEDS}
    floors = {k: v for k, v in floor_calls(container, subjects).items() if k in needed}
    with server_process(backend, extra_env=env, app=FLOOR_APP) as base:
        client = PlainClient(base, {"Authorization": f"Bearer {key}"})
        remote = http_calls(subjects, source, client)
        paths = {f"{name}|in-process": call for name, call in local.items()}
        paths |= {f"{name}|HTTP": call for name, call in remote.items() if name in local}
        http_floors = http_floor_calls(subjects, source, client).items()
        paths |= floors | {k: v for k, v in http_floors if k in needed}
        for call in paths.values():
            for _ in range(10):
                call()
        rounds, order, shuffle = Rounds(), list(paths), random.Random(seed).shuffle
        for _ in range(calls):
            shuffle(order)
            for label in order:
                rounds.time(label, paths[label])
        client.close()
    assert container.manifests is not None
    container.manifests.close()
    container.engine.dispose()
    wall = {label: rounds.p50_p99(label)[0] for label in needed}
    cpu = {label: rounds.cpu_p50(label) for label in floors}
    for name, measured in results.items():
        measured.in_process = rounds.p50_p99(f"{name}|in-process")
        measured.http = rounds.p50_p99(f"{name}|HTTP")
        measured.cpu = rounds.cpu_p50(f"{name}|in-process")
        if name in HTTP_NEEDS:
            measured.http_floor = wall[HTTP_NEEDS[name]]
        if NEEDS[name]:
            measured.floor = sum(wall[label] for label in NEEDS[name])
            measured.floor_cpu = sum(cpu[label] for label in NEEDS[name])
    print(
        "  floors, p50 ms: "
        + ", ".join(f"{k} {ms(v)}" for k, v in wall.items())
        + "; CPU p50 ms: "
        + ", ".join(f"{k} {ms(v)}" for k, v in cpu.items())
    )
    return list(results.values())


def report(backend: str, rows: list[Measured], calls: int) -> None:
    print(
        f"\n{backend}: {calls} rounds, every path once a round in a shuffled order (ms); {load()}"
    )
    header = (
        f"  {'request':<22}{'stmts':>6}{'commits':>8}{'keys':>5}{'floor':>8}"
        f"{'in-proc p50':>12}{'p99':>8}{'x floor':>8}{'HTTP p50':>10}{'p99':>8}{'x floor':>8}"
        f"{'CPU':>7}{'x floor CPU':>12}{'HTTP floor':>11}{'x HTTP floor':>13}"
    )
    print(header)
    for r in rows:
        floor = ms(r.floor) if r.floor else "-"

        def ratio(value: float, floor_: float | None = r.floor) -> str:
            return f"{value / floor_:.1f}" if floor_ else "-"

        print(
            f"  {r.request:<22}{r.statements.statements:>6}{r.statements.commits:>8}"
            f"{r.key_store:>5}{floor:>8}"
            f"{ms(r.in_process[0]):>12}{ms(r.in_process[1]):>8}{ratio(r.in_process[0]):>8}"
            f"{ms(r.http[0]):>10}{ms(r.http[1]):>8}{ratio(r.http[0]):>8}"
            f"{ms(r.cpu):>7}{ratio(r.cpu, r.floor_cpu):>12}"
            f"{ms(r.http_floor) if r.http_floor else '-':>11}"
            f"{ratio(r.http[0], r.http_floor):>13}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="rounds (requests per path)")
    parser.add_argument("--seed", type=int, default=14, help="of the rounds' shuffled orders")
    parser.add_argument(
        "--only", help="only the requests whose name holds this (e.g. render), and their floors"
    )
    add_backend_arguments(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    for backend in chosen_backends(args):
        print(f"\n{backend.name}: {load()} at the start")
        measured = run_backend(backend, args.calls, args.seed, args.only)
        report(backend.name, measured, args.calls)


if __name__ == "__main__":
    main()
