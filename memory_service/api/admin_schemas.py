"""Bodies of the admin endpoints: correction in; receipt, deletion and history out."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memory_service.api.schemas import MemoryOut, StrictBody
from memory_service.core.erasure import ErasureReceipt
from memory_service.core.model import AuditEvent, Memory
from memory_service.services import admin as admin_rules


class CorrectMemoryRequest(StrictBody):
    text: str = Field(description="The corrected text; checked like a note (one or two sentences)")
    reason: str = Field(
        description="A lower-case code such as user_request or inaccurate",
        # The service's own rule (checked there, with its message), published for clients.
        json_schema_extra={"pattern": admin_rules.REASON_SHAPE.pattern},
    )


class CorrectionResponse(BaseModel):
    memory: MemoryOut = Field(description="The new memory, source admin_correction")
    superseded: str = Field(description="Id of the memory it supersedes")


class DeletedMemoryResponse(BaseModel):
    memory_id: str
    status: str
    updated_at: datetime

    @classmethod
    def of(cls, memory: Memory) -> DeletedMemoryResponse:
        return cls(memory_id=memory.id, status=memory.status.value, updated_at=memory.updated_at)


class ErasureReceiptResponse(BaseModel):
    id: str = Field(description="The request id; the receipt is kept and appears in exports")
    subject_id: str
    requested_by: str
    erased_at: datetime
    counts: dict[str, int] = Field(description="Rows removed per kind; all zero if none held")

    @classmethod
    def of(cls, receipt: ErasureReceipt) -> ErasureReceiptResponse:
        return cls.model_validate(receipt.to_dict())


class AuditEventOut(BaseModel):
    id: str
    kind: str
    at: datetime
    actor: str
    memory_id: str | None
    session_id: str | None
    details: dict[str, Any]

    @classmethod
    def of(cls, event: AuditEvent) -> AuditEventOut:
        return cls(
            id=event.id,
            kind=event.kind,
            at=event.at,
            actor=event.actor,
            memory_id=event.memory_id,
            session_id=event.session_id,
            details=dict(event.details),
        )


class HistoryResponse(BaseModel):
    subject_id: str
    events: list[AuditEventOut]
