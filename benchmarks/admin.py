"""Erasure and the nightly expiry sweep on PostgreSQL, and how their cost grows.

Erasure: a subject holding 1,000 and 10,000 memories (plus a session per 10 memories, two
turns per session, a manifest per session, an audit event per memory, some with details to
redact) inside a store of ``--background`` other memories. Each service erasure is set
against a bare ``DELETE`` of an identical twin subject's memories and sessions, measured in
the same run: the ratio is what the service adds (locks, turns, manifests, outbox, audit
redaction, receipt, key destruction).

Sweep: stores of 100,000 and 1,000,000 memories over 10 tenants, 1 % of them past their
expiry (still active) and 1 % expired for longer than the grace period. The expiry
(``services.consolidation.expire_due_memories``) and the purge
(``services.retention.purge_expired_memories``) run in turn, each set against a bare indexed
count of the rows it must find. Every row is sealed with its subject's key and loaded by
COPY into a scratch database dropped afterwards.

    /work/venv/bin/python -m benchmarks.admin
    /work/venv/bin/python -m benchmarks.admin --sizes 1000 --totals 100000  # quicker
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import Engine, text

from memory_service.adapters.crypto import Keyring, SubjectCipher
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.convert import MEMORY_KIND
from memory_service.adapters.sql.maintenance import SqlMaintenanceStore
from memory_service.adapters.sql.retention import SqlRetentionStore
from memory_service.adapters.subject_cache import NoSubjectCache
from memory_service.adapters.terminal_progress import terminal_progress
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.core.model import Role
from memory_service.core.retention import RetentionPolicy
from memory_service.core.scope import TenantScope
from memory_service.services import admin
from memory_service.services.consolidation import expire_due_memories
from memory_service.services.retention import purge_expired_memories
from tests.support.fakes import FixedClock
from tests.support.notes import NoLibraryIdentifiers
from tests.support.scratch_database import scratch_postgres_database

log = logging.getLogger("benchmarks.admin")

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
MEMORY_COLUMNS = (
    "id, tenant_id, subject_id, scope, session_id, ciphertext, text_fingerprint, purpose, "
    "source, durability, provenance, legal_basis, created_at, updated_at, expires_at, status"
)
GRACE_DAYS = 30


class _NoPii:
    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset()


@contextmanager
def scratch_database(server_url: str) -> Iterator[Engine]:
    """An engine on a migrated scratch database, disposed before the database is dropped."""
    with scratch_postgres_database(server_url, prefix="ms_bench") as url:
        engine = create_engine_for(url)
        try:
            yield engine
        finally:
            engine.dispose()


@dataclass
class Loader:
    """Writes sealed rows through one raw psycopg connection with COPY."""

    engine: Engine
    keyring: Keyring
    now: datetime

    def __post_init__(self) -> None:
        self._raw = self.engine.raw_connection()
        self._cursor = self._raw.cursor()
        self._ciphers: dict[tuple[str, str], SubjectCipher] = {}

    def close(self) -> None:
        self._raw.close()

    def cipher(self, tenant: str, subject: str) -> SubjectCipher:
        return self._ciphers[(tenant, subject)]

    def tenants(self, tenants: list[str]) -> None:
        for tenant in tenants:
            self._cursor.execute(
                "INSERT INTO tenants (id, name, created_at, policy) VALUES (%s, %s, %s, '{}')",
                (tenant, tenant, self.now),
            )

    def subjects(self, pairs: list[tuple[str, str]]) -> None:
        with self._cursor.copy(
            "COPY subjects (tenant_id, subject_id, data_key_id, created_at) FROM STDIN"
        ) as copy:
            for tenant, subject in pairs:
                key_id = self.keyring.create_key(tenant, subject)
                cipher = self.keyring.cipher_for(tenant, subject, key_id)
                if cipher is None:  # its key was created just above
                    raise RuntimeError(f"no data key for {tenant}/{subject}")
                self._ciphers[(tenant, subject)] = cipher
                copy.write_row((tenant, subject, key_id, self.now))

    def memories(self, rows: Iterator[tuple[str, str, str | None, datetime | None, str]]) -> None:
        """Rows of (tenant, subject, session id, expires_at, status), sealed one by one."""
        with (
            terminal_progress("loading memories") as progress,
            self._cursor.copy(f"COPY memories ({MEMORY_COLUMNS}) FROM STDIN") as copy,
        ):
            for number, (tenant, subject, session_id, expires_at, status) in enumerate(rows):
                if number and number % 1000 == 0:
                    progress.advance(1000)
                cipher = self._ciphers[(tenant, subject)]
                memory_id = str(uuid.uuid4())
                note = f"Prefers aisle seats on flight {number}"
                payload = json.dumps({"text": note, "keywords": ["seats"]}).encode()
                copy.write_row(
                    (
                        memory_id,
                        tenant,
                        subject,
                        "session" if session_id else "global",
                        session_id,
                        cipher.encrypt(payload, kind=MEMORY_KIND, row_id=memory_id),
                        cipher.fingerprint(note),
                        "general",
                        "user_stated",
                        "durable",
                        json.dumps({"actor": "bench", "derived_from": []}),
                        "legitimate_interest",
                        self.now,
                        self.now,
                        expires_at,
                        status,
                    )
                )

    def execute(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        self._cursor.executemany(statement, rows)

    def commit_and_analyze(self) -> None:
        self._raw.commit()
        self._cursor.execute("ANALYZE")
        self._raw.commit()


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


# --- erasure ---------------------------------------------------------------------------


def _subject_rows(loader: Loader, tenant: str, subject: str, size: int) -> None:
    sessions = [str(uuid.uuid4()) for _ in range(max(size // 10, 1))]
    loader.execute(
        "INSERT INTO sessions (id, tenant_id, subject_id, purpose, status, opened_at) "
        "VALUES (%s, %s, %s, 'general', 'ended', %s)",
        [(session, tenant, subject, loader.now) for session in sessions],
    )
    cipher = loader.cipher(tenant, subject)
    loader.execute(
        "INSERT INTO session_turns (tenant_id, session_id, turn, role, content_ciphertext, "
        "created_at) VALUES (%s, %s, %s, 'user', %s, %s)",
        [
            (
                tenant,
                session,
                turn,
                cipher.encrypt(b"Book the usual seat.", kind="t", row_id="x"),
                loader.now,
            )
            for session in sessions
            for turn in (0, 1)
        ],
    )
    loader.execute(
        "INSERT INTO context_manifests (id, tenant_id, subject_id, session_id, created_at, "
        "expires_at, manifest) VALUES (%s, %s, %s, %s, %s, %s, '{}')",
        [(str(uuid.uuid4()), tenant, subject, s, loader.now, loader.now) for s in sessions],
    )
    loader.memories(
        (tenant, subject, sessions[n % len(sessions)] if n % 2 else None, None, "active")
        for n in range(size)
    )
    loader.execute(
        "INSERT INTO audit_events (id, tenant_id, subject_id, kind, at, actor, details) "
        "VALUES (%s, %s, %s, %s, %s, 'bench', %s)",
        [
            (
                str(uuid.uuid4()),
                tenant,
                subject,
                "note.rejected" if n % 100 == 0 else "note.saved",
                loader.now,
                json.dumps({"reasons": ["pii"], "count": 1} if n % 100 == 0 else {"count": 1}),
            )
            for n in range(size)
        ],
    )


def bench_erasure(server_url: str, sizes: list[int], background: int) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    keyring = Keyring(secrets.token_bytes(32))
    tenant = "bench"
    results = []
    with scratch_database(server_url) as engine:
        loader = Loader(engine, keyring, now)
        fillers = [f"filler-{n}" for n in range(100)]
        targets = [f"{kind}-{size}" for size in sizes for kind in ("erase", "bare")]
        loader.tenants([tenant])
        loader.subjects([(tenant, subject) for subject in [*fillers, *targets]])
        loader.memories(
            (tenant, fillers[n % len(fillers)], None, None, "active") for n in range(background)
        )
        for size in sizes:
            for kind in ("erase", "bare"):
                _subject_rows(loader, tenant, f"{kind}-{size}", size)
        loader.commit_and_analyze()
        loader.close()

        deps = admin.AdminDeps(
            uow_factory=SqlUnitOfWorkFactory(engine, keyring, FixedClock(now)),
            clock=FixedClock(now),
            pii=_NoPii(),
            cache=NoSubjectCache(),
            identifiers=NoLibraryIdentifiers(),
        )
        scope = TenantScope(tenant, Role.ADMIN, "bench")
        for size in sizes:
            erase = partial(admin.erase_subject, scope, f"erase-{size}", deps=deps)
            seconds, receipt = timed(erase)
            bare_seconds, _ = timed(partial(_bare_delete, engine, tenant, f"bare-{size}"))
            again, _ = timed(erase)
            assert receipt.counts["memories"] == size
            results.append(
                {
                    "memories": size,
                    "rows": receipt.total,
                    "service_s": seconds,
                    "bare_delete_s": bare_seconds,
                    "second_erasure_s": again,
                }
            )
    return results


def _bare_delete(engine: Engine, tenant: str, subject: str) -> None:
    with engine.begin() as connection:
        for table in ("memories", "context_manifests"):
            connection.execute(
                text(f"DELETE FROM {table} WHERE tenant_id = :t AND subject_id = :s"),
                {"t": tenant, "s": subject},
            )
        connection.execute(
            text("DELETE FROM sessions WHERE tenant_id = :t AND subject_id = :s"),
            {"t": tenant, "s": subject},
        )


# --- sweep -----------------------------------------------------------------------------


def bench_sweep(server_url: str, total: int) -> dict[str, Any]:
    now = datetime.now(UTC)
    keyring = Keyring(secrets.token_bytes(32))
    tenants = [f"bench-{n}" for n in range(10)]
    per_tenant = max(total // (100 * len(tenants)), 1)  # ~100 memories per subject
    subjects = [(t, f"subject-{n}") for t in tenants for n in range(per_tenant)]
    expire_due = purge_due = 0

    def rows() -> Iterator[tuple[str, str, str | None, datetime | None, str]]:
        nonlocal expire_due, purge_due
        for n in range(total):
            tenant, subject = subjects[n % len(subjects)]
            if n % 100 == 7:
                expire_due += 1
                yield tenant, subject, None, now - timedelta(days=1), "active"
            elif n % 100 == 8:
                purge_due += 1
                yield tenant, subject, None, now - timedelta(days=GRACE_DAYS + 10), "expired"
            elif n % 3 == 0:
                yield tenant, subject, None, None, "active"
            else:
                yield tenant, subject, None, now + timedelta(days=1 + n % 365), "active"

    with scratch_database(server_url) as engine:
        loader = Loader(engine, keyring, now)

        def load() -> None:
            loader.tenants(tenants)
            loader.subjects(subjects)
            loader.memories(rows())
            loader.commit_and_analyze()
            loader.close()

        load_seconds, _ = timed(load)
        log.info("loaded %d memories in %.0f s", total, load_seconds)
        clock = FixedClock(now)
        factory = SqlUnitOfWorkFactory(engine, keyring, clock)
        bare_expire, found_expire = timed(
            lambda: _count(engine, "status = 'active' AND expires_at <= :now", now)
        )
        expire_seconds, expired = timed(
            lambda: expire_due_memories(
                maintenance=SqlMaintenanceStore(engine), uow_factory=factory, clock=clock
            )
        )
        cutoff = now - timedelta(days=GRACE_DAYS)
        bare_purge, found_purge = timed(
            lambda: _count(engine, "status IN ('expired', 'active') AND expires_at <= :now", cutoff)
        )
        purge_seconds, purged = timed(
            lambda: purge_expired_memories(
                store=SqlRetentionStore(engine),
                policy=RetentionPolicy(grace_days=GRACE_DAYS),
                clock=clock,
            )
        )
    assert (found_expire, expired) == (expire_due, expire_due), (found_expire, expired)
    assert (found_purge, purged) == (purge_due, purge_due), (found_purge, purged)
    return {
        "total": total,
        "load_s": load_seconds,
        "expired": expired,
        "expire_s": expire_seconds,
        "bare_expire_count_s": bare_expire,
        "purged": purged,
        "purge_s": purge_seconds,
        "bare_purge_count_s": bare_purge,
    }


def _count(engine: Engine, condition: str, at: datetime) -> int:
    with engine.connect() as connection:
        return int(
            connection.execute(
                text(f"SELECT COUNT(*) FROM memories WHERE {condition}"), {"now": at}
            ).scalar_one()
        )


# --- report ----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url", default=DEFAULT_URL, help="PostgreSQL server to make scratch DBs on"
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--background", type=int, default=100_000)
    parser.add_argument("--totals", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    erasures = bench_erasure(args.url, args.sizes, args.background)
    print(f"\nErasure of one subject (PostgreSQL, {args.background:,} other memories)")
    print(
        f"{'memories':>9} {'rows':>7} {'service':>9} {'bare DELETE':>12} {'ratio':>6} {'again':>8}"
    )
    for row in erasures:
        print(
            f"{row['memories']:>9,} {row['rows']:>7,} {row['service_s'] * 1000:>7.0f}ms "
            f"{row['bare_delete_s'] * 1000:>10.0f}ms "
            f"{row['service_s'] / row['bare_delete_s']:>6.1f} "
            f"{row['second_erasure_s'] * 1000:>6.0f}ms"
        )
    if len(erasures) > 1:
        first, last = erasures[0], erasures[-1]
        print(
            f"growth: x{last['memories'] / first['memories']:.0f} memories -> "
            f"x{last['service_s'] / first['service_s']:.1f} time"
        )

    sweeps = [bench_sweep(args.url, total) for total in args.totals]
    print("\nNightly sweep (PostgreSQL, 1 % due for expiry, 1 % past grace; 10 tenants)")
    print(
        f"{'memories':>10} {'expired':>8} {'expiry':>8} {'bare count':>11} "
        f"{'purged':>7} {'purge':>8} {'bare count':>11} {'load':>6}"
    )
    for row in sweeps:
        print(
            f"{row['total']:>10,} {row['expired']:>8,} {row['expire_s']:>7.1f}s "
            f"{row['bare_expire_count_s'] * 1000:>9.0f}ms {row['purged']:>7,} "
            f"{row['purge_s']:>7.1f}s {row['bare_purge_count_s'] * 1000:>9.0f}ms "
            f"{row['load_s']:>5.0f}s"
        )
    if len(sweeps) > 1:
        first, last = sweeps[0], sweeps[-1]
        print(
            f"growth: x{last['total'] / first['total']:.0f} memories -> expiry "
            f"x{last['expire_s'] / first['expire_s']:.1f}, purge "
            f"x{last['purge_s'] / first['purge_s']:.1f} time; per due row: expiry "
            f"{first['expire_s'] / first['expired'] * 1e6:.0f} -> "
            f"{last['expire_s'] / last['expired'] * 1e6:.0f} us, purge "
            f"{first['purge_s'] / first['purged'] * 1e6:.0f} -> "
            f"{last['purge_s'] / last['purged'] * 1e6:.0f} us"
        )


if __name__ == "__main__":
    main()
