"""``memory-service mcp`` driven by the MCP SDK's own client over stdio: it lists and calls the
tools and reads the context resource, in-process on a SQLite store and over HTTP; the tools have
the OpenAI tool's schema, errors reach the model with their code and never an argument's value,
and the session the server opened ends with it."""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memory_service.bootstrap import Container
from memory_service.core.model import Role, SessionStatus
from memory_service.tool import PARAMETERS
from tests.factories import random_subject_id
from tests.support.containers import migrated_container
from tests.support.service_server import serve

pytestmark = pytest.mark.anyio
COMMAND = str(Path(sys.executable).with_name("memory-service"))
TENANT_OF_KEY: dict[str, str] = {}
SECRET_TEXT = "My SSN is 078-05-1120 and my password is hunter2-Secret!"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp-home")


@pytest.fixture(scope="module")
def container(home: Path) -> Container:
    return migrated_container({"MEMORY_SERVICE_HOME": str(home)})


@pytest.fixture(params=["in_process", "http"])
def server_env(
    request: pytest.FixtureRequest, home: Path, container: Container
) -> Iterator[dict[str, str]]:
    record, key = container.keys.create(f"t-{secrets.token_hex(5)}", Role.AGENT)
    TENANT_OF_KEY[key] = record.tenant_id
    env = {
        "MEMORY_SERVICE_HOME": str(home),
        "MEMORY_SERVICE_API_KEY": key,
        "MEMORY_SERVICE_SUBJECT": random_subject_id("customer"),
        "MEMORY_SERVICE_PURPOSE": "travel",
    }
    if request.param == "http":
        with serve(container) as url:
            yield env | {"MEMORY_SERVICE_URL": url}
    else:
        yield env


async def test_an_mcp_client_lists_and_calls_the_tools(server_env: dict[str, str]) -> None:
    parameters = StdioServerParameters(command=COMMAND, args=["mcp"], env=server_env)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert {"save_memory_note", "get_memory_context"} <= set(tools)
        assert "subject" not in json.dumps(tools["save_memory_note"].input_schema)

        saved = await session.call_tool(
            "save_memory_note",
            {"text": "Prefers aisle seats on long flights.", "keywords": ["seats"]},
        )
        assert not saved.is_error
        assert saved.structured_content is not None
        assert saved.structured_content["status"] == "saved"

        refused = await session.call_tool(
            "save_memory_note", {"text": "My password is hunter2-Secret!"}
        )
        assert refused.structured_content is not None
        assert refused.structured_content["status"] == "rejected"

        context = await session.call_tool("get_memory_context", {})
        text = context.content[0].text  # type: ignore[union-attr]
        assert "Prefers aisle seats on long flights." in text
        assert "hunter2" not in text and "<memory_policy>" in text

        resource = await session.read_resource("memory://context")
        assert "Prefers aisle seats on long flights." in resource.contents[0].text  # type: ignore[union-attr]


def _without_keywords(schema: dict[str, Any], *names: str) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key not in names}


async def test_the_tools_have_the_openai_tools_schema_and_the_server_a_version(
    server_env: dict[str, str],
) -> None:
    parameters = StdioServerParameters(command=COMMAND, args=["mcp"], env=server_env)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        assert initialized.server_info.version not in ("", None)
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}

    assert {"save_memory_note", "get_memory_context", "end_session"} <= set(tools)
    properties = tools["save_memory_note"].input_schema["properties"]
    assert {
        name: _without_keywords(schema, "default", "title") for name, schema in properties.items()
    } == PARAMETERS["properties"]
    assert tools["save_memory_note"].input_schema["required"] == ["text"]
    budget = tools["get_memory_context"].input_schema["properties"]["max_tokens"]
    assert "1000000" in json.dumps(budget) and '"minimum": 1' in json.dumps(budget)
    assert all(schema.get("description") for schema in properties.values())


async def test_errors_reach_the_model_with_their_code_never_an_arguments_value(
    server_env: dict[str, str], container: Container, tmp_path: Path
) -> None:
    opened = await _open_and_end(container, server_env)
    env = server_env | {"MEMORY_SERVICE_SESSION": opened}
    parameters = StdioServerParameters(command=COMMAND, args=["mcp"], env=env)
    with (tmp_path / "stderr.log").open("w+") as errlog:
        async with (
            stdio_client(parameters, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            wrong_type = await session.call_tool(
                "save_memory_note", {"text": SECRET_TEXT, "keywords": SECRET_TEXT}
            )
            wrong_enum = await session.call_tool(
                "save_memory_note", {"text": "Likes trains.", "source": SECRET_TEXT}
            )
            missing = await session.call_tool("save_memory_note", {"txt": SECRET_TEXT})
            ended = await session.call_tool("save_memory_note", {"text": "Likes trains."})
        errlog.seek(0)
        logged = errlog.read()

    for answer in (wrong_type, wrong_enum, missing):
        text = answer.content[0].text  # type: ignore[union-attr]
        assert answer.is_error and '"invalid_request"' in text
        assert "078-05" not in text and "hunter2" not in text and "SSN" not in text
    assert ended.is_error and '"conflict"' in ended.content[0].text  # type: ignore[union-attr]
    assert "078-05" not in logged and "hunter2" not in logged
    assert opened not in logged and server_env["MEMORY_SERVICE_SUBJECT"] not in logged


async def test_the_session_it_opened_ends_with_end_session_and_on_exit(
    server_env: dict[str, str], container: Container
) -> None:
    parameters = StdioServerParameters(command=COMMAND, args=["mcp"], env=server_env)
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("save_memory_note", {"text": "Prefers aisle seats."})
        ended = await session.call_tool("end_session", {})
        assert not ended.is_error and ended.structured_content is not None
        assert ended.structured_content["status"] == SessionStatus.ENDED.value
        await session.call_tool("save_memory_note", {"text": "Prefers window seats."})

    sessions = _sessions(container, server_env)
    assert len(sessions) == 2
    assert {s.status for s in sessions} <= {SessionStatus.ENDED, SessionStatus.CONSOLIDATED}


def _sessions(container: Container, env: dict[str, str]) -> list[Any]:
    tenant_id = TENANT_OF_KEY[env["MEMORY_SERVICE_API_KEY"]]
    with container.uow_factory(tenant_id) as uow:
        return list(uow.sessions.list_for_subject(env["MEMORY_SERVICE_SUBJECT"]))


async def _open_and_end(container: Container, env: dict[str, str]) -> str:
    from memory_service.client import in_process

    async with in_process(container, env["MEMORY_SERVICE_API_KEY"]) as client:
        opened = await client.open_session(env["MEMORY_SERVICE_SUBJECT"])
        await client.end_session(opened.session_id)
    return opened.session_id
