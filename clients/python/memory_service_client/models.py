"""The service's answers as typed models.

Each mirrors one response schema of the service's OpenAPI document (named in its docstring);
``tests/unit/test_client_models.py`` builds the service's ``/openapi.json`` and compares the
fields, so the two cannot drift. Unknown fields are ignored: a newer service may add some.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class SessionInfo(_Answer):
    """``SessionResponse``: an opened or ended session."""

    session_id: str
    subject_id: str
    purpose: str
    status: str
    opened_at: datetime
    ended_at: datetime | None = None


ReasonCode = Literal[
    "invalid",
    "pii",
    "secret",
    "speculative",
    "ephemeral",
    "not_actionable",
    "instruction",
    "sensitive",
]
NoteStatus = Literal["saved", "rejected", "duplicate", "needs_confirmation"]


class Reason(_Answer):
    """``ReasonOut``: why a note was refused or needs confirmation (a code, never the text)."""

    code: ReasonCode
    detail: str


class NoteOutcome(_Answer):
    """``NoteResponse``: ``save_memory_note``'s answer."""

    status: NoteStatus
    memory_id: str | None
    reasons: list[Reason]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class Context(_Answer):
    """``ContextResponse``: the text to put before the agent's instructions, and the manifest."""

    text: str
    manifest: dict[str, Any]


class StateUpdated(_Answer):
    """``StateResponse``."""

    subject_id: str
    updated_at: datetime


class AppendedTurns(_Answer):
    """``AppendTurnsResponse``: the turns written and those trimmed away."""

    turns: list[int]
    cut: list[int]
    first_kept_turn: int


class History(_Answer):
    """``TurnsResponse``: the kept items, oldest first."""

    items: list[dict[str, Any]]
    first_kept_turn: int
    last_turn: int


class PoppedItem(_Answer):
    """``PoppedItemResponse``."""

    item: dict[str, Any] | None


class ClearedTurns(_Answer):
    """``ClearedTurnsResponse``."""

    deleted_turns: int
