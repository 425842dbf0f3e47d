"""PostgreSQL declarative partitioning of ``memories`` and ``audit_events`` by tenant, tried on
a copy of a database: what the schema must give up, and what the hot queries gain or lose.

The copy is ``CREATE DATABASE ... TEMPLATE`` of ``--database`` (nothing may be connected to
it meanwhile), or, without it, a scratch migrated database filled with ``--tenants`` x
``--subjects`` x ``--per-subject`` synthetic memory rows and as many audit events. In the
copy, ``memories_part`` and ``audit_events_part`` are built ``PARTITION BY HASH (tenant_id)``
(``--partitions``) with the same columns and indexes, filled from the originals, analysed;
then, on both layouts, p50 over ``--repeats`` runs of: the render's candidate SELECT (one
subject, indexed), one INSERT of a memory row, a subject's audit history, and the nightly
expiry scan (every tenant). The copy is dropped at the end; nothing is shipped as a
migration (see docs/scaling.md for why).

    .venv/bin/python -m benchmarks.partition_trial
    .venv/bin/python -m benchmarks.partition_trial --database postgresql://postgres@127.0.0.1/prod_copy
"""

from __future__ import annotations

import argparse
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from benchmarks.harness import DEFAULT_PG, percentile
from memory_service.adapters.database import create_engine_for, normalize_database_url
from tests.support.scratch_database import scratch_postgres_database

FILL = """
INSERT INTO tenants (id, name, created_at, policy)
SELECT 't' || t, 't' || t, now(), '{}' FROM generate_series(1, :tenants) t;
INSERT INTO subjects (tenant_id, subject_id, created_at)
SELECT 't' || t, 's' || s, now()
FROM generate_series(1, :tenants) t, generate_series(1, :subjects) s;
INSERT INTO memories (id, tenant_id, subject_id, scope, ciphertext, text_fingerprint, purpose,
    source, durability, provenance, legal_basis, created_at, updated_at, status)
SELECT md5(t || '/' || s || '/' || m), 't' || t, 's' || s,
    CASE WHEN m % 4 = 0 THEN 'session' ELSE 'global' END,
    decode(repeat(md5(t || '.' || s || '.' || m), 6), 'hex'),
    md5(m || '/' || s || '/' || t), 'general',
    'user_stated', 'durable', '{}', 'consent', now() - m * interval '1 minute',
    now() - m * interval '1 minute', CASE WHEN m % 10 = 0 THEN 'superseded' ELSE 'active' END
FROM generate_series(1, :tenants) t, generate_series(1, :subjects) s,
    generate_series(1, :per_subject) m;
INSERT INTO audit_events (id, tenant_id, subject_id, kind, at, actor, memory_id, details)
SELECT md5('a' || id), tenant_id, subject_id, 'memory.saved', created_at, 'key:x', id, '{}'
FROM memories;
"""

PARTITION = """
CREATE TABLE memories_part (LIKE memories INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
    PARTITION BY HASH (tenant_id);
CREATE TABLE audit_events_part (LIKE audit_events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
    PARTITION BY HASH (tenant_id);
{partitions}
ALTER TABLE memories_part ADD PRIMARY KEY (tenant_id, id);
CREATE INDEX ON memories_part (status, expires_at);
CREATE INDEX ON memories_part (tenant_id, subject_id, text_fingerprint);
CREATE INDEX ON memories_part (tenant_id, session_id);
CREATE INDEX ON memories_part (tenant_id, subject_id, status, scope, updated_at);
ALTER TABLE audit_events_part ADD PRIMARY KEY (tenant_id, seq);
ALTER TABLE audit_events_part ADD UNIQUE (tenant_id, id);
CREATE INDEX ON audit_events_part (tenant_id, subject_id, at);
INSERT INTO memories_part SELECT * FROM memories;
INSERT INTO audit_events_part SELECT * FROM audit_events;
ANALYZE memories; ANALYZE audit_events; ANALYZE memories_part; ANALYZE audit_events_part;
"""

