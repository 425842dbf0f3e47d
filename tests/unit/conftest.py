"""Fixtures the unit tests on the in-memory fakes share; a module's own fixture of the
same name overrides one here."""

from __future__ import annotations

import pytest

from tests.support.fakes import FixedClock, InMemoryUnitOfWorkFactory


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def factory() -> InMemoryUnitOfWorkFactory:
    """A fresh, empty in-memory store."""
    return InMemoryUnitOfWorkFactory()
