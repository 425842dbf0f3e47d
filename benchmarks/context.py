"""Context render latency against the store's size: p50/p99 for subjects with 10, 1,000 and
100,000 memories in a PostgreSQL holding ``--total`` memories over ``--subjects`` subjects.

Each figure is set against a bare indexed SELECT of the same rows (the service's two bounded
candidate queries, rows fetched, nothing decrypted) measured in the same run, so the ratio says
what the service adds: decryption, checks, ranking, tiktoken counts, rendering, and writing the
manifest. The rows are built through the store's own cipher (one data key per subject, AES-GCM
bound to each row, keyed fingerprints) and loaded with COPY into a scratch database that is
dropped afterwards.

    /work/venv/bin/python -m benchmarks.context --total 1000000 --subjects 10000
"""

from __future__ import annotations

import argparse
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, text

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.database import create_engine_for
from memory_service.adapters.sql.convert import MEMORY_KIND
from memory_service.adapters.terminal_progress import terminal_progress
from memory_service.adapters.tiktoken_counter import TiktokenCounter
from memory_service.adapters.unit_of_work import SqlUnitOfWorkFactory
from memory_service.adapters.yaml_state import dump_state_yaml
from memory_service.core.clock import SystemClock
from memory_service.core.model import Role, SubjectState
from memory_service.core.scope import TenantScope
from memory_service.services.context import ContextDeps, render_context
from tests.support.scratch_database import scratch_postgres_database

log = logging.getLogger("benchmarks.context")

TENANT = "bench"
TARGET_SIZES = (10, 1_000, 100_000)
SOURCES = ("user_stated", "user_stated", "system_record", "model_inferred")
PURPOSES = ("general", "general", "travel", "support")
COLUMNS = (
    "id, tenant_id, subject_id, scope, session_id, ciphertext, text_fingerprint, purpose, "
    "source, durability, provenance, legal_basis, created_at, updated_at, expires_at, status"
)
BARE_SELECT = text(
    "SELECT * FROM memories WHERE tenant_id = :tenant AND subject_id = :subject "
    "AND status = 'active' AND scope = 'global' AND purpose IN ('general', 'travel') "
    "AND source = ANY(:sources) AND (expires_at IS NULL OR expires_at > :now) "
    "ORDER BY updated_at DESC, id DESC LIMIT 6"
)


def subject_sizes(total: int, subjects: int) -> dict[str, int]:
    """The three measured subjects, and the rest of ``total`` spread over the others."""
    sizes = {f"target-{size}": size for size in TARGET_SIZES}
    fillers = subjects - len(sizes)
    rest = max(total - sum(sizes.values()), 0)
    for number in range(fillers):
        sizes[f"filler-{number}"] = rest // fillers + (1 if number < rest % fillers else 0)
    return sizes


