"""The note endpoints' answer: always ``{"status", "memory_id", "reasons"}``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from memory_service.core.model import ReasonCode
from memory_service.services.notes import NoteResult


class ReasonOut(BaseModel):
    # The core's vocabulary itself, so a new reason code can never answer 500.
    code: ReasonCode
    detail: str


class NoteResponse(BaseModel):
    status: Literal["saved", "rejected", "duplicate", "needs_confirmation"]
    memory_id: str | None
    reasons: list[ReasonOut]

    @classmethod
    def of(cls, result: NoteResult) -> NoteResponse:
        return cls.model_validate(result.to_json())
