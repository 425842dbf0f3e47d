"""An ``agents.Agent`` run by ``Runner.run`` against a fake OpenAI-compatible model: the
instructions carry the rendered context, the tool saves notes for the run's own subject and
session, and the service-backed Session stores and trims the turns. Over HTTP and in-process."""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from memory_service_client.openai_agents import (
    MemoryRunContext,
    memory_instructions,
    save_memory_note_tool,
)
from openai import AsyncOpenAI

from memory_service.bootstrap import Container
from memory_service.client import MemoryClient, in_process
from memory_service.core.model import MemoryScope, Role
from tests.factories import random_subject_id
from tests.support.containers import migrated_container
from tests.support.fake_llm import FakeLLM, Reply, Request, completion
from tests.support.service_server import serve

set_tracing_disabled(True)
pytestmark = pytest.mark.anyio
KEEP_TURNS = 2


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory) -> Container:
    home = tmp_path_factory.mktemp("agents-home")
    return migrated_container(
        {"MEMORY_SERVICE_HOME": str(home), "MEMORY_SERVICE_HISTORY_TURNS": str(KEEP_TURNS)}
    )


@pytest.fixture(scope="module")
def base_url(container: Container) -> Iterator[str]:
    with serve(container) as url:
        yield url


@pytest.fixture(params=["http", "in_process"])
async def client(
    request: pytest.FixtureRequest, container: Container
) -> AsyncIterator[MemoryClient]:
    _, key = container.keys.create(f"t-{secrets.token_hex(5)}", Role.AGENT)
    if request.param == "http":
        memory_client = MemoryClient(request.getfixturevalue("base_url"), key)
    else:
        memory_client = in_process(container, key)
    async with memory_client:
        yield memory_client


def tool_call(arguments: dict[str, Any]) -> Reply:
    body = json.loads(completion(None, finish_reason="tool_calls").body)
    body["choices"][0]["message"]["tool_calls"] = [
        {
            "id": f"call_{secrets.token_hex(4)}",
            "type": "function",
            "function": {"name": "save_memory_note", "arguments": json.dumps(arguments)},
        }
    ]
    return Reply(200, json.dumps(body).encode())


def note_then_answer(text: str) -> Any:
    """Save ``text`` on the first call of a turn, answer once the tool replied."""

    def behaviour(request: Request) -> Reply:
        if request["messages"][-1]["role"] == "tool":
            return completion("Noted.")
        return tool_call(
            {
                "text": text,
                "keywords": ["seats"],
                "purpose": None,
                "source": "user_stated",
                "durability": "durable",
                "confirmed": False,
            }
        )

    return behaviour


async def test_an_agent_run_injects_context_saves_notes_and_keeps_trimmed_history(
    client: MemoryClient, container: Container, fake_llm_server: FakeLLM
) -> None:
    subject = random_subject_id("customer")
    await client.put_state(subject, {"plan": "gold", "home_airport": "CDG"})
    opened = await client.open_session(subject, "travel")
    memory = MemoryRunContext(client, subject_id=subject, session_id=opened.session_id)
    model = OpenAIChatCompletionsModel(
        model="fake-model",
        openai_client=AsyncOpenAI(base_url=fake_llm_server.base_url, api_key="sk-fake"),
    )
    agent = Agent[MemoryRunContext](
        name="travel assistant",
        instructions=memory_instructions("You book trains and flights."),
        tools=[save_memory_note_tool()],
        model=model,
    )
    notes = [
        "Prefers aisle seats on long flights.",
        "Travels with a folding bicycle.",
        "Needs a vegetarian meal on flights.",
    ]
    for number, text in enumerate(notes, start=1):
        fake_llm_server.behaviour = note_then_answer(text)
        result = await Runner.run(
            agent, f"Request {number}", context=memory, session=memory.session()
        )
        assert result.final_output == "Noted."

    system = fake_llm_server.requests[-1]["messages"][0]
    assert system["role"] == "system" and system["content"].endswith("You book trains and flights.")
    assert "home_airport: CDG" in system["content"] and "<memory_policy>" in system["content"]
    assert notes[1] in system["content"]  # a session note of a kept turn

    history = await client.turns(opened.session_id)
    user_messages = [item["content"] for item in history.items if item.get("role") == "user"]
    assert user_messages == ["Request 2", "Request 3"]  # the last KEEP_TURNS turns

    assert memory.last_manifest is not None
    with container.uow_factory(memory.last_manifest["tenant_id"]) as uow:
        saved = uow.memories.list_for_session(opened.session_id)
    assert [note.text for note in saved] == notes
    assert {note.subject_id for note in saved} == {subject}
    assert all(note.scope is MemoryScope.SESSION for note in saved)
    assert [note.provenance.turn for note in saved] == [1, 2, 3]

    # Run 3 stored its input and cut turn 1: turn 1's note moved into the system prompt of
    # every later model call and context, and stays there until the session ends.
    systems = [request["messages"][0]["content"] for request in fake_llm_server.requests]
    assert notes[0] in systems[4] and notes[0] in systems[5]
    later = await client.context(subject, session_id=opened.session_id)
    assert later.manifest["reinjected"] == [saved[0].id] and notes[0] in later.text


@pytest.fixture
def fake_llm_server() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    try:
        yield server
    finally:
        server.stop()


async def test_session_pop_and_clear(client: MemoryClient) -> None:
    opened = await client.open_session(random_subject_id("customer"))
    memory = MemoryRunContext(client, subject_id=opened.subject_id, session_id=opened.session_id)
    session = memory.session()
    await session.add_items([{"role": "user", "content": "hi"}])
    await session.add_items([{"role": "assistant", "content": "hello"}])
    assert await session.get_items(limit=1) == [{"role": "assistant", "content": "hello"}]
    assert await session.pop_item() == {"role": "assistant", "content": "hello"}
    await session.clear_session()
    assert await session.get_items() == []
    assert await session.pop_item() is None