def load(engine: Engine, keyring: Keyring, sizes: dict[str, int], now: datetime) -> None:
    """Subjects with wrapped keys, then every memory sealed with its subject's cipher, by COPY."""
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(
            "INSERT INTO tenants (id, name, created_at, policy) VALUES (%s, %s, %s, %s)",
            (TENANT, TENANT, now, "{}"),
        )
        key_ids = {subject: keyring.create_key(TENANT, subject) for subject in sizes}
        with cursor.copy(
            "COPY subjects (tenant_id, subject_id, data_key_id, created_at) FROM STDIN"
        ) as copy:
            for subject, key_id in key_ids.items():
                copy.write_row((TENANT, subject, key_id, now))
        with (
            terminal_progress("loading memories") as progress,
            cursor.copy(f"COPY memories ({COLUMNS}) FROM STDIN") as copy,
        ):
            progress.start(sum(sizes.values()))
            for subject, count in sizes.items():
                progress.advance(count)
                cipher = keyring.cipher_for(TENANT, subject, key_ids[subject])
                if cipher is None:  # its key was created above and nothing destroyed it
                    raise RuntimeError(f"no data key for {subject}")
                for number in range(count):
                    memory_id = str(uuid.uuid4())
                    note = f"Prefers aisle seats on flight {number} of {subject}"
                    payload = json.dumps({"text": note, "keywords": ["seats"]}).encode()
                    at = now - timedelta(minutes=number)
                    expires = now - timedelta(days=1) if number % 10 == 9 else None
                    copy.write_row(
                        (
                            memory_id,
                            TENANT,
                            subject,
                            "global",
                            None,
                            cipher.encrypt(payload, kind=MEMORY_KIND, row_id=memory_id),
                            cipher.fingerprint(note),
                            # Independent of the source, so no class is empty.
                            PURPOSES[number // len(SOURCES) % len(PURPOSES)],
                            SOURCES[number % len(SOURCES)],
                            "durable",
                            json.dumps({"actor": "bench", "derived_from": []}),
                            "legitimate_interest",
                            at,
                            at,
                            expires,
                            "active",
                        )
                    )
        raw.commit()
        cursor.execute("ANALYZE")
        raw.commit()
    finally:
        raw.close()


def timed(call: Callable[[], Any], repeats: int) -> list[float]:
    call()  # warm the key cache and the plans
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run(server_url: str, total: int, subjects: int, repeats: int) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    keyring = Keyring(secrets.token_bytes(32))
    sizes = subject_sizes(total, subjects)
    with scratch_postgres_database(server_url, prefix="ms_bench") as url:
        engine = create_engine_for(url)
        try:
            started = time.perf_counter()
            load(engine, keyring, sizes, now)
            log.info(
                "loaded %d memories in %.0f s", sum(sizes.values()), time.perf_counter() - started
            )
            factory = SqlUnitOfWorkFactory(engine, keyring)
            deps = ContextDeps(
                uow_factory=factory,
                clock=SystemClock(),
                counter=TiktokenCounter("gpt-4"),
                dump_yaml=dump_state_yaml,
                max_global=6,
                manifest_retention=timedelta(days=30),
            )
            scope = TenantScope(TENANT, Role.AGENT, "bench")
            rows = []
            for size in TARGET_SIZES:
                subject = f"target-{size}"
                with factory(TENANT) as uow:
                    uow.subjects.put_state(
                        SubjectState(TENANT, subject, {"plan": "gold", "locale": "fr-FR"}, now)
                    )
                    uow.commit()

                def render(subject: str = subject) -> None:
                    render_context(scope, subject, purpose="travel", deps=deps)

                def bare(subject: str = subject) -> None:
                    with engine.connect() as connection:
                        for sources in (
                            ["user_stated", "admin_correction", "system_record"],
                            ["model_inferred"],
                        ):
                            connection.execute(
                                BARE_SELECT,
                                {
                                    "tenant": TENANT,
                                    "subject": subject,
                                    "sources": sources,
                                    "now": now,
                                },
                            ).fetchall()

                render_ms = timed(render, repeats)
                select_ms = timed(bare, repeats)
                rows.append(
                    {
                        "memories": size,
                        "render_p50": percentile(render_ms, 0.5),
                        "render_p99": percentile(render_ms, 0.99),
                        "select_p50": percentile(select_ms, 0.5),
                        "select_p99": percentile(select_ms, 0.99),
                    }
                )
            return rows
        finally:
            engine.dispose()


def report(rows: list[dict[str, Any]], total: int, subjects: int, repeats: int) -> str:
    lines = [
        f"context render, PostgreSQL holding {total:,} memories over {subjects:,} subjects, "
        f"{repeats} renders each (ms)",
        f"{'memories':>9} {'render p50':>11} {'render p99':>11} {'SELECT p50':>11} "
        f"{'SELECT p99':>11} {'ratio p50':>10} {'ratio p99':>10}",
    ]
    for row in rows:
        lines.append(
            f"{row['memories']:>9,} {row['render_p50']:>11.2f} {row['render_p99']:>11.2f} "
            f"{row['select_p50']:>11.2f} {row['select_p99']:>11.2f} "
            f"{row['render_p50'] / row['select_p50']:>10.1f} "
            f"{row['render_p99'] / row['select_p99']:>10.1f}"
        )
    flat = rows[-1]["render_p50"] / rows[0]["render_p50"]
    lines.append(f"render p50 at {rows[-1]['memories']:,} / at {rows[0]['memories']:,}: {flat:.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--postgres-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = run(args.postgres_url, args.total, args.subjects, args.repeats)
    log.info("%s", report(rows, args.total, args.subjects, args.repeats))


if __name__ == "__main__":
    main()
