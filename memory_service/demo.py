"""``memory-service demo``: one end-to-end run through the real HTTP app, in-process.

It runs on whatever store the settings name (the embedded SQLite default when nothing is
set), with a fresh demo tenant each time, and tells what happened in a few lines per step:
what was saved, what was refused and why (reason codes and types, never the refused text), what
consolidation produced, what the next context shows and the erasure receipt. With
``json_output`` (``memory-service demo --json``) it prints every raw answer instead.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from fastapi.testclient import TestClient

from memory_service.adapters import migrate as migrations
from memory_service.api.app import create_app
from memory_service.bootstrap import build_container
from memory_service.config import Settings
from memory_service.core.model import Role

Echo = Callable[[str], None]
Summary = Callable[[Any], list[str]]


class _Report:
    """Each step as a short story line (the default) or as its raw JSON answer."""

    def __init__(self, echo: Echo, *, json_output: bool) -> None:
        self._echo = echo
        self._json = json_output

    def say(self, line: str) -> None:
        self._echo(line)

    def step(self, title: str, response: Any, summary: Summary | None = None) -> None:
        if self._json:
            self._echo(f"\n== {title}: HTTP {response.status_code}")
            self._echo(json.dumps(response.json(), indent=2, ensure_ascii=False))
            return
        body = response.json()
        if "error" in body and isinstance(body["error"], dict):
            lines = [
                f"answered {response.status_code} {body['error']['code']}: "
                f"{body['error']['message']}"
            ]
        else:
            lines = summary(body) if summary else []
        self._echo(f"\n- {title}")
        for line in lines:
            self._echo(f"    {line}")


def _note(sent: Mapping[str, Any]) -> Summary:
    def summary(body: Any) -> list[str]:
        status = body["status"]
        if status == "rejected":
            reasons = ", ".join(f"{r['code']} ({r['detail']})" for r in body["reasons"])
            return [f"refused, nothing stored: {reasons}"]
        if status == "duplicate":
            return [f"duplicate: already known as memory {body['memory_id']}, nothing new stored"]
        return [f'{status}: "{sent["text"]}"']

    return summary


def _memories(body: Any) -> list[str]:
    return [
        f'{m["status"]:<11} "{m["text"]}"'
        + (" (merged from the session)" if m["provenance"]["derived_from"] else "")
        for m in body["memories"]
    ] or ["(none)"]


def _context(body: Any) -> list[str]:
    manifest = body["manifest"]
    memories = [line.strip() for line in body["text"].splitlines() if line.startswith("<memory ")]
    lines = [
        f"{manifest['total_tokens']} tokens: the state, the memory policy and "
        f"{len(memories)} memories:"
    ]
    lines += [f"  {line}" for line in memories]
    dropped = [d["reason"] for d in manifest["dropped"]]
    lines.append(f"left out: {', '.join(dropped) if dropped else 'nothing'}")
    return lines


def _receipt(body: Any) -> list[str]:
    counts = ", ".join(f"{name} {count}" for name, count in body["counts"].items() if count)
    return [f"receipt {body['id']} at {body['erased_at']}", f"erased: {counts}"]


def _export(body: Any) -> list[str]:
    return [
        f"{len(body['memories'])} memories, {len(body['sessions'])} sessions, "
        f"state {'set' if body['state'] else 'none'}, "
        f"{len(body['erasure_receipts'])} erasure receipt(s)"
    ]


def run_demo(settings: Settings, *, echo: Echo, json_output: bool = False) -> None:
    if settings.is_embedded:
        migrations.upgrade(settings.database_url)
    # A one-shot run shows the consolidation's result right after the end call.
    container = build_container(settings.model_copy(update={"consolidate_inline": True}))
    tenant = f"demo-{secrets.token_hex(3)}"
    _, agent_key = container.keys.create(tenant, Role.AGENT)
    _, admin_key = container.keys.create(tenant, Role.ADMIN)
    report = _Report(echo, json_output=json_output)
    report.say(f"store: {'SQLite (embedded default)' if settings.is_embedded else 'PostgreSQL'}")
    report.say(f"tenant {tenant}: one agent key and one admin key created")
    agent = {"Authorization": f"Bearer {agent_key}"}
    admin = {"Authorization": f"Bearer {admin_key}"}
    subject = f"customer-{secrets.token_hex(4)}"

    with TestClient(create_app(container)) as client:
        report.step("health", client.get("/healthz"), lambda b: [f"{b['status']}: {b['checks']}"])
        state = {"plan": "pro", "locale": "fr-FR", "timezone": "Europe/Paris"}
        report.step(
            "replace state",
            client.put(f"/v1/subjects/{subject}/state", json={"state": state}, headers=agent),
            lambda _: [f"the operator's profile of {subject}: {state}"],
        )
        opened = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        report.step(
            "open session", opened, lambda b: [f"session {b['session_id']} ({b['purpose']})"]
        )
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
            report.step(
                title,
                client.post(f"/v1/sessions/{session_id}/notes", json=note, headers=agent),
                _note(note),
            )
        report.step(
            "end session",
            client.post(f"/v1/sessions/{session_id}/end", headers=agent),
            lambda b: [f"{b['status']}: its durable notes are consolidated into global memory"],
        )
        # No REDIS_URL and no LLM: the end consolidated in-process, by the deterministic rules.
        report.step(
            "global memories after consolidation", _globals(client, subject, admin), _memories
        )
        later = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        later_id = later.json()["session_id"]
        newer = {"text": "Now uses Vim as editor.", "keywords": ["editor"]}
        report.step(
            "next session: a newer editor",
            client.post(f"/v1/sessions/{later_id}/notes", json=newer, headers=agent),
            _note(newer),
        )
        client.post(f"/v1/sessions/{later_id}/end", headers=agent)
        report.step(
            "global memories: VS Code superseded by Vim",
            _globals(client, subject, admin),
            _memories,
        )
        third = client.post("/v1/sessions", json={"subject_id": subject}, headers=agent)
        third_id = third.json()["session_id"]
        turn = [
            {"role": "user", "content": "Find me a train to Lyon."},
            {"role": "assistant", "content": "Here are three options."},
        ]
        report.step(
            "record a turn of the conversation (kept encrypted, last N turns only)",
            client.post(f"/v1/sessions/{third_id}/turns", json={"items": turn}, headers=agent),
            lambda b: [f"turn {b['turns'][0]} stored"],
        )
        report.step(
            "the context the next model call sees, and its manifest",
            client.get(
                f"/v1/subjects/{subject}/context",
                params={"session_id": third_id, "purpose": "travel"},
                headers=agent,
            ),
            _context,
        )
        report.step(
            "refused subject id (looks like an e-mail)",
            client.post("/v1/sessions", json={"subject_id": "jane@example.com"}, headers=agent),
        )
        report.step(
            "agent key on an admin route",
            client.get(f"/v1/subjects/{subject}/memories", headers=agent),
        )
        report.step(
            "admin lists memories",
            client.get(f"/v1/subjects/{subject}/memories", headers=admin),
            lambda b: [f"{len(b['memories'])} memories, session and global, with provenance"],
        )
        export = f"/v1/admin/subjects/{subject}/export"
        report.step("admin exports everything held", client.get(export, headers=admin), _export)
        report.step(
            "admin erases the subject (the receipt is kept)",
            client.delete(f"/v1/admin/subjects/{subject}", headers=admin),
            _receipt,
        )
        report.step("export after the erasure", client.get(export, headers=admin), _export)
        if not json_output:
            report.say("\n(the raw answers: memory-service demo --json)")


def _globals(client: TestClient, subject: str, admin: dict[str, str]) -> Any:
    return client.get(f"/v1/subjects/{subject}/memories?scope=global", headers=admin)
