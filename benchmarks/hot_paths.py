"""Each hot request's statements, p50 and p99 against its floor, in-process and over HTTP.

For SQLite (a file, the embedded default) and PostgreSQL (a scratch database), in one run,
the five requests of issue 14's table:

- save a note (saved), save a note ``dry_run``, save a note refused for PII, render the
  context, open a session;
- statements and commits of one request, counted on the engine
  (``memory_service/adapters/statement_counter.py``) after warm-up: the round trips;
- p50/p99 in-process (the service call) and over HTTP (a real uvicorn process on loopback,
  one keep-alive client, the API key answered by the server's key cache after the first);
- the floor: for a save, the guards alone plus a bare INSERT of the same memory row in its
  own transaction; for a dry run and a refusal, the guards alone; for a render, a bare
  indexed SELECT of the subject's global rows (the candidate query, no decryption); for
  opening a session, none (it is only writes). ``x floor`` is each p50 over the floor's.

    .venv/bin/python -m benchmarks.hot_paths
    .venv/bin/python -m benchmarks.hot_paths --calls 100 --no-postgres  # quicker
"""

from __future__ import annotations

import argparse
import itertools
import logging
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
from sqlalchemy import text

from benchmarks.harness import (
    Backend,
    add_backend_arguments,
    chosen_backends,
    env_for,
    load,
    ms,
    notes,
    p50_p99,
    percentile,
    server_process,
    timed_calls,
)
from benchmarks.http_floor import SEED
from benchmarks.save_note import bench_bare_insert
from memory_service.adapters.statement_counter import StatementCount, count_statements
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.guards import validate_note
from memory_service.core.model import NoteStatus, Role
from memory_service.core.scope import TenantScope
from memory_service.services.context import render_context
from memory_service.services.notes import save_memory_note
from memory_service.services.sessions import open_session

PII_NOTE = {"text": "Her e-mail address is jane.doe@example.com."}
BARE_SELECT = text(
    "SELECT * FROM memories WHERE tenant_id = :tenant AND subject_id = :subject "
    "AND status = 'active' AND scope = 'global' ORDER BY updated_at DESC, id DESC LIMIT 6"
)


@dataclass
class Measured:
    request: str
    statements: StatementCount
    in_process: tuple[float, float]
    http: tuple[float, float]
    floor: float | None


class Subject:
    """A subject with a few saved notes and an open session, for one tenant."""

    def __init__(self, container: Container, tenant: str) -> None:
        self.container = container
        self.scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
        self.id = f"subject-{secrets.token_hex(4)}"
        self.session_id = open_session(
            self.scope, self.id, uow_factory=container.uow_factory, clock=container.clock
        ).id
        for note in SEED:
            saved = save_memory_note(
                self.scope, self.session_id, {"text": note}, deps=container.notes
            )
            assert saved.status is NoteStatus.SAVED, saved


def in_process_calls(
    subject: Subject, source: Iterator[dict[str, Any]]
) -> dict[str, Callable[[], object]]:
    c, scope = subject.container, subject.scope

    def save(note: dict[str, Any], expected: NoteStatus, *, dry_run: bool = False) -> object:
        result = save_memory_note(scope, subject.session_id, note, dry_run=dry_run, deps=c.notes)
        assert result.status is expected, result
        return result

    return {
        "save a note (saved)": lambda: save(next(source), NoteStatus.SAVED),
        "save a note, dry_run": lambda: save(next(source), NoteStatus.SAVED, dry_run=True),
        "save refused for PII": lambda: save(dict(PII_NOTE), NoteStatus.REJECTED),
        "render the context": lambda: render_context(scope, subject.id, deps=c.context),
        "open a session": lambda: open_session(
            scope, subject.id, uow_factory=c.uow_factory, clock=c.clock
        ),
    }


