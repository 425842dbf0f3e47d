"""The Agents SDK tool, driven by the SDK's own ``Runner.run`` against a loopback
chat-completions server whose model calls the tool, with an in-process client: scope comes from
the run context only, whatever the model puts in its arguments, and a service error is the
model's to read, never an exception out of the run."""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from memory_service_client.openai_agents import MemoryRunContext, save_memory_note_tool
from openai import AsyncOpenAI

from memory_service.bootstrap import Container
from memory_service.client import MemoryClient, in_process
from memory_service.core.model import Memory, Role, Source
from memory_service.tool import PARAMETERS, SAVE_MEMORY_NOTE_TOOL, TOOL_NAME
from tests.factories import random_subject_id
from tests.support.containers import migrated_container
from tests.support.fake_agent_model import CallToolOnce
from tests.support.fake_llm import FakeLLM

set_tracing_disabled(True)
pytestmark = pytest.mark.anyio

NOTE = {
    "text": "Prefers aisle seats on long flights.",
    "keywords": ["seats"],
    "purpose": None,
    "source": "user_stated",
    "durability": "durable",
    "confirmed": False,
    "attribute": {"key": "seat_long_flights", "cardinality": "single"},
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory) -> Container:
    return migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path_factory.mktemp("tool"))})


@pytest.fixture
def model_server() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class AgentTenant:
    """A fresh tenant's agent key and its in-process client."""

    tenant_id: str
    key_id: str
    client: MemoryClient


@pytest.fixture
async def tenant(container: Container) -> AsyncIterator[AgentTenant]:
    record, key = container.keys.create(f"t-{secrets.token_hex(5)}", Role.AGENT)
    async with in_process(container, key) as client:
        yield AgentTenant(record.tenant_id, record.id, client)


async def _context(tenant: AgentTenant) -> MemoryRunContext:
    subject = random_subject_id("subject")
    opened = await tenant.client.open_session(subject)
    return MemoryRunContext(tenant.client, subject_id=subject, session_id=opened.session_id)


def _memories(container: Container, tenant: AgentTenant, context: MemoryRunContext) -> list[Memory]:
    with container.uow_factory(tenant.tenant_id) as uow:
        return uow.memories.list_for_session(context.session_id)


async def _run(server: FakeLLM, behaviour: CallToolOnce, context: MemoryRunContext) -> str:
    server.behaviour = behaviour
    model = OpenAIChatCompletionsModel(
        model="fake-model",
        openai_client=AsyncOpenAI(base_url=server.base_url, api_key="sk-fake", max_retries=0),
    )
    agent = Agent[MemoryRunContext](
        name="assistant", instructions="Be brief.", model=model, tools=[save_memory_note_tool()]
    )
    result = await Runner.run(agent, "Please remember my seat preference.", context=context)
    assert result.final_output == behaviour.final
    [output] = behaviour.tool_outputs
    return output


def test_the_sdk_tool_offers_the_same_strict_parameters_as_the_json_schema() -> None:
    tool = save_memory_note_tool()
    schema = tool.params_json_schema

    assert tool.name == TOOL_NAME == SAVE_MEMORY_NOTE_TOOL["function"]["name"]
    assert tool.strict_json_schema and schema["additionalProperties"] is False
    assert schema == PARAMETERS
    for scope_field in ("tenant_id", "subject_id", "session_id"):
        assert scope_field not in schema["properties"]


async def test_a_note_from_the_model_is_saved_in_the_run_contexts_session(
    container: Container, tenant: AgentTenant, model_server: FakeLLM
) -> None:
    context = await _context(tenant)
    behaviour = CallToolOnce(TOOL_NAME, NOTE, call_id="call_seat_1")

    output = json.loads(await _run(model_server, behaviour, context))

    assert output["status"] == "saved"
    [memory] = _memories(container, tenant, context)
    assert memory.id == output["memory_id"] and memory.session_id == context.session_id
    assert memory.provenance.tool_call_id == "call_seat_1"
    assert memory.attribute is not None and memory.attribute.key == "seat_long_flights"
    assert memory.provenance.actor == f"key:{tenant.key_id}"
    assert TOOL_NAME in {tool["function"]["name"] for tool in behaviour.offered_tools[0]}


async def test_scope_arguments_from_the_model_reach_no_other_session(
    container: Container, tenant: AgentTenant, model_server: FakeLLM
) -> None:
    victim = await _context(tenant)
    context = await _context(tenant)
    hostile = NOTE | {
        "tenant_id": "another-tenant",
        "subject_id": victim.subject_id,
        "session_id": victim.session_id,
    }

    output = json.loads(await _run(model_server, CallToolOnce(TOOL_NAME, hostile), context))

    # The schema has no such arguments: the service refuses the call as invalid, stores
    # nothing in either session, and the model reads why.
    assert output["status"] == "rejected"
    assert [reason["code"] for reason in output["reasons"]] == ["invalid"]
    assert _memories(container, tenant, context) == []
    assert _memories(container, tenant, victim) == []


async def test_an_inferred_note_is_kept_as_a_hypothesis(
    container: Container, tenant: AgentTenant, model_server: FakeLLM
) -> None:
    context = await _context(tenant)
    # A plain fact with an inferred source (the retrained judgment model holds "Travels with a
    # small child." as a possible guess: speculative 0.56, confirm threshold 0.38).
    inferred = NOTE | {"text": "Travels with two young children.", "source": "model_inferred"}

    output = json.loads(await _run(model_server, CallToolOnce(TOOL_NAME, inferred), context))

    [memory] = _memories(container, tenant, context)
    assert output["status"] == "saved"
    assert memory.source is Source.MODEL_INFERRED and memory.is_hypothesis


async def test_a_refused_note_answers_its_reasons_and_stores_nothing(
    container: Container, tenant: AgentTenant, model_server: FakeLLM
) -> None:
    context = await _context(tenant)
    pii = NOTE | {"text": "Her e-mail address is jane.doe@example.com."}

    output = json.loads(await _run(model_server, CallToolOnce(TOOL_NAME, pii), context))

    assert output["status"] == "rejected"
    assert "pii" in {reason["code"] for reason in output["reasons"]}
    assert "jane" not in json.dumps(output)
    assert _memories(container, tenant, context) == []


@pytest.mark.parametrize(
    "arguments",
    [
        NOTE | {"keywords": "seats"},
        NOTE | {"text": {"nested": "Prefers aisle seats."}},
        "{not json",
    ],
    ids=["keywords as a string", "text as an object", "malformed json"],
)
async def test_malformed_arguments_read_as_invalid_and_store_nothing(
    container: Container, tenant: AgentTenant, model_server: FakeLLM, arguments: Any
) -> None:
    context = await _context(tenant)

    output = json.loads(await _run(model_server, CallToolOnce(TOOL_NAME, arguments), context))

    assert output["status"] == "rejected"
    assert [reason["code"] for reason in output["reasons"]] == ["invalid"]
    assert "aisle" not in json.dumps(output)
    assert _memories(container, tenant, context) == []


async def test_an_ended_session_answers_the_services_error_and_stores_nothing(
    container: Container, tenant: AgentTenant, model_server: FakeLLM
) -> None:
    context = await _context(tenant)
    await tenant.client.end_session(context.session_id)

    output = json.loads(await _run(model_server, CallToolOnce(TOOL_NAME, NOTE), context))

    assert output["error"]["code"] == "conflict"
    assert "aisle" not in json.dumps(output)
    assert _memories(container, tenant, context) == []
