"""The service's adapters, built from environment variables on a store migrated first."""

from __future__ import annotations

from collections.abc import Mapping

from memory_service.adapters import migrate
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings


def migrated_container(env: Mapping[str, str]) -> Container:
    """What ``memory-service migrate`` then ``serve`` would build from ``env``: the schema
    comes from the Alembic migrations, as in production, never from ``create_all``."""
    # Consolidation runs before ``/end`` answers, so a test reads its result at once; the
    # background default has its own tests.
    settings = Settings.from_env({"MEMORY_SERVICE_CONSOLIDATE_INLINE": "1", **env})
    migrate.upgrade(settings.database_url)
    return build_container(settings)
