"""A lost or unreachable database becomes DependencyUnavailable (503, retry later).

The message is generic; the original error stays chained for the log, never for the caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import InterfaceError, OperationalError

from memory_service.core.errors import DependencyUnavailable

CONNECTION_FAILURES = (OperationalError, InterfaceError)


def unavailable() -> DependencyUnavailable:
    return DependencyUnavailable("the database is unavailable; retry later")


@contextmanager
def connection_failures_as_unavailable() -> Iterator[None]:
    try:
        yield
    except CONNECTION_FAILURES as exc:
        raise unavailable() from exc
