"""The service's adapters, built from environment variables on a store migrated first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memory_service.adapters import migrate
from memory_service.bootstrap import Container, build_container
from memory_service.config import Settings
from memory_service.core.scope import TenantScope


def migrated_container(env: Mapping[str, str]) -> Container:
    """What ``memory-service migrate`` then ``serve`` would build from ``env``: the schema
    comes from the Alembic migrations, as in production, never from ``create_all``."""
    # Consolidation runs before ``/end`` answers, so a test reads its result at once; the
    # background default has its own tests.
    settings = Settings.from_env({"MEMORY_SERVICE_CONSOLIDATE_INLINE": "1", **env})
    migrate.upgrade(settings.database_url)
    return build_container(settings)


class _NoTasks:
    """A task queue that sends nothing: the caller consolidates the session itself."""

    def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
        return None


def ended_session(
    container: Container, scope: TenantScope, subject: str, notes: Sequence[tuple[str, str]]
) -> str:
    """Open a session for ``subject``, save each (text, keyword) note, end it without queueing
    its consolidation; returns the session id (a worker's next task, set up by another process)."""
    from memory_service.services import notes as note_service
    from memory_service.services import sessions

    session = sessions.open_session(
        scope, subject, uow_factory=container.uow_factory, clock=container.clock
    )
    for text, keyword in notes:
        note_service.save_memory_note(
            scope, session.id, {"text": text, "keywords": [keyword]}, deps=container.notes
        )
    sessions.end_session(
        scope,
        session.id,
        uow_factory=container.uow_factory,
        clock=container.clock,
        tasks=_NoTasks(),
    )
    return session.id
