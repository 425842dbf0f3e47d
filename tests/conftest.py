"""Fixtures every layer shares: where the real PostgreSQL and Redis are.

A missing server fails the run under CI=true and is skipped elsewhere with a message
that names it, so a laptop without PostgreSQL still runs the unit tests.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

POSTGRES_URL = os.environ.get(
    "MEMORY_SERVICE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("MEMORY_SERVICE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
AMQP_URL = os.environ.get("MEMORY_SERVICE_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//")


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 0), 2):
            return True
    except OSError:
        return False


def _require(url: str, name: str) -> str:
    if _reachable(url):
        return url
    message = f"{name} is not reachable at {urlsplit(url).netloc}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; CI requires it")
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the database the PostgreSQL tests may create scratch databases from."""
    return _require(POSTGRES_URL, "PostgreSQL")


@pytest.fixture(scope="session")
def redis_url() -> str:
    return _require(REDIS_URL, "Redis")


@pytest.fixture(scope="session")
def amqp_url() -> str:
    """RabbitMQ, the broker that redelivers a dead worker's message at once."""
    return _require(AMQP_URL, "RabbitMQ")
