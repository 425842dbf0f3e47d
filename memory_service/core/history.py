"""A session's history as turns, and what the store remembers about its trimming.

Agent runtimes hand over *items* (messages, tool calls, tool outputs) in batches. A turn is one
exchange: it opens with a user message and holds everything that follows until the next user
message, so a batch that continues an exchange (the runtime may save the user's input first and
the model's output later) extends the last turn instead of opening a new one. Turn indices only
grow: they are what a note's ``provenance.turn`` refers to, so they are never reused, not even
after the history was cleared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memory_service.core.errors import InvalidRequest
from memory_service.core.trimming import TrimResult, Turn

MAX_ITEMS_PER_APPEND = 200
MAX_ITEM_KEYS = 64
# The turn's role is stored in clear (the items themselves are encrypted), so it is never
# free text: an item's ``role`` must be a chat role, and the stored label is that role, a
# known item type of the Responses API, or "item".
CHAT_ROLES = frozenset({"user", "assistant", "system", "developer", "tool", "function"})
ITEM_TYPES = frozenset(
    {
        "message",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "reasoning",
        "file_search_call",
        "web_search_call",
        "computer_call",
        "computer_call_output",
        "code_interpreter_call",
        "image_generation_call",
        "local_shell_call",
        "local_shell_call_output",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
        "mcp_approval_response",
        "item_reference",
        "compaction",
    }
)

Item = dict[str, Any]


@dataclass(frozen=True)
class HistoryMarks:
    """Every turn below ``first_kept_turn`` was cut; ``reinjected`` notes were carried forward."""

    first_kept_turn: int = 1
    reinjected: frozenset[str] = field(default_factory=frozenset)

    def cut_so_far(self) -> TrimResult:
        """The trim as :func:`memory_service.core.trimming.notes_to_reinject` reads it.

        Only the boundary matters there: the cut turns themselves are deleted, so one marker
        turn just below the first kept one stands for all of them.
        """
        if self.first_kept_turn <= 1:
            return TrimResult(kept=(), cut=())
        marker = Turn(self.first_kept_turn - 1, "cut", "", datetime.min)
        return TrimResult(kept=(), cut=(marker,))


def validate_items(items: object) -> list[Item]:
    """A non-empty list of JSON objects; the body limit bounds their size."""
    if not isinstance(items, list) or not items:
        raise InvalidRequest("items must be a non-empty list of JSON objects")
    if len(items) > MAX_ITEMS_PER_APPEND:
        raise InvalidRequest(f"at most {MAX_ITEMS_PER_APPEND} items per call")
    for item in items:
        if not isinstance(item, dict) or not item or len(item) > MAX_ITEM_KEYS:
            raise InvalidRequest(
                f"each item must be a non-empty JSON object of at most {MAX_ITEM_KEYS} keys"
            )
        if "role" in item and item["role"] not in CHAT_ROLES:
            raise InvalidRequest(f"an item's role must be one of {', '.join(sorted(CHAT_ROLES))}")
    return [dict(item) for item in items]


def opens_turn(item: Mapping[str, Any]) -> bool:
    return item.get("role") == "user" and item.get("type", "message") == "message"


def _role_of(item: Mapping[str, Any]) -> str:
    role, kind = item.get("role"), item.get("type")
    if role in CHAT_ROLES:
        return str(role)
    return str(kind) if kind in ITEM_TYPES else "item"


def turn_items(turn: Turn) -> list[Item]:
    items: list[Item] = json.loads(turn.content)
    return items


def _turn(index: int, items: list[Item], created_at: datetime) -> Turn:
    return Turn(index, _role_of(items[0]), json.dumps(items, ensure_ascii=False), created_at)


def append_items(
    last: Turn | None, items: Sequence[Item], *, next_index: int, now: datetime
) -> list[Turn]:
    """The turns to write for ``items``: the last one extended, then each new one.

    Items before the first user message continue the last turn (or open one when there is
    none); each user message opens a turn numbered from ``next_index``.
    """
    written: dict[int, tuple[list[Item], datetime]] = {}
    current: tuple[int, list[Item], datetime] | None = None
    if last is not None:
        current = (last.index, turn_items(last), last.created_at)
    for item in items:
        if current is None or opens_turn(item):
            current = (next_index, [], now)
            next_index += 1
        current[1].append(item)
        written[current[0]] = (current[1], current[2])
    return [_turn(index, kept, created) for index, (kept, created) in written.items()]


def next_turn_index(turns: Sequence[Turn], marks: HistoryMarks) -> int:
    """One past the newest turn, never below a cut boundary (indices are not reused)."""
    newest = max((turn.index for turn in turns), default=0)
    return max(newest + 1, marks.first_kept_turn)


def pop_last_item(turns: Sequence[Turn]) -> tuple[Item | None, Turn | None, int | None]:
    """The newest item, the last turn without it (None if now empty), and that turn's index."""
    if not turns:
        return None, None, None
    last = max(turns, key=lambda turn: turn.index)
    items = turn_items(last)
    item = items.pop()
    remaining = _turn(last.index, items, last.created_at) if items else None
    return item, remaining, last.index
