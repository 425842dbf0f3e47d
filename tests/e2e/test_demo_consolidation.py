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

    settings = Settings.from_env({"MEMORY_SERVICE_HOME": str(tmp_path)})
    run_demo(settings, echo=output.append, json_output=True)

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


def test_the_demo_tells_a_short_story_without_the_refused_text(tmp_path: Path) -> None:
    output: list[str] = []

    run_demo(Settings.from_env({"MEMORY_SERVICE_HOME": str(tmp_path)}), echo=output.append)

    story = "\n".join(output)
    assert len(story.splitlines()) < 100 and "{\n" not in story
    assert 'saved: "Uses VS Code as editor."' in story
    assert "refused, nothing stored: pii (EMAIL_ADDRESS)" in story
    assert "jane.doe" not in story  # the refused note's text is never echoed
    assert 'superseded  "Uses VS Code as editor."' in story
    assert "Now uses Vim as editor.</memory>" in story  # what the next context shows
    assert "erased: memories 7" in story and "1 erasure receipt(s)" in story
