"""libpq's trace of an engine's connections: what each request sends on the wire."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa


@contextmanager
def traced(engine: sa.Engine, fileno: int) -> Iterator[None]:
    """Trace (libpq ``PQtrace``) every connection ``engine`` checks out meanwhile."""
    connections: list[Any] = []

    def on_checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        dbapi_connection.pgconn.trace(fileno)
        connections.append(dbapi_connection)

    sa.event.listen(engine, "checkout", on_checkout)
    try:
        yield
    finally:
        sa.event.remove(engine, "checkout", on_checkout)
        for connection in connections:
            connection.pgconn.untrace()


def sent_messages(trace: Path) -> list[str]:
    """The kinds of the messages the client sent (``Parse``, ``Sync``, ``Query``...)."""
    return [line.split("\t")[3] for line in trace.read_text().splitlines() if "\tF\t" in line]


def round_trips(sent: list[str]) -> int:
    """Each ``Sync`` (the extended protocol) or ``Query`` (the simple one: psycopg's own
    ``BEGIN`` and ``COMMIT``) waits for the server's answer: one round trip each."""
    return sum(kind in ("Sync", "Query") for kind in sent)
