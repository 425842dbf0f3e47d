"""The OpenAI Agents SDK binding (extra ``openai-agents``): a service-backed ``Session``, dynamic
instructions that inject the context, and the ``save_memory_note`` tool bound to the run's
subject and session.

Everything goes through :class:`memory_service_client.MemoryClient`. Who the run acts for (the
client's key, hence the tenant; the subject; the session) lives in :class:`MemoryRunContext`,
the run context the application passes to ``Runner.run``: the model never names them, so a
prompt cannot make it read or write another subject's memory.

    memory = MemoryRunContext(client, subject_id="customer-42", session_id=opened.session_id)
    agent = Agent[MemoryRunContext](
        name="assistant",
        instructions=memory_instructions("You are a helpful travel agent."),
        tools=[save_memory_note_tool()],
    )
    await Runner.run(agent, "Book my usual seat", context=memory, session=memory.session())

The tool never raises out of the run: a refusal is the service's answer (``status`` rejected,
with reason codes) and a service error (an ended session's 409, an outage) comes back to the
model as ``{"error": {"code", "message"}}``, which it can tell the user about.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agents import Agent, FunctionTool, RunContextWrapper
from agents.memory import SessionSettings
from agents.tool_context import ToolContext

from memory_service_client._client import MemoryClient
from memory_service_client.errors import MemoryServiceError
from memory_service_client.tool import DESCRIPTION, PARAMETERS, TOOL_NAME


@dataclass
class MemoryRunContext:
    """What one run acts for, set by the application, never by the model.

    The client's key fixes the tenant. ``last_manifest`` is the latest render's.
    """

    client: MemoryClient
    subject_id: str
    session_id: str
    purpose: str | None = None
    max_tokens: int | None = None
    last_manifest: dict[str, Any] | None = field(default=None, repr=False)

    def session(self, settings: SessionSettings | None = None) -> ServiceSession:
        return ServiceSession(self.client, self.session_id, session_settings=settings)


class ServiceSession:
    """The Agents SDK ``Session`` protocol over the service's history endpoints.

    The service keeps only the last N turns (``MEMORY_SERVICE_HISTORY_TURNS``): what was cut is
    gone, and the session notes saved in it stay in the instructions' context until the
    session ends.
    """

    def __init__(
        self,
        client: MemoryClient,
        session_id: str,
        *,
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.client = client
        self.session_id = session_id
        self.session_settings = session_settings

    async def get_items(self, limit: int | None = None) -> list[Any]:
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        return list((await self.client.turns(self.session_id, limit=limit)).items)

    async def add_items(self, items: list[Any]) -> None:
        if items:
            await self.client.append_turns(self.session_id, [_plain(item) for item in items])

    async def pop_item(self) -> Any | None:
        return await self.client.pop_item(self.session_id)

    async def clear_session(self) -> None:
        await self.client.clear_turns(self.session_id)


def _plain(item: Any) -> dict[str, Any]:
    """A JSON object for the wire; the SDK hands over dicts, sometimes pydantic models."""
    if hasattr(item, "model_dump"):
        item = item.model_dump(exclude_unset=True, mode="json")
    plain: dict[str, Any] = json.loads(json.dumps(item, default=str))
    return plain


Instructions = Callable[
    [RunContextWrapper[MemoryRunContext], Agent[MemoryRunContext]], Awaitable[str]
]


def memory_instructions(base: str) -> Instructions:
    """``Agent(instructions=...)``: the subject's context, fetched before each model call, then
    ``base``. The context's own policy block tells the model memory is data, not instructions.
    """

    async def instructions(
        wrapper: RunContextWrapper[MemoryRunContext], agent: Agent[MemoryRunContext]
    ) -> str:
        memory = wrapper.context
        rendered = await memory.client.context(
            memory.subject_id,
            session_id=memory.session_id,
            purpose=memory.purpose,
            max_tokens=memory.max_tokens,
        )
        memory.last_manifest = rendered.manifest
        return f"{rendered.text}\n{base}"

    return instructions


_NOT_AN_OBJECT = {
    "status": "rejected",
    "memory_id": None,
    "reasons": [{"code": "invalid", "detail": "arguments must be a JSON object"}],
}


def save_memory_note_tool() -> FunctionTool:
    """The tool with the service's own strict schema; scope comes from the run context only.

    The service records the session's latest turn as the note's (the SDK stores the user's
    input before the model runs). Service errors are returned to the model, never raised.
    """

    async def invoke(tool_context: ToolContext[MemoryRunContext], raw_arguments: str) -> str:
        memory = tool_context.context
        try:
            arguments = json.loads(raw_arguments)
        except ValueError:
            arguments = None
        if not isinstance(arguments, dict):
            # The guards answer `invalid` for this; no need to send it.
            return json.dumps(_NOT_AN_OBJECT)
        try:
            outcome = await memory.client.save_note(
                memory.session_id, arguments, tool_call_id=tool_context.tool_call_id
            )
        except MemoryServiceError as error:
            return json.dumps(error.to_json())
        return json.dumps(outcome.to_json())

    return FunctionTool(
        name=TOOL_NAME,
        description=DESCRIPTION,
        params_json_schema=PARAMETERS,
        on_invoke_tool=invoke,
        strict_json_schema=True,
    )
