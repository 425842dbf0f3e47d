"""Consolidation throughput and LLM cost, and how both grow with the subject's global memory.

For each size of a subject's global memory (10, 100, 1,000, 10,000 active memories,
sealed and bulk-loaded), the same kind of session is consolidated again and again through
the real service (``services.consolidation.consolidate_session``, in-process) on SQLite and
on PostgreSQL:

- without an LLM: sessions consolidated per second, and this process's CPU time per session
  (on a shared host the rate follows the other load; the CPU time much less);
- with the fake OpenAI-compatible server on loopback and the real ``openai`` client: sessions
  per second, LLM calls per session, pairs judged per session, and request tokens per session
  (counted with tiktoken over the messages sent, since the fake server's usage is canned).

Each session holds six notes: a newer editor (a conflict), a paraphrase of a stored
preference (same meaning), a duplicate pair, an ephemeral note and a session-only note.
The filler memories share a number with some notes, so at 10,000 about a hundred of them
share a term with a note and the per-note bound of the term index is reached. Every
global carries a sealed vector of the shipped static embedding, so the timings include the
search by meaning (unsealing the subject's vectors and ranking them in memory), looking up,
loading and decrypting the candidates both searches offer ("globals loaded"), which must
not grow with the memory; neither must the LLM request, since only candidate pairs are
sent (all of them: no cap), with the notes to check.

    /work/venv/bin/python -m benchmarks.consolidation
    /work/venv/bin/python -m benchmarks.consolidation --sizes 10 1000 --sessions 5  # quicker
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session as DbSession

from memory_service.adapters import migrate
from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for, normalize_database_url
from memory_service.adapters.sql.convert import memory_columns
from memory_service.adapters.sql.subjects import SubjectKeys
from memory_service.adapters.sql.terms import term_rows
from memory_service.adapters.sql.vectors import seal_vector
from memory_service.adapters.static_embedding import WordLlamaEmbedder
from memory_service.adapters.tables import MemoryRow, MemoryTermRow
from memory_service.adapters.tiktoken_counter import TiktokenCounter
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.bootstrap import build_judge
from memory_service.config import Settings
from memory_service.core.clock import new_id
from memory_service.core.consolidation import Judge
from memory_service.core.model import (
    Durability,
    Memory,
    MemoryScope,
    Provenance,
    Role,
    Source,
)
from memory_service.core.scope import TenantScope
from memory_service.services import sessions
from memory_service.services.consolidation import ConsolidationDeps, consolidate_session
from tests.support.fake_llm import FakeLLM, Reply, completion, sent_notes, sent_pairs

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SEAT = "Prefers aisle seats."
SEAT_PARAPHRASE = "Likes to sit on the aisle."


class _Clock:
    """Moves one minute per call, so every note and session is strictly newer."""

    def __init__(self) -> None:
        self._now = datetime.now(UTC) - timedelta(days=30)

    def now(self) -> datetime:
        self._now += timedelta(minutes=1)
        return self._now


class _NoQueue:
    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        """The benchmark calls the service itself, to time it alone."""


@dataclass
class Row:
    backend: str
    size: int
    plain_rate: float
    plain_cpu_ms: float
    loaded: float
    judged_rate: float
    calls: float
    pairs: float
    tokens: float


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'bench.db'}"
        migrate.upgrade(url)
        yield url


@contextmanager
def postgres_url(server_url: str) -> Iterator[str]:
    name = f"ms_bench_{secrets.token_hex(4)}"
    server = create_engine_for(server_url).execution_options(isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = make_url(normalize_database_url(server_url)).set(database=name)
    try:
        rendered = url.render_as_string(hide_password=False)
        migrate.upgrade(rendered)
        yield rendered
    finally:
        with server.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        server.dispose()


def global_memory(tenant: str, subject: str, text: str, keywords: tuple[str, ...]) -> Memory:
    at = datetime.now(UTC) - timedelta(days=60)
    return Memory(
        id=new_id(),
        tenant_id=tenant,
        subject_id=subject,
        scope=MemoryScope.GLOBAL,
        session_id=None,
        text=text,
        keywords=keywords,
        purpose="general",
        source=Source.USER_STATED,
        durability=Durability.DURABLE,
        provenance=Provenance(actor="bench"),
        legal_basis="legitimate_interest",
        created_at=at,
        updated_at=at,
    )


def seed_globals(
    engine: Engine,
    keyring: Keyring,
    tenant: str,
    subject: str,
    size: int,
    embedder: WordLlamaEmbedder | None,
) -> None:
    """Sealed, filed in the term index and given a sealed vector like the service does,
    inserted in bulk (the seeding is not measured)."""
    memories = [
        global_memory(tenant, subject, "Uses VS Code as editor.", ("editor",)),
        global_memory(tenant, subject, SEAT, ("seat",)),
    ] + [
        global_memory(
            tenant,
            subject,
            f"Visited the museum of city {i} during trip {i % 97}.",
            (f"trip{i % 50}",),
        )
        for i in range(max(size - 2, 0))
    ]
    with DbSession(engine) as db:
        cipher = SubjectKeys(db, tenant, keyring).ensure_cipher(
            subject, datetime.now(UTC), new_lifecycle=True
        )
        rows = [
            {"id": m.id, "tenant_id": tenant, "subject_id": subject, **memory_columns(m, cipher)}
            for m in memories
        ]
        if embedder is not None:
            vectors = embedder.embed_array([m.text for m in memories])
            for row, m, vector in zip(rows, memories, vectors, strict=True):
                row["vector_ciphertext"] = seal_vector(embedder.model, vector, cipher, m.id)
        db.execute(insert(MemoryRow.__table__), rows)  # type: ignore[attr-defined]
        terms = [row for m in memories for row in term_rows(m, cipher)]
        db.execute(insert(MemoryTermRow.__table__), terms)  # type: ignore[attr-defined]
        db.commit()


def prepare_session(
    uow_factory: SqlUnitOfWorkFactory, clock: _Clock, scope: TenantScope, subject: str, k: int
) -> str:
    session = sessions.open_session(scope, subject, uow_factory=uow_factory, clock=clock)
    notes = [
        (f"Now uses editor number {k} as editor.", ("editor",), Durability.DURABLE),
        (SEAT_PARAPHRASE, ("seat",), Durability.DURABLE),
        (f"Speaks language number {k}.", ("language",), Durability.DURABLE),
        (f"speaks language number {k}", ("language",), Durability.DURABLE),
        ("Has a dinner with the team tonight.", (), Durability.DURABLE),
        ("Wants a quiet room for this call.", (), Durability.SESSION),
    ]
    with uow_factory(scope.tenant_id) as uow:
        for text, keywords, durability in notes:
            at = clock.now()
            uow.memories.add(
                replace(
                    global_memory(scope.tenant_id, subject, text, keywords),
                    scope=MemoryScope.SESSION,
                    session_id=session.id,
                    durability=durability,
                    provenance=Provenance(actor=scope.actor, session_id=session.id),
                    created_at=at,
                    updated_at=at,
                )
            )
        uow.commit()
    sessions.end_session(scope, session.id, uow_factory=uow_factory, clock=clock, tasks=_NoQueue())
    return session.id


def consolidate_many(
    uow_factory: SqlUnitOfWorkFactory,
    scope: TenantScope,
    subject: str,
    count: int,
    judge: Judge | None,
    embedder: WordLlamaEmbedder | None,
) -> tuple[float, float, float]:
    """Sessions per second over ``count`` sessions, this process's CPU milliseconds per
    session (steadier than the rate on a shared host; the database server's is not in it),
    and global memories loaded per session; preparing the sessions is not timed."""
    clock = _Clock()
    deps = ConsolidationDeps(uow_factory=uow_factory, clock=clock, judge=judge, embedder=embedder)
    elapsed = cpu = 0.0
    loaded = 0
    for k in range(count):
        session_id = prepare_session(uow_factory, clock, scope, subject, k)
        started, started_cpu = time.perf_counter(), time.process_time()
        report = consolidate_session(scope.tenant_id, session_id, deps=deps)
        elapsed += time.perf_counter() - started
        cpu += time.process_time() - started_cpu
        assert report is not None and report.created >= 1
        loaded += report.globals_considered
    return count / elapsed, 1000 * cpu / count, loaded / count


def warm_up(
    engine: Engine,
    keyring: Keyring,
    uow_factory: SqlUnitOfWorkFactory,
    judge: Judge | None,
    embedder: WordLlamaEmbedder | None,
) -> None:
    """One untimed session per mode on a scratch subject first, so what is loaded once per
    process (the judgment model, the LLM client, compiled statements) is not counted
    against the first size. Each size's first session still pays its subject's cold
    start (the key unwrapped, the vectors unsealed): a worker meets that for every subject
    it has not served lately."""
    tenant = f"bench-{secrets.token_hex(4)}"
    scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
    for subject, mode in (("warm-1", None), ("warm-2", judge)):
        seed_globals(engine, keyring, tenant, subject, 10, embedder)
        consolidate_many(uow_factory, scope, subject, 1, mode, embedder)


def request_tokens(counter: TiktokenCounter, request: dict[str, Any]) -> int:
    return sum(counter.count(message["content"]) for message in request["messages"])


def measure(
    backend: str,
    url: str,
    sizes: list[int],
    count: int,
    llm: FakeLLM,
    counter: TiktokenCounter,
    embedder: WordLlamaEmbedder | None,
) -> list[Row]:
    engine = create_engine_for(url)
    keyring = Keyring(secrets.token_bytes(32))
    uow_factory = SqlUnitOfWorkFactory(engine, keyring, embedder=embedder)
    settings = Settings.from_env(
        {"OPENAI_BASE_URL": llm.base_url, "MEMORY_SERVICE_LLM_MODEL": "fake-model"}
    )
    judge = build_judge(settings)
    rows = []
    try:
        warm_up(engine, keyring, uow_factory, judge, embedder)
        for size in sizes:
            tenant = f"bench-{secrets.token_hex(4)}"
            scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="bench")
            plain_subject, judged_subject = f"plain-{size}", f"judged-{size}"
            seed_globals(engine, keyring, tenant, plain_subject, size, embedder)
            seed_globals(engine, keyring, tenant, judged_subject, size, embedder)
            plain, plain_cpu, loaded = consolidate_many(
                uow_factory, scope, plain_subject, count, None, embedder
            )
            sent_before = len(llm.requests)
            judged, _, _ = consolidate_many(
                uow_factory, scope, judged_subject, count, judge, embedder
            )
            sent = llm.requests[sent_before:]
            pairs = sum(len(json.loads(r["messages"][1]["content"])["pairs"]) for r in sent)
            rows.append(
                Row(
                    backend=backend,
                    size=size,
                    plain_rate=plain,
                    plain_cpu_ms=plain_cpu,
                    loaded=loaded,
                    judged_rate=judged,
                    calls=len(sent) / count,
                    pairs=pairs / count,
                    tokens=sum(request_tokens(counter, r) for r in sent) / count,
                )
            )
            logging.getLogger("benchmarks.consolidation").info("%s %d done", backend, size)
    finally:
        engine.dispose()
    return rows


def _oracle(request: dict[str, Any]) -> Reply:
    """Editors conflict, the seat paraphrase is the same, everything else is unrelated;
    every note is kept."""

    def verdict(pair: dict[str, str]) -> str:
        texts = {pair["a"], pair["b"]}
        if texts == {SEAT, SEAT_PARAPHRASE}:
            return "same"
        return "conflict" if all(" editor" in text for text in texts) else "unrelated"

    verdicts = [{"pair_id": p["pair_id"], "verdict": verdict(p)} for p in sent_pairs(request)]
    notes = [{"check_id": n["check_id"], "verdict": "keep"} for n in sent_notes(request)]
    return completion(json.dumps({"verdicts": verdicts, "notes": notes}))


def table(rows: list[Row]) -> str:
    header = (
        "| store | global memories | sessions/s, no LLM | CPU ms/session, no LLM "
        "| globals loaded/session | sessions/s, fake LLM | LLM calls/session | pairs/session "
        "| request tokens/session |"
    )
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(
            f"| {row.backend} | {row.size:,} | {row.plain_rate:.1f} | {row.plain_cpu_ms:.0f} "
            f"| {row.loaded:.0f} "
            f"| {row.judged_rate:.1f} | {row.calls:.2f} | {row.pairs:.2f} | {row.tokens:.0f} |"
        )
    by_backend: dict[str, list[Row]] = {}
    for row in rows:
        by_backend.setdefault(row.backend, []).append(row)
    for backend, found in by_backend.items():
        first, last = found[0], found[-1]
        lines.append(
            f"\n{backend}: {first.size:,} -> {last.size:,} memories: throughput x"
            f"{last.plain_rate / first.plain_rate:.2f} (no LLM), CPU per session x"
            f"{last.plain_cpu_ms / first.plain_cpu_ms:.2f}, request tokens x"
            f"{last.tokens / first.tokens:.2f}"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1_000, 10_000])
    parser.add_argument("--sessions", type=int, default=5, help="sessions per size and mode")
    parser.add_argument("--postgres", default=DEFAULT_URL, help="server URL ('' to skip)")
    parser.add_argument(
        "--no-embedding", action="store_true", help="terms only: no vectors, no search by meaning"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    counter = TiktokenCounter("gpt-4")
    embedder = None if args.no_embedding else WordLlamaEmbedder.load()
    llm = FakeLLM().start()
    llm.behaviour = _oracle
    rows: list[Row] = []
    try:
        with sqlite_url() as url:
            rows += measure("SQLite", url, args.sizes, args.sessions, llm, counter, embedder)
        if args.postgres:
            with postgres_url(args.postgres) as url:
                rows += measure(
                    "PostgreSQL", url, args.sizes, args.sessions, llm, counter, embedder
                )
    finally:
        llm.stop()
    sys.stdout.write(table(rows))


if __name__ == "__main__":
    main()
