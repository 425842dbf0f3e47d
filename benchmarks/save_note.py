"""Save latency of ``save_memory_note``, in-process and over HTTP, against a bare INSERT.

For SQLite (a file, the embedded default) and PostgreSQL (a scratch database), in one run:

- in-process: p50/p99 of the service call (guards with Presidio, session load, subject lock,
  duplicate lookup, sealing, insert, audit event, commit), each note new;
- bare INSERT: the same memory row (same columns, same ciphertext size) inserted alone in
  its own transaction: the floor the service is compared with;
- HTTP: p50/p99 of ``POST /v1/sessions/{id}/notes`` to a real uvicorn server process on
  loopback, one keep-alive client; then notes/s with 1, 4 and 16 concurrent clients (threads,
  each on its own subject);
- warm start: the first request after the server is up against the hundredth (the spaCy
  model and the Presidio engine load at start, not on the first note);
- guards: p50 of the guards alone (``validate_note``) and of the privacy layers added by
  issue 10 alone (normalisation, shape readers on the normalised note, the library
  identifier detector), on the benchmark's notes and on 1,000 generated notes
  (``tests/support/privacy_corpus.py``, seed 7), beside the in-process save p50.

    .venv/bin/python -m benchmarks.save_note
    .venv/bin/python -m benchmarks.save_note --notes 100 --no-postgres  # quicker
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import secrets
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from sqlalchemy import Engine, text

from benchmarks.harness import (
    Backend,
    add_backend_arguments,
    chosen_backends,
    env_for,
    ms,
    notes,
    open_http_session,
    percentile,
    post_note,
    run_clients,
    server_process,
    timed_calls,
)
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.guards import validate_note
from memory_service.core.model import NoteStatus, Role
from memory_service.core.privacy.identifiers import candidate_codes, identifier_types
from memory_service.core.privacy.normalise import normalise
from memory_service.core.privacy.secrets import format_kinds, secret_kinds
from memory_service.core.scope import TenantScope
from memory_service.services.notes import save_memory_note
from memory_service.services.sessions import open_session

CLIENTS = (1, 4, 16)


def bench_in_process(
    container: Container, tenant: str, source: Iterator[dict[str, Any]], calls: int
) -> list[float]:
    scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
    session = open_session(
        scope,
        f"subject-{secrets.token_hex(4)}",
        uow_factory=container.uow_factory,
        clock=container.clock,
    )

    def call(_: int) -> None:
        result = save_memory_note(scope, session.id, next(source), deps=container.notes)
        assert result.status is NoteStatus.SAVED, result

    return timed_calls(calls, call)


def bench_bare_insert(container: Container, tenant: str, calls: int) -> list[float]:
    """One memory row per transaction, as the service writes it, with nothing else."""
    return timed_calls(calls, bare_insert(container, tenant))


def bare_insert(
    container: Container, tenant: str, subject: str | None = None, engine: Engine | None = None
) -> Callable[[int], None]:
    """A call inserting one memory row (a copy of one of ``subject``'s, else of any of
    ``tenant``'s subjects, with a fresh id, ciphertext and fingerprint of the same size) in
    its own transaction: the floor of a save."""
    subject = subject or _any_subject(container, tenant)
    with container.uow_factory(tenant) as uow:
        [sample] = uow.memories.list_for_subject(subject, limit=1)
    engine = engine or container.engine
    with engine.connect() as connection:
        row = (
            connection.execute(text("SELECT * FROM memories WHERE id = :id"), {"id": sample.id})
            .mappings()
            .one()
        )
    columns = [name for name in row if name != "id"]
    statement = text(
        f"INSERT INTO memories (id, {', '.join(columns)}) "
        f"VALUES (:id, {', '.join(':' + name for name in columns)})"
    )
    values = dict(row)
    if isinstance(values["provenance"], dict):
        values["provenance"] = json.dumps(values["provenance"])
    size = len(values["ciphertext"])

    def call(_: int) -> None:
        with engine.begin() as connection:
            connection.execute(
                statement,
                values
                | {
                    "id": str(uuid.uuid4()),
                    "ciphertext": os.urandom(size),
                    "text_fingerprint": secrets.token_hex(32),
                },
            )

    return call


def _any_subject(container: Container, tenant: str) -> str:
    with container.engine.connect() as connection:
        subject: str = connection.execute(
            text("SELECT subject_id FROM memories WHERE tenant_id = :t LIMIT 1"), {"t": tenant}
        ).scalar_one()
    return subject


def bench_http(
    base: str, key: str, source: Iterator[dict[str, Any]], calls: int
) -> tuple[list[float], dict[int, float]]:
    lock = threading.Lock()

    def next_note() -> dict[str, Any]:
        with lock:
            return next(source)

    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        session_id = open_http_session(client)
        latencies = timed_calls(calls, lambda _: post_note(client, session_id, next_note()))

    throughput = {}
    for clients in CLIENTS:
        throughput[clients] = _notes_per_second(
            base, headers, clients, max(calls // clients, 4), next_note
        )
    return latencies, throughput


def _notes_per_second(
    base: str,
    headers: dict[str, str],
    clients: int,
    per_client: int,
    next_note: Callable[[], dict[str, Any]],
) -> float:
    """``clients`` threads, each with its own connection and subject, started together."""

    def prepare() -> Callable[[], None]:
        client = httpx.Client(base_url=base, headers=headers, timeout=60)
        session_id = open_http_session(client)

        def work() -> None:
            # Already opened by the session request: closed here, not entered a second time.
            try:
                for _ in range(per_client):
                    post_note(client, session_id, next_note())
            finally:
                client.close()

        return work

    return clients * per_client / run_clients(clients, prepare)


def bench_first_request(
    base: str, key: str, source: Iterator[dict[str, Any]]
) -> tuple[float, float]:
    """The first note a fresh server saves (with a fresh connection), and its hundredth."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        session_id = open_http_session(client)
        durations = timed_calls(100, lambda _: post_note(client, session_id, next(source)))
    return durations[0], durations[99]


def bench_guards(container: Container, notes_: list[dict[str, Any]]) -> tuple[float, float]:
    """p50 of the whole guards and of the privacy layers issue 10 added, per note."""
    library = container.identifiers

    def layers(note: dict[str, Any]) -> None:
        views = normalise(str(note["text"]), tuple(note.get("keywords", ())))
        identifier_types(views.note)
        library.identifier_types(views.note, candidate_codes(views.note))
        secret_kinds(views.note)
        format_kinds(views.glued)

    def guards(note: dict[str, Any]) -> None:
        validate_note(note, pii=container.pii, identifiers=library)

    for note in notes_[:20]:  # warm the caches and the regex engine
        guards(note)
    whole = timed_calls(len(notes_), lambda i: guards(notes_[i]))
    added = timed_calls(len(notes_), lambda i: layers(notes_[i]))
    return percentile(whole, 0.5), percentile(added, 0.5)


def generated_notes() -> list[dict[str, Any]]:
    from tests.support.privacy_corpus import generate

    keys = ("text", "keywords", "durability", "source")
    return [{k: row[k] for k in keys} for row in generate(1000, 7)]


def run_backend(backend: Backend, calls: int) -> dict[str, Any]:
    source = notes()
    container = build_container(Settings.from_env(env_for(backend)))
    tenant = f"bench-{secrets.token_hex(3)}"
    _, key = container.keys.create(tenant, Role.AGENT)
    in_process = bench_in_process(container, tenant, source, calls)
    plain = list(itertools.islice(notes(), calls))
    guards_plain = bench_guards(container, plain)
    guards_generated = bench_guards(container, generated_notes())
    bare = bench_bare_insert(container, tenant, calls)
    container.engine.dispose()
    with server_process(backend) as base:
        first, hundredth = bench_first_request(base, key, source)
        http, throughput = bench_http(base, key, source, calls)
    bare_p50, bare_p99 = percentile(bare, 0.5), percentile(bare, 0.99)
    return {
        "backend": backend.name,
        "bare": (bare_p50, bare_p99),
        "in_process": (percentile(in_process, 0.5), percentile(in_process, 0.99)),
        "http": (percentile(http, 0.5), percentile(http, 0.99)),
        "ratio_in_process": percentile(in_process, 0.5) / bare_p50,
        "ratio_http": percentile(http, 0.5) / bare_p50,
        "throughput": throughput,
        "first": first,
        "hundredth": hundredth,
        "guards_plain": guards_plain,
        "guards_generated": guards_generated,
    }


def report(results: list[dict[str, Any]], calls: int) -> None:
    print(f"\nsave_memory_note latency, {calls} notes each (ms; ratio = p50 / bare INSERT p50)")
    header = f"{'backend':<12}{'path':<14}{'p50':>9}{'p99':>9}{'x bare':>9}"
    print(header)
    print("-" * len(header))
    for r in results:
        bare = f"{ms(r['bare'][0]):>9}{ms(r['bare'][1]):>9}"
        print(f"{r['backend']:<12}{'bare INSERT':<14}{bare}{'1.0':>9}")
        print(
            f"{'':<12}{'in-process':<14}{ms(r['in_process'][0]):>9}{ms(r['in_process'][1]):>9}"
            f"{r['ratio_in_process']:>9.1f}"
        )
        print(
            f"{'':<12}{'HTTP':<14}{ms(r['http'][0]):>9}{ms(r['http'][1]):>9}{r['ratio_http']:>9.1f}"
        )
    print("\nnotes/s over HTTP (uvicorn, one process) with concurrent clients")
    header = f"{'backend':<12}" + "".join(f"{f'{c} client(s)':>14}" for c in CLIENTS)
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r['backend']:<12}" + "".join(f"{r['throughput'][c]:>14.0f}" for c in CLIENTS))
    print("\nwarm start: first note after the server is up vs the hundredth (ms)")
    for r in results:
        print(f"{r['backend']:<12}first {ms(r['first'])}   hundredth {ms(r['hundredth'])}")
    print("\nguards per note, p50 (ms): whole guards, privacy layers of issue 10, in-process save")
    for r in results:
        for label, (whole, added) in (
            ("benchmark notes", r["guards_plain"]),
            ("generated notes", r["guards_generated"]),
        ):
            print(
                f"{r['backend']:<12}{label:<17}guards {ms(whole)}   new layers {ms(added)}"
                f"   save {ms(r['in_process'][0])}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=100, help="notes per measurement")
    add_backend_arguments(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    results = [run_backend(backend, args.notes) for backend in chosen_backends(args)]
    report(results, args.notes)


if __name__ == "__main__":
    main()
