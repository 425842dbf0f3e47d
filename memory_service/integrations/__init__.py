"""Bindings for agent runtimes: the OpenAI Agents SDK and MCP, both through the client."""
