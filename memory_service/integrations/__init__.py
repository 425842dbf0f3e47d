"""The server side of the agent bindings: the MCP server working in-process.

The bindings themselves (the OpenAI Agents SDK and MCP) live in the client distribution,
``memory_service_client`` (``clients/python``), which an agent installs without the server.
"""
