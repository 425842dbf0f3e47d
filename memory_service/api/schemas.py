"""Request and response bodies. Inputs forbid unknown fields; outputs never carry secrets."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memory_service.core.history import CHAT_ROLES, MAX_ITEM_KEYS, MAX_ITEMS_PER_APPEND
from memory_service.core.model import Memory, Session
from memory_service.core.purpose import PURPOSE_MAX_LENGTH, PURPOSE_SHAPE
from memory_service.core.scope import SUBJECT_ID_MAX_LENGTH, SUBJECT_ID_PATTERN
from memory_service.core.state import MAX_KEY_LENGTH, MAX_STATE_DEPTH

# The shapes the services check, published in the OpenAPI document (json_schema_extra) so a
# client sees them; the services stay the one place that enforces them, with their own messages
# (a refused subject id is named as e-mail- or phone-like, never echoed).
PURPOSE_PATTERN = f"^{PURPOSE_SHAPE.pattern}$"


class StrictBody(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OpenSessionRequest(StrictBody):
    subject_id: str = Field(
        max_length=SUBJECT_ID_MAX_LENGTH,
        description="Opaque subject id: never a name, e-mail or phone number",
        json_schema_extra={"minLength": 1, "pattern": SUBJECT_ID_PATTERN},
    )
    purpose: str | None = Field(
        default=None,
        max_length=PURPOSE_MAX_LENGTH,
        description="What decisions the session's notes may serve (a lower-case slug); "
        "general when null",
        json_schema_extra={"pattern": PURPOSE_PATTERN},
    )


class SessionResponse(BaseModel):
    session_id: str
    subject_id: str
    purpose: str
    status: str
    opened_at: datetime
    ended_at: datetime | None = None

    @classmethod
    def of(cls, session: Session) -> SessionResponse:
        return cls(
            session_id=session.id,
            subject_id=session.subject_id,
            purpose=session.purpose,
            status=session.status.value,
            opened_at=session.opened_at,
            ended_at=session.ended_at,
        )


_STATE_TEXT: dict[str, Any] = {"type": "string", "pattern": "^[^\\x00]*$"}
_STATE_KEY: dict[str, Any] = {**_STATE_TEXT, "minLength": 1, "maxLength": MAX_KEY_LENGTH}
_STATE_SCALARS: list[dict[str, Any]] = [
    _STATE_TEXT,
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
]


def _state_value_schema(depth: int) -> dict[str, Any]:
    """What ``core.state`` accepts at ``depth``, unrolled (a recursive reference cannot
    bound the depth): keys of 1..64 characters, no NUL in any text, nothing deeper than
    6 levels. The size limit (16 KiB) and the privacy guards on keys and values are
    checked by the service alone."""
    if depth == MAX_STATE_DEPTH:
        empty = [{"type": "array", "maxItems": 0}, {"type": "object", "maxProperties": 0}]
        return {"anyOf": [*_STATE_SCALARS, *empty]}
    inner = _state_value_schema(depth + 1)
    containers = [
        {"type": "array", "items": inner},
        {"type": "object", "propertyNames": _STATE_KEY, "additionalProperties": inner},
    ]
    return {"anyOf": [*_STATE_SCALARS, *containers]}


class PutStateRequest(StrictBody):
    state: dict[str, Any] = Field(
        description="The whole new state: a small JSON object (at most 16 KiB)",
        json_schema_extra={
            "propertyNames": _STATE_KEY,
            "additionalProperties": _state_value_schema(1),
        },
    )


class StateResponse(BaseModel):
    subject_id: str
    updated_at: datetime


class ProvenanceOut(BaseModel):
    actor: str
    session_id: str | None
    turn: int | None
    tool_call_id: str | None
    derived_from: list[str]


class MemoryOut(BaseModel):
    id: str
    subject_id: str
    scope: str
    session_id: str | None
    text: str
    keywords: list[str]
    # What the note is about ({"key": ..., "cardinality": "single" | "multi"}), if sent.
    attribute: dict[str, str] | None = None
    purpose: str
    source: str
    durability: str
    provenance: ProvenanceOut
    legal_basis: str
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None
    status: str
    superseded_at: datetime | None
    superseded_by: str | None

    @classmethod
    def of(cls, memory: Memory) -> MemoryOut:
        return cls(
            id=memory.id,
            subject_id=memory.subject_id,
            scope=memory.scope.value,
            session_id=memory.session_id,
            text=memory.text,
            keywords=list(memory.keywords),
            attribute=memory.attribute.to_dict() if memory.attribute else None,
            purpose=memory.purpose,
            source=memory.source.value,
            durability=memory.durability.value,
            provenance=ProvenanceOut(**memory.provenance.to_dict()),
            legal_basis=memory.legal_basis,
            created_at=memory.created_at,
            updated_at=memory.updated_at,
            expires_at=memory.expires_at,
            status=memory.status.value,
            superseded_at=memory.superseded_at,
            superseded_by=memory.superseded_by,
        )


class MemoryList(BaseModel):
    memories: list[MemoryOut]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class HealthResponse(BaseModel):
    status: str
    checks: dict[str, str]


class ContextResponse(BaseModel):
    text: str = Field(description="State front matter, memory policy and memory blocks")
    manifest: dict[str, Any] = Field(description="What went in, what was left out and why")


class AppendTurnsRequest(StrictBody):
    items: list[dict[str, Any]] = Field(
        description="Agent-runtime items (messages, tool calls, outputs); "
        "a user message opens a turn",
        json_schema_extra={
            "minItems": 1,
            "maxItems": MAX_ITEMS_PER_APPEND,
            "items": {
                "type": "object",
                "minProperties": 1,
                "maxProperties": MAX_ITEM_KEYS,
                "properties": {"role": {"enum": [*sorted(CHAT_ROLES)]}},
            },
        },
    )

    @field_validator("items")
    @classmethod
    def _roles_are_text(cls, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A role that is a list or an object is refused here (422): the history service
        looks a role up among the chat roles, which raised TypeError (a 500) for those."""
        if any(not isinstance(item.get("role", ""), str) for item in items):
            raise ValueError("an item's role must be a string")
        return items


class AppendTurnsResponse(BaseModel):
    turns: list[int]
    cut: list[int]
    first_kept_turn: int


class TurnsResponse(BaseModel):
    items: list[dict[str, Any]]
    first_kept_turn: int
    last_turn: int


class PoppedItemResponse(BaseModel):
    item: dict[str, Any] | None


class ClearedTurnsResponse(BaseModel):
    deleted_turns: int
