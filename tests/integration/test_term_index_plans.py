"""The term index's statements read only the rows they are about, on SQLite and PostgreSQL.

Every statement :class:`~memory_service.adapters.sql.terms.SqlTermIndex` sends (the insert
of a save, ``remove`` of one memory and of a batch, ``remove_subject``, ``best_rows``) is
caught as the driver receives it, then explained with its own parameters. Each read of
``memories`` or ``memory_terms`` must go through an index whose constrained leading columns
include a key narrower than the tenant: a memory id, a subject, or a term hash (keyed per
subject). A tenant holds every subject's rows, so an access keyed by the tenant alone, a
full index scan or a table scan reads what grows with the whole tenant.

The tenant is padded with other subjects' rows (2,000 memories, 14,000 term rows) so that
one subject is a small part of it, as in a deployment. SQLite plans without statistics (the
service never runs ``ANALYZE``): its plan is the one a large database gets. PostgreSQL
plans on statistics, and at this size still rightly scans a table where 200,000 memories
would not: its plans are read with ``enable_seqscan`` off, which asks whether an index path
keyed narrowly exists and leaves the join order to the statistics.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, insert, inspect, select
from sqlalchemy.orm import Session
from sqlmodel import col

from memory_service.adapters.crypto import Keyring
from memory_service.adapters.sql.terms import SqlTermIndex
from memory_service.adapters.tables import MemoryRow, MemoryTermRow, SubjectRow
from memory_service.core.clock import new_id
from memory_service.core.model import MemoryScope
from tests.integration.conftest import Store, migrated_sqlite_url, sql_store
from tests.integration.records import make_memory
from tests.support.fakes import FixedClock
from tests.support.scratch_database import scratch_postgres_database

TENANT = "t-plans"
SUBJECTS = ("cust-1", "cust-2", "cust-3", "cust-4")
SUBJECT = SUBJECTS[0]
TABLES = frozenset({"memories", "memory_terms"})
# Keys narrower than the tenant: a memory, a subject, a term hash keyed per subject.
NARROW_KEYS = frozenset({"id", "memory_id", "subject_id", "term_hash"})
# The rest of the tenant: rows only (what a plan weighs), never read or decrypted.
OTHER_SUBJECTS, MEMORIES_EACH, TERMS_EACH = 40, 50, 7
OPERATIONS = ("write", "remove one", "remove a batch", "remove_subject", "best_rows")


# A read of a table: what was read (table or index), how, the key columns it was bounded by.
Access = tuple[str, str, list[str]]


@dataclass(frozen=True)
class Sent:
    statement: str
    parameters: Any


@dataclass(frozen=True)
class Backend:
    engine: Engine
    sent: dict[str, list[Sent]]


def _capture(engine: Engine, action: Callable[[], None]) -> list[Sent]:
    """The statements on ``memory_terms`` that ``action`` sends, one row's parameters each."""
    sent: list[Sent] = []

    def hook(*args: Any) -> None:
        statement, parameters, executemany = args[2], args[3], args[5]
        if "memory_terms" in statement:
            sent.append(Sent(statement, parameters[0] if executemany else parameters))

    event.listen(engine, "before_cursor_execute", hook)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", hook)
    return sent


def _on_index(engine: Engine, use: Callable[[SqlTermIndex], object]) -> list[Sent]:
    """What ``use`` sends through a tenant's index; rolled back, so the data stays."""

    def action() -> None:
        with Session(engine) as db:
            use(SqlTermIndex(db, TENANT))
            db.rollback()

    return _capture(engine, action)


def _pad_the_tenant(engine: Engine, now: datetime) -> None:
    """Other subjects' active globals and term rows, so the tenant outweighs one subject
    as it does in a deployment (2,000 memories, 14,000 term rows)."""
    subjects = [f"other-{n}" for n in range(OTHER_SUBJECTS)]
    memories = [
        {
            "id": new_id(),
            "tenant_id": TENANT,
            "subject_id": subject,
            "scope": MemoryScope.GLOBAL.value,
            "ciphertext": b"\0",
            "text_fingerprint": secrets.token_hex(32),
            "purpose": "general",
            "source": "user_stated",
            "durability": "durable",
            "provenance": {},
            "legal_basis": "consent",
            "created_at": now,
            "updated_at": now,
            "status": "active",
        }
        for subject in subjects
        for _ in range(MEMORIES_EACH)
    ]
    terms = [
        {
            "memory_id": memory["id"],
            "term_hash": f"{memory['subject_id']}:{term}",
            "tenant_id": TENANT,
            "subject_id": memory["subject_id"],
            "purpose": "general",
        }
        for memory in memories
        for term in range(TERMS_EACH)
    ]
    with Session(engine) as db:
        db.execute(
            insert(SubjectRow),
            [{"tenant_id": TENANT, "subject_id": s, "created_at": now} for s in subjects],
        )
        db.execute(insert(MemoryRow), memories)
        db.execute(insert(MemoryTermRow), terms)
        db.commit()


