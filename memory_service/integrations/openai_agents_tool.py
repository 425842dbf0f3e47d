"""``save_memory_note`` as an OpenAI Agents SDK ``function_tool``, calling the service in-process.

For an agent that runs in the same process as the service (the HTTP-client binding is in
:mod:`memory_service.integrations.openai_agents`). Tenant, subject and session come from the
run context the application passes to ``Runner.run``; the model's arguments cannot name
them: the tool's parameters do not have them and any extra argument is dropped.

    memory = MemoryContext(container, tenant_id="acme", subject_id="customer-42",
                           session_id=session.id)
    agent = Agent[MemoryContext](name="assistant", tools=[save_memory_note_tool])
    await Runner.run(agent, "Remember that I prefer aisle seats", context=memory)
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from agents import RunContextWrapper, function_tool
from agents.tool_context import ToolContext

from memory_service.core.errors import MemoryServiceError
from memory_service.core.model import Role
from memory_service.core.scope import TenantScope
from memory_service.services.notes import save_memory_note as save_note_service
from memory_service.tool import DESCRIPTION, TOOL_NAME

if TYPE_CHECKING:
    from memory_service.bootstrap import Container


@dataclass
class MemoryContext:
    """Who the run acts for, set by the application, never by the model.

    ``turn`` is the conversation turn the application is in, kept in the note's provenance so
    trimming can re-inject the note once that turn is cut.
    """

    container: Container
    tenant_id: str
    subject_id: str
    session_id: str
    actor: str = "agent:openai-agents"
    turn: int | None = None

    @property
    def scope(self) -> TenantScope:
        return TenantScope(tenant_id=self.tenant_id, role=Role.AGENT, actor=self.actor)


def _refusal(context: RunContextWrapper[Any], error: Exception) -> str:
    """What the model reads when the call fails: a fixed message, never the arguments.

    Malformed arguments (wrong types) read as an ``invalid`` rejection, like the HTTP route;
    a service error (session ended or unknown) carries its code and safe message.
    """
    if isinstance(error, MemoryServiceError):
        return json.dumps({"error": {"code": error.code, "message": error.message}})
    return json.dumps(
        {
            "status": "rejected",
            "memory_id": None,
            "reasons": [{"code": "invalid", "detail": "the arguments do not match the schema"}],
        }
    )


async def _save_memory_note(
    context: ToolContext[MemoryContext],
    text: str,
    keywords: list[str],
    purpose: str | None,
    source: Literal["user_stated", "system_record", "model_inferred"],
    durability: Literal["durable", "session"],
    confirmed: bool,
) -> str:
    """Save one note about the user; the answer is the service's JSON result.

    Args:
        text: The fact, one or two sentences of your own words.
        keywords: 0 to 3 lower-case topic words.
        purpose: What decisions the note may serve (a slug); null for the session's purpose.
        source: user_stated when the user said it; model_inferred for your inference.
        durability: durable for a lasting fact; session for this conversation only.
        confirmed: true only if the user explicitly confirmed this note.
    """
    memory = context.context
    arguments: dict[str, Any] = {
        "text": text,
        "keywords": keywords,
        "purpose": purpose,
        "source": source,
        "durability": durability,
        "confirmed": confirmed,
        "turn": memory.turn,
        "tool_call_id": context.tool_call_id,
    }
    # The guards (Presidio) and the database are blocking: keep them off the event loop.
    result = await asyncio.to_thread(
        save_note_service,
        memory.scope,
        memory.session_id,
        arguments,
        subject_id=memory.subject_id,
        deps=memory.container.notes,
    )
    return json.dumps(result.to_json())


save_memory_note_tool = function_tool(
    _save_memory_note,
    name_override=TOOL_NAME,
    description_override=DESCRIPTION,
    failure_error_function=_refusal,
    strict_mode=True,
)