CANDIDATES = (
    "SELECT * FROM {memories} WHERE tenant_id = :t AND subject_id = :s AND status = 'active' "
    "AND scope = 'global' ORDER BY updated_at DESC, id DESC LIMIT 6"
)
HISTORY = "SELECT * FROM {audit} WHERE tenant_id = :t AND subject_id = :s ORDER BY at DESC LIMIT 50"
EXPIRY = (
    "SELECT id, tenant_id FROM {memories} WHERE status = 'active' "
    "AND expires_at IS NOT NULL AND expires_at <= now() LIMIT 500"
)
INSERT = (
    "INSERT INTO {memories} (id, tenant_id, subject_id, scope, ciphertext, text_fingerprint, "
    "purpose, source, durability, provenance, legal_basis, created_at, updated_at, status) "
    "VALUES (:id, :t, :s, 'global', :c, :f, 'general', 'user_stated', 'durable', '{{}}', "
    "'consent', now(), now(), 'active')"
)


@contextmanager
def database_copy(server_url: str, source: str | None, fill: dict[str, int]) -> Iterator[str]:
    if source is None:
        with scratch_postgres_database(server_url, prefix="ms_partition") as url:
            engine = create_engine_for(url)
            with engine.begin() as connection:
                for statement in FILL.split(";"):
                    if statement.strip():
                        connection.execute(text(statement), fill)
            engine.dispose()
            yield url
        return
    source_url = make_url(normalize_database_url(source))
    name = f"{source_url.database}_partition_{secrets.token_hex(3)}"
    admin = create_engine_for(source).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{source_url.database}"')
    try:
        yield source_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def p50_ms(repeats: int, call: Callable[[int], Any]) -> float:
    for index in range(10):
        call(index)
    durations = []
    for index in range(repeats):
        start = time.perf_counter()
        call(index)
        durations.append(time.perf_counter() - start)
    return percentile(durations, 0.5) * 1000


def measure(connection: Connection, memories: str, audit: str, repeats: int) -> dict[str, float]:
    t, s = connection.execute(
        text(f"SELECT tenant_id, subject_id FROM {memories} ORDER BY id LIMIT 1")
    ).one()
    key = {"t": t, "s": s}

    def insert(index: int) -> None:
        row = key | {"id": secrets.token_hex(16), "c": b"x" * 96, "f": secrets.token_hex(32)}
        connection.execute(text(INSERT.format(memories=memories)), row)
        connection.commit()

    return {
        "candidate SELECT": p50_ms(
            repeats,
            lambda _: connection.execute(text(CANDIDATES.format(memories=memories)), key).all(),
        ),
        "INSERT + commit": p50_ms(repeats, insert),
        "audit history": p50_ms(
            repeats, lambda _: connection.execute(text(HISTORY.format(audit=audit)), key).all()
        ),
        "expiry scan": p50_ms(
            max(repeats // 10, 5),
            lambda _: connection.execute(text(EXPIRY.format(memories=memories))).all(),
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres-url", default=DEFAULT_PG)
    parser.add_argument("--database", help="copy this database instead of a synthetic one")
    parser.add_argument("--tenants", type=int, default=200)
    parser.add_argument("--subjects", type=int, default=50)
    parser.add_argument("--per-subject", type=int, default=20)
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args()
    fill = {"tenants": args.tenants, "subjects": args.subjects, "per_subject": args.per_subject}
    partitions = "\n".join(
        f"CREATE TABLE {table}_p{i} PARTITION OF {table}_part "
        f"FOR VALUES WITH (MODULUS {args.partitions}, REMAINDER {i});"
        for table in ("memories", "audit_events")
        for i in range(args.partitions)
    )
    with database_copy(args.postgres_url, args.database, fill) as url:
        engine = create_engine_for(url)
        started = time.perf_counter()
        with engine.begin() as connection:
            for statement in PARTITION.format(partitions=partitions).split(";"):
                if statement.strip():
                    connection.execute(text(statement))
        built = time.perf_counter() - started
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT count(*) FROM memories")).scalar_one()
            plain = measure(connection, "memories", "audit_events", args.repeats)
            parted = measure(connection, "memories_part", "audit_events_part", args.repeats)
        engine.dispose()
    print(
        f"\n{rows} memories (and as many audit events), {args.partitions} hash partitions by"
        f" tenant, built and filled in {built:.1f} s; p50 ms over {args.repeats} runs"
    )
    print(f"  {'query':<20}{'plain':>10}{'partitioned':>13}")
    for name, value in plain.items():
        print(f"  {name:<20}{value:>10.3f}{parted[name]:>13.3f}")


if __name__ == "__main__":
    main()