def _fill(store: Store) -> dict[str, list[Sent]]:
    """Four subjects' globals and session notes through the real store; the last save's
    statements are the insert's. Then every other operation, each rolled back."""
    assert store.engine is not None
    engine = store.engine
    now = store.clock.now()
    globals_ = []
    with store.uow_factory(TENANT) as uow:
        for subject in SUBJECTS:
            for i in range(15):
                scope = MemoryScope.SESSION if i % 5 == 0 else MemoryScope.GLOBAL
                memory = make_memory(
                    TENANT,
                    subject,
                    now,
                    scope=scope,
                    text=f"Uses tool {i} for report {i % 4} on team {i % 3}.",
                    keywords=(f"tool{i % 6}",),
                )
                uow.memories.add(memory)
                if subject == SUBJECT and scope is MemoryScope.GLOBAL:
                    globals_.append(memory.id)
        uow.commit()
    _pad_the_tenant(engine, now)

    def save_one() -> None:
        with store.uow_factory(TENANT) as uow:
            uow.memories.add(make_memory(TENANT, SUBJECT, now, text="Uses Vim as editor."))
            uow.commit()

    with Session(engine) as db:
        hashes = db.scalars(
            select(col(MemoryTermRow.term_hash))
            .where(col(MemoryTermRow.memory_id).in_(globals_[:2]))
            .distinct()
        ).all()
    sent = {
        "write": _capture(engine, save_one),
        "remove one": _on_index(engine, lambda index: index.remove(globals_[:1])),
        # Four ids or more once tempted SQLite into the tenant's whole memories index.
        "remove a batch": _on_index(engine, lambda index: index.remove(globals_[:8])),
        "remove_subject": _on_index(engine, lambda index: index.remove_subject(SUBJECT)),
        "best_rows": _on_index(
            engine,
            lambda index: index.best_rows(SUBJECT, hashes, purposes=["general"], limit=5),
        ),
    }
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.exec_driver_sql("ANALYZE memories, memory_terms")
            connection.commit()
    return sent


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def backend(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Backend]:
    keyring, clock = Keyring(secrets.token_bytes(32)), FixedClock()
    if request.param == "sqlite":
        url = migrated_sqlite_url(Path(tmp_path_factory.mktemp("plans")))
        with sql_store(url, keyring, clock) as store:
            assert store.engine is not None
            yield Backend(store.engine, _fill(store))
        return
    with (
        scratch_postgres_database(request.getfixturevalue("postgres_url")) as url,
        sql_store(url, keyring, clock) as store,
    ):
        assert store.engine is not None
        yield Backend(store.engine, _fill(store))


# --- reading the plans -------------------------------------------------------------------

_SQLITE_ACCESS = re.compile(r"^(SCAN|SEARCH) (\w+)(?: USING .*?INDEX (\w+))?(?: \((.*)\))?")
_CONDITIONED = re.compile(r"\(?(\w+)\)?(?:::[\w ]+)?\s*(?:=|<|>)")


def _sqlite_accesses(engine: Engine, sent: Sent) -> list[Access]:
    """(table, how, constrained columns in index order) of each table read."""
    with engine.connect() as connection:
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        cursor.execute("EXPLAIN QUERY PLAN " + sent.statement, sent.parameters)
        details = [str(row[3]) for row in cursor.fetchall()]
    accesses: list[Access] = []
    for detail in details:
        match = _SQLITE_ACCESS.match(detail)
        if match and match.group(2) in TABLES:
            constrained = re.findall(r"(\w+)[=<>]", match.group(4) or "")
            accesses.append((match.group(2), detail, constrained))
    return accesses


def _index_columns(engine: Engine, tables: frozenset[str] = TABLES) -> dict[str, list[str]]:
    """The columns of each index of ``tables``, the primary keys included, by index name."""
    inspector = inspect(engine)
    columns: dict[str, list[str]] = {}
    for table in tables:
        primary = inspector.get_pk_constraint(table)
        columns[primary["name"] or f"{table} primary key"] = primary["constrained_columns"]
        for index in inspector.get_indexes(table):
            columns[str(index["name"])] = [str(name) for name in index["column_names"]]
    return columns


def _plan_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _plan_nodes(child)


def _postgres_accesses(engine: Engine, sent: Sent) -> list[Access]:
    """(table or index, how, constrained leading columns) of each table read."""
    indexes = _index_columns(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        cursor.execute("EXPLAIN (FORMAT JSON) " + sent.statement, sent.parameters)
        plan = cursor.fetchone()[0]  # type: ignore[index]
        connection.rollback()
    if isinstance(plan, str):
        plan = json.loads(plan)
    accesses: list[Access] = []
    for node in _plan_nodes(plan[0]["Plan"]):
        how = f"{node['Node Type']} {node.get('Index Name', '')} {node.get('Index Cond', '')}"
        if node.get("Relation Name") in TABLES and node["Node Type"] == "Seq Scan":
            accesses.append((node["Relation Name"], how, []))
        elif node.get("Index Name") in indexes:
            conditioned = set(_CONDITIONED.findall(node.get("Index Cond", "")))
            leading: list[str] = []
            for column in indexes[node["Index Name"]]:
                if column not in conditioned:
                    break
                leading.append(column)
            accesses.append((node["Index Name"], how, leading))
    return accesses


def _accesses(backend: Backend, sent: Sent) -> list[Access]:
    if backend.engine.dialect.name == "postgresql":
        return _postgres_accesses(backend.engine, sent)
    return _sqlite_accesses(backend.engine, sent)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_every_statement_reads_only_the_rows_it_is_about(backend: Backend, operation: str) -> None:
    sent = backend.sent[operation]
    assert sent, f"{operation} sent no statement on memory_terms"
    for one in sent:
        accesses = _accesses(backend, one)
        too_wide = [how for _, how, keys in accesses if NARROW_KEYS.isdisjoint(keys)]
        assert too_wide == [], f"{operation}: {one.statement}"


def test_the_foreign_key_to_the_memories_is_indexed(backend: Backend) -> None:
    """The cascade of a memory's deletion (erasure, purge) finds its term rows by index."""
    indexes = _index_columns(backend.engine, frozenset({"memory_terms"}))
    assert any(columns[0] == "memory_id" for columns in indexes.values())
