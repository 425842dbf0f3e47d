"""``memory-service demo``: one end-to-end run through the real HTTP app, in-process.

It runs on whatever store the settings name (the embedded SQLite default when nothing is
set), with a fresh demo tenant each time, and prints what an integrator would see.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from memory_service.adapters import migrate as migrations
from memory_service.api.app import create_app
from memory_service.bootstrap import build_container
from memory_service.config import Settings
from memory_service.core.model import Role

Echo = Callable[[str], None]


def run_demo(settings: Settings, *, echo: Echo) -> None:
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    # A one-shot run shows the consolidation's result right after the end call.
    container = build_container(replace(settings, consolidate_inline=True))
    tenant = f"demo-{secrets.token_hex(3)}"
    _, agent_key = container.keys.create(tenant, Role.AGENT)
    _, admin_key = container.keys.create(tenant, Role.ADMIN)
    echo(f"store: {'SQLite (embedded default)' if settings.is_embedded else 'PostgreSQL'}")
    echo(f"tenant {tenant}: one agent key and one admin key created")
    agent = {"Authorization": f"Bearer {agent_key}"}
    admin = {"Authorization": f"Bearer {admin_key}"}
    subject = f"customer-{secrets.token_hex(4)}"

    with TestClient(create_app(container)) as client:
        _show(echo, "health", client.get("/healthz"))
        state = {"plan": "pro", "locale": "fr-FR", "timezone": "Europe/Paris"}
        _show(
            echo,
            "replace state",
            client.put(f"/v1/subjects/{subject}/state", json={"state": state}, headers=agent),
        )
        opened = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        _show(echo, "open session", opened)
        session_id = opened.json()["session_id"]
        for title, note in (
            ("save a note", {"text": "Uses VS Code as editor.", "keywords": ["editor"]}),
            ("save a note", {"text": "Prefers aisle seats on flights.", "keywords": ["seat"]}),
            (
                "personal data is refused (the detail names the type, never the value)",
                {"text": "Her e-mail is jane.doe@example.com."},
            ),
            (
                "a guess is refused",
                {"text": "I think the user probably prefers trains."},
            ),
            (
                "the same fact again is a duplicate",
                {"text": "prefers aisle seats on flights"},
            ),
            (
                "a this-time-only note is kept for the session, never promoted",
                {"text": "Wants a quiet room for this call.", "durability": "session"},
            ),
        ):
            _show(
                echo,
                title,
                client.post(f"/v1/sessions/{session_id}/notes", json=note, headers=agent),
            )
        _show(echo, "end session", client.post(f"/v1/sessions/{session_id}/end", headers=agent))
        # No REDIS_URL and no LLM: the end consolidated in-process, by the deterministic rules.
        _show(echo, "global memories after consolidation", _globals(client, subject, admin))
        later = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        later_id = later.json()["session_id"]
        _show(
            echo,
            "next session: a newer editor",
            client.post(
                f"/v1/sessions/{later_id}/notes",
                json={"text": "Now uses Vim as editor.", "keywords": ["editor"]},
                headers=agent,
            ),
        )
        client.post(f"/v1/sessions/{later_id}/end", headers=agent)
        _show(echo, "global memories: VS Code superseded by Vim", _globals(client, subject, admin))
        third = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        third_id = third.json()["session_id"]
        turn = [
            {"role": "user", "content": "Find me a train to Lyon."},
            {"role": "assistant", "content": "Here are three options."},
        ]
        _show(
            echo,
            "record a turn of the conversation (kept encrypted, last N turns only)",
            client.post(f"/v1/sessions/{third_id}/turns", json={"items": turn}, headers=agent),
        )
        _show(
            echo,
            "the context the next model call sees, and its manifest",
            client.get(
                f"/v1/subjects/{subject}/context",
                params={"session_id": third_id, "purpose": "travel"},
                headers=agent,
            ),
        )
        _show(
            echo,
            "refused subject id (looks like an e-mail)",
            client.post("/v1/sessions", json={"subject_id": "jane@example.com"}, headers=agent),
        )
        _show(
            echo,
            "agent key on an admin route",
            client.get(f"/v1/subjects/{subject}/memories", headers=agent),
        )
        _show(
            echo,
            "admin lists memories",
            client.get(f"/v1/subjects/{subject}/memories", headers=admin),
        )
        export = f"/v1/admin/subjects/{subject}/export"
        _show(echo, "admin exports everything held", client.get(export, headers=admin))
        _show(
            echo,
            "admin erases the subject (the receipt is kept)",
            client.delete(f"/v1/admin/subjects/{subject}", headers=admin),
        )
        _show(echo, "export after the erasure", client.get(export, headers=admin))


def _globals(client: TestClient, subject: str, admin: dict[str, str]) -> Any:
    return client.get(f"/v1/subjects/{subject}/memories?scope=global", headers=admin)


def _show(echo: Echo, title: str, response: Any) -> None:
    echo(f"\n== {title}: HTTP {response.status_code}")
    echo(json.dumps(response.json(), indent=2, ensure_ascii=False))
