"""The note endpoints' answer: always ``{"status", "memory_id", "reasons"}``."""

from __future__ import annotations

from pydantic import BaseModel

from memory_service.core.model import NoteStatus, ReasonCode
from memory_service.services.notes import NoteResult


class ReasonOut(BaseModel):
    # The core's vocabulary itself, so a new reason code can never answer 500.
    code: ReasonCode
    detail: str


class NoteResponse(BaseModel):
    status: NoteStatus
    memory_id: str | None
    reasons: list[ReasonOut]

    @classmethod
    def of(cls, result: NoteResult) -> NoteResponse:
        return cls.model_validate(result.to_json())
