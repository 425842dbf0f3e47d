"""Renders kept by the fingerprint of what they read (``adapters/render_cache.py``): a
repeated render reuses its text, and every kind of write a render would see, in this
process or through another, is seen at once; nothing crosses tenants, subjects or requests."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from memory_service.adapters.render_cache import InProcessRenderCache
from memory_service.bootstrap import Container
from memory_service.core.model import NoteStatus, Role, Source
from memory_service.core.scope import TenantScope
from memory_service.services import context as context_service
from memory_service.services.admin import erase_subject
from memory_service.services.context import ContextDeps, render_context
from memory_service.services.notes import save_memory_note
from memory_service.services.sessions import open_session
from memory_service.services.subjects import put_state
from tests.factories import make_memory_for
from tests.support.containers import migrated_container
from tests.support.fakes import FixedClock


@pytest.fixture
def container(tmp_path: Path) -> Iterator[Container]:
    built = migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path)})
    yield built
    assert built.manifests is not None
    built.manifests.close()
    built.engine.dispose()


class Renders:
    """Renders of one subject through the real store, counting the ones built afresh."""

    def __init__(self, container: Container, monkeypatch: pytest.MonkeyPatch) -> None:
        self.container = container
        self.tenant = f"t-{secrets.token_hex(4)}"
        self.scope = TenantScope(tenant_id=self.tenant, role=Role.AGENT, actor="test")
        self.admin = TenantScope(tenant_id=self.tenant, role=Role.ADMIN, actor="test")
        self.subject = "subject-1"
        self.clock = FixedClock()
        self.deps: ContextDeps = replace(
            container.context, clock=self.clock, cache=InProcessRenderCache()
        )
        self.session = open_session(
            self.scope, self.subject, uow_factory=container.uow_factory, clock=self.clock
        ).id
        self.built = 0
        render = context_service._render

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.built += 1
            return render(*args, **kwargs)

        monkeypatch.setattr(context_service, "_render", counted)

    def text(self, **request: Any) -> str:
        result = render_context(self.scope, self.subject, deps=self.deps, **request)
        return result.text

    def add_global(self, note: str, **fields: Any) -> str:
        memory = make_memory_for(self.scope, self.subject, note, at=self.clock.now(), **fields)
        with self.container.uow_factory(self.tenant) as uow:
            uow.memories.add(memory)
            uow.commit()
        return memory.id


@pytest.fixture
def renders(container: Container, monkeypatch: pytest.MonkeyPatch) -> Renders:
    return Renders(container, monkeypatch)


def test_a_repeated_render_is_reused_with_a_manifest_of_its_own(renders: Renders) -> None:
    renders.add_global("Prefers aisle seats on long flights.")
    first = render_context(renders.scope, renders.subject, deps=renders.deps)
    second = render_context(renders.scope, renders.subject, deps=renders.deps)
    assert renders.built == 1
    assert second.text == first.text and "aisle seats" in second.text
    assert second.manifest["id"] != first.manifest["id"]
    assert {k: v for k, v in second.manifest.items() if k not in ("id", "rendered_at")} == {
        k: v for k, v in first.manifest.items() if k not in ("id", "rendered_at")
    }
    # Another request of the same subject is its own entry.
    renders.text(session_id=renders.session)
    renders.text(purpose="travel")
    assert renders.built == 3


def test_each_kind_of_write_is_seen_at_once(renders: Renders) -> None:
    c = renders.container
    kept = renders.add_global("Prefers aisle seats on long flights.")
    assert "aisle" in renders.text(session_id=renders.session)

    saved = save_memory_note(
        renders.scope, renders.session, {"text": "Drinks green tea in the morning."}, deps=c.notes
    )
    assert saved.status is NoteStatus.SAVED
    assert "green tea" in renders.text(session_id=renders.session)

    put_state(
        renders.scope,
        renders.subject,
        {"plan": "pro"},
        uow_factory=c.uow_factory,
        clock=renders.clock,
        pii=c.pii,
        identifiers=c.identifiers,
    )
    assert "plan: pro" in renders.text(session_id=renders.session)

    # A write behind the service's back (another process, an operator): same columns read.
    with c.engine.begin() as connection:
        connection.execute(
            text("UPDATE memories SET source = :source WHERE id = :id"),
            {"source": Source.MODEL_INFERRED.value, "id": kept},
        )
    assert "<hypotheses" in renders.text(session_id=renders.session)

    # Expiry: nothing is written, time passes.
    renders.add_global(
        "Works from Lyon this week.", expires_at=renders.clock.now() + timedelta(hours=1)
    )
    assert "Lyon" in renders.text(session_id=renders.session)
    renders.clock.set(renders.clock.now() + timedelta(hours=2))
    assert "Lyon" not in renders.text(session_id=renders.session)
    before = renders.built
    renders.text(session_id=renders.session)
    assert renders.built == before  # and unchanged, reused again

    erase_subject(renders.admin, renders.subject, deps=replace(c.admin, clock=renders.clock))
    gone = renders.text()
    assert "aisle" not in gone and "green tea" not in gone and "plan" not in gone


def test_a_render_is_never_served_to_another_tenant_or_subject(
    container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = Renders(container, monkeypatch), Renders(container, monkeypatch)
    second.deps = replace(second.deps, cache=first.deps.cache)  # one cache, as in a process
    first.add_global("Prefers aisle seats on long flights.")
    assert "aisle" in first.text()
    # The same subject id in another tenant, the same reads but for the tenant: nothing.
    assert "aisle" not in second.text()
    other = render_context(first.scope, "subject-2", deps=first.deps)
    assert "aisle" not in other.text


def test_the_cache_is_bounded_in_entries_and_in_time() -> None:
    now = [0.0]
    cache = InProcessRenderCache(entries=2, seconds=60.0, monotonic=lambda: now[0])
    for number in range(3):
        cache.put(("t", f"s-{number}"), b"r", f"text {number}", {})
    assert len(cache) == 2 and cache.get(("t", "s-0"), b"r") is None
    assert cache.get(("t", "s-2"), b"other reads") is None  # and dropped
    assert len(cache) == 1
    now[0] += 61.0
    assert cache.get(("t", "s-1"), b"r") is None and len(cache) == 0


def test_an_erasure_in_this_process_drops_the_subjects_rendered_text_at_once(
    container: Container,
) -> None:
    """Not only unmatched at its next read: the plaintext leaves the process's cache when the
    subject is erased here (the keyring tells the container's cache)."""
    cache = container.context.cache
    assert isinstance(cache, InProcessRenderCache)
    tenant = f"t-{secrets.token_hex(4)}"
    scope = TenantScope(tenant_id=tenant, role=Role.AGENT, actor="test")
    admin = TenantScope(tenant_id=tenant, role=Role.ADMIN, actor="test")
    memory = make_memory_for(scope, "subject-1", "Prefers aisle seats on long flights.")
    with container.uow_factory(tenant) as uow:
        uow.memories.add(memory)
        uow.commit()
    other = make_memory_for(scope, "subject-2", "Prefers window seats.")
    with container.uow_factory(tenant) as uow:
        uow.memories.add(other)
        uow.commit()
    assert "aisle" in render_context(scope, "subject-1", deps=container.context).text
    render_context(scope, "subject-2", deps=container.context)
    assert len(cache) == 2

    erase_subject(admin, "subject-1", deps=container.admin)
    assert len(cache) == 1  # the other subject's render stays
