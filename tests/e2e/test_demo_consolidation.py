"""The demo on the embedded default (no Redis, no LLM) shows what consolidation produced."""

from __future__ import annotations

import json
from pathlib import Path

from memory_service.config import Settings
from memory_service.demo import run_demo


def sections(output: list[str]) -> dict[str, object]:
    """Each ``== title: HTTP n`` heading and the JSON body printed after it (last one wins)."""
    found: dict[str, object] = {}
    for chunk in output:
        if chunk.startswith("\n== "):
            title = chunk.strip()[3:].rsplit(":", 1)[0]
        elif chunk.startswith(("{", "[")):
            found[title] = json.loads(chunk)
    return found


def test_the_demo_ends_sessions_into_global_memories_without_redis_or_llm(tmp_path: Path) -> None:
    output: list[str] = []

    run_demo(Settings.from_env({"MEMORY_SERVICE_HOME": str(tmp_path)}), echo=output.append)

    shown = sections(output)
    first = shown["global memories after consolidation"]["memories"]  # type: ignore[index]
    assert sorted(m["text"] for m in first) == [
        "Prefers aisle seats on flights.",
        "Uses VS Code as editor.",
    ]
    assert all(m["status"] == "active" and m["provenance"]["derived_from"] for m in first)
    final = {m["text"]: m for m in shown["global memories: VS Code superseded by Vim"]["memories"]}  # type: ignore[index]
    assert final["Now uses Vim as editor."]["status"] == "active"
    assert final["Uses VS Code as editor."]["status"] == "superseded"
    assert (
        final["Uses VS Code as editor."]["superseded_by"] == final["Now uses Vim as editor."]["id"]
    )
