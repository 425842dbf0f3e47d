"""Chat-completions replies that make an Agents SDK run call a tool, for the loopback FakeLLM.

The model of these runs calls one tool once with scripted arguments, then, once the tool's
output is in the conversation, answers with plain text. The tool outputs it was sent are
kept, so a test can read exactly what the tool answered.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.support.fake_llm import Reply, Request, completion


def tool_call_reply(name: str, arguments: str, call_id: str) -> Reply:
    """A completion whose only content is a call of ``name`` with raw JSON ``arguments``."""
    body = json.loads(completion(None, finish_reason="tool_calls").body)
    body["choices"][0]["message"]["tool_calls"] = [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    ]
    return Reply(200, json.dumps(body).encode())


@dataclass
class CallToolOnce:
    """Behaviour: call the tool first; after its output arrives, answer ``final``."""

    name: str
    arguments: dict[str, Any] | str
    call_id: str = "call_fake_1"
    final: str = "Noted."
    tool_outputs: list[str] = field(default_factory=list)
    offered_tools: list[list[dict[str, Any]]] = field(default_factory=list)

    def __call__(self, request: Request) -> Reply:
        self.offered_tools.append(list(request.get("tools") or []))
        outputs = [m["content"] for m in request["messages"] if m.get("role") == "tool"]
        if outputs:
            self.tool_outputs.extend(outputs)
            return completion(self.final)
        raw = self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)
        return tool_call_reply(self.name, raw, self.call_id)
