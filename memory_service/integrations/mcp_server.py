"""``memory-service mcp``: the client's MCP server, in-process when ``MEMORY_SERVICE_URL`` is
unset (on the store the usual settings name: ``DATABASE_URL``, the embedded default otherwise).

The tools, their schema and their errors are :mod:`memory_service_client.mcp_server`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memory_service_client import ConfigurationError as ClientConfigurationError
from memory_service_client import MemoryClient
from memory_service_client.mcp_server import McpConfig, http_client, quiet_request_logs
from memory_service_client.mcp_server import build_server as build_client_server

from memory_service.client import in_process
from memory_service.config import ConfigurationError, Settings

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from memory_service.bootstrap import Container


def build_server(env: Mapping[str, str]) -> MCPServer[Any]:
    """The server for this environment; raises ConfigurationError before serving anything."""

    def make_client(config: McpConfig) -> MemoryClient:
        if config.url:
            return http_client(config)
        return in_process(_local_container(env), config.api_key)

    quiet_request_logs()
    try:
        return build_client_server(env, make_client)
    except ClientConfigurationError as exc:
        raise ConfigurationError(str(exc)) from None


def _local_container(env: Mapping[str, str]) -> Container:
    from memory_service.adapters import migrate
    from memory_service.bootstrap import build_container

    settings = Settings.from_env(env)
    if settings.is_embedded:
        migrate.upgrade(settings.database_url)
    return build_container(settings)
