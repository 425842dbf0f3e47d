"""``memory-service mcp`` driven by the MCP SDK's own client over stdio: it lists and calls the
tools and reads the context resource, in-process on a SQLite store and over HTTP."""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from memory_service.bootstrap import Container
from memory_service.core.model import Role
from tests.support.containers import migrated_container
from tests.support.service_server import serve

pytestmark = pytest.mark.anyio
COMMAND = str(Path(sys.executable).with_name("memory-service"))


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
    _, key = container.keys.create(f"t-{secrets.token_hex(5)}", Role.AGENT)
    env = {
        "MEMORY_SERVICE_HOME": str(home),
        "MEMORY_SERVICE_API_KEY": key,
        "MEMORY_SERVICE_SUBJECT": f"customer-{secrets.token_hex(4)}",
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
