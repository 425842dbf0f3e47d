"""``save_memory_note`` as an OpenAI Agents SDK ``function_tool``.

The typed form of the tool (the SDK builds its strict schema from the signature below), for
agents that declare their tools as functions; :func:`memory_service.integrations.openai_agents.
save_memory_note_tool` is the same call with the service's own JSON schema. Both read who the run
acts for from :class:`~memory_service.integrations.openai_agents.MemoryRunContext`, the run
context the application passes to ``Runner.run``: the client's key fixes the tenant, the context
names the session. The model's arguments cannot name them: the tool's parameters do not have
them and any extra argument is dropped.

    client = MemoryClient.in_process(container, agent_key)  # or MemoryClient(url, agent_key)
    memory = MemoryRunContext(client, subject_id="customer-42", session_id=session_id)
    agent = Agent[MemoryRunContext](name="assistant", tools=[save_memory_note_tool])
    await Runner.run(agent, "Remember that I prefer aisle seats", context=memory)
"""

from __future__ import annotations

import json
from typing import Any, Literal

from agents import RunContextWrapper, function_tool
from agents.tool_context import ToolContext
from pydantic import BaseModel, ConfigDict

from memory_service.core.errors import MemoryServiceError
from memory_service.integrations.openai_agents import MemoryRunContext
from memory_service.tool import DESCRIPTION, TOOL_NAME


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


class NoteAttribute(BaseModel):
    """What a note is about; see the ``attribute`` field of the tool schema."""

    model_config = ConfigDict(extra="forbid")

    key: str
    cardinality: Literal["single", "multi"]


async def _save_memory_note(
    context: ToolContext[MemoryRunContext],
    text: str,
    keywords: list[str],
    purpose: str | None,
    source: Literal["user_stated", "system_record", "model_inferred"],
    durability: Literal["durable", "session"],
    confirmed: bool,
    attribute: NoteAttribute | None,
) -> str:
    """Save one note about the user; the answer is the service's JSON result.

    Args:
        text: The fact, one or two sentences of your own words.
        keywords: 0 to 3 lower-case topic words.
        purpose: What decisions the note may serve (a slug); null for the session's purpose.
        source: user_stated when the user said it; model_inferred for your inference.
        durability: durable for a lasting fact; session for this conversation only.
        confirmed: true only if the user explicitly confirmed this note.
        attribute: what the note is about: a snake_case key (home_city, cuisine_liked) and
            single (a newer value replaces it) or multi (values add up); null if unsure.
    """
    memory = context.context
    arguments: dict[str, Any] = {
        "text": text,
        "keywords": keywords,
        "purpose": purpose,
        "source": source,
        "durability": durability,
        "confirmed": confirmed,
        "attribute": attribute.model_dump() if attribute is not None else None,
    }
    outcome = await memory.client.save_note(
        memory.session_id, arguments, tool_call_id=context.tool_call_id
    )
    return json.dumps(outcome.to_json())


save_memory_note_tool = function_tool(
    _save_memory_note,
    name_override=TOOL_NAME,
    description_override=DESCRIPTION,
    failure_error_function=_refusal,
    strict_mode=True,
)