def http_calls(
    subject: Subject, source: Iterator[dict[str, Any]]
) -> dict[str, Callable[[httpx.Client], object]]:
    notes_path = f"/v1/sessions/{subject.session_id}/notes"

    def post(client: httpx.Client, body: dict[str, Any], status: str, query: str = "") -> object:
        response = client.post(notes_path + query, json=body)
        assert response.status_code == 200 and response.json()["status"] == status, response.text
        return response

    def get(client: httpx.Client, path: str, *, method: str = "GET", body: object = None) -> object:
        response = client.request(method, path, json=body)
        assert response.status_code in (200, 201), response.text
        return response

    return {
        "save a note (saved)": lambda c: post(c, next(source), "saved"),
        "save a note, dry_run": lambda c: post(c, next(source), "saved", "?dry_run=true"),
        "save refused for PII": lambda c: post(c, dict(PII_NOTE), "rejected"),
        "render the context": partial(get, path=f"/v1/subjects/{subject.id}/context"),
        "open a session": partial(
            get, path="/v1/sessions", method="POST", body={"subject_id": subject.id}
        ),
    }


def floors(container: Container, subject: Subject, calls: int) -> dict[str, float | None]:
    sample = list(itertools.islice(notes(), 2000, 2000 + calls))
    for note in sample[:20]:
        validate_note(note, pii=container.pii, identifiers=container.identifiers)
    guards = percentile(
        timed_calls(
            calls,
            lambda i: validate_note(
                sample[i], pii=container.pii, identifiers=container.identifiers
            ),
        ),
        0.5,
    )
    insert = percentile(bench_bare_insert(container, subject.scope.tenant_id, calls), 0.5)
    with container.engine.connect() as connection:
        params = {"tenant": subject.scope.tenant_id, "subject": subject.id}
        select = percentile(
            timed_calls(calls, lambda _: connection.execute(BARE_SELECT, params).all()), 0.5
        )
    return {
        "save a note (saved)": guards + insert,
        "save a note, dry_run": guards,
        "save refused for PII": guards,
        "render the context": select,
        "open a session": None,
    }


def run_backend(backend: Backend, calls: int) -> list[Measured]:
    env = env_for(backend) | {"MEMORY_SERVICE_NOTES_RATE_PER_MINUTE": "0"}
    container = build_container(Settings.from_env(env))
    tenant = f"bench-{secrets.token_hex(3)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    subject = Subject(container, tenant)
    source = notes()
    results: dict[str, Measured] = {}
    for name, call in in_process_calls(subject, source).items():
        for _ in range(10):
            call()
        with count_statements(container.engine) as counted:
            call()
        durations = timed_calls(calls, lambda _, c=call: c())
        results[name] = Measured(name, counted, p50_p99(durations), (0.0, 0.0), None)
    for name, floor in floors(container, subject, calls).items():
        results[name].floor = floor
    container.engine.dispose()
    with (
        server_process(backend, extra_env=env) as base,
        httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as client,
    ):
        for name, hcall in http_calls(subject, source).items():
            for _ in range(10):
                hcall(client)
            results[name].http = p50_p99(timed_calls(calls, lambda _, h=hcall: h(client)))
    return list(results.values())


def report(backend: str, rows: list[Measured], calls: int) -> None:
    print(f"\n{backend}: {calls} requests each (ms); {load()}")
    header = (
        f"  {'request':<22}{'stmts':>6}{'commits':>8}{'floor':>8}"
        f"{'in-proc p50':>12}{'p99':>8}{'x floor':>8}{'HTTP p50':>10}{'p99':>8}{'x floor':>8}"
    )
    print(header)
    for r in rows:
        floor = ms(r.floor) if r.floor else "-"

        def ratio(value: float, floor_: float | None = r.floor) -> str:
            return f"{value / floor_:.1f}" if floor_ else "-"

        print(
            f"  {r.request:<22}{r.statements.statements:>6}{r.statements.commits:>8}{floor:>8}"
            f"{ms(r.in_process[0]):>12}{ms(r.in_process[1]):>8}{ratio(r.in_process[0]):>8}"
            f"{ms(r.http[0]):>10}{ms(r.http[1]):>8}{ratio(r.http[0]):>8}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="requests per measurement")
    add_backend_arguments(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    for backend in chosen_backends(args):
        report(backend.name, run_backend(backend, args.calls), args.calls)


if __name__ == "__main__":
    main()
