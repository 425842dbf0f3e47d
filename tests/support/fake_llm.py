"""A small OpenAI-compatible chat-completions server on loopback, for the real client.

It answers ``POST /v1/chat/completions`` from a scriptable behaviour and records every
request body, so tests can count calls and see exactly what was sent. Use the
``fake_llm`` fixture (import it into a test module) or :class:`FakeLLM` directly.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Request = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """What the server sends back: a status and a raw body."""

    status: int
    body: bytes


Behaviour = Callable[[Request], Reply]


def completion(
    content: str | None,
    *,
    refusal: str | None = None,
    finish_reason: str = "stop",
    prompt_tokens: int = 50,
    completion_tokens: int = 10,
) -> Reply:
    """A well-formed chat completion carrying ``content`` (or a refusal)."""
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }
    return Reply(200, json.dumps(body).encode())


def _payload(request: Request) -> dict[str, Any]:
    user = next(m for m in request["messages"] if m["role"] == "user")
    payload: dict[str, Any] = json.loads(user["content"])
    return payload


def sent_pairs(request: Request) -> list[dict[str, str]]:
    """The pairs a judge request carries, flattened: ``pair_id``, older ``a``, newer ``b``,
    and their kinds (``stated`` or ``hypothesis``)."""
    return [
        {
            "pair_id": p["pair_id"],
            "a": p["older"]["text"],
            "b": p["newer"]["text"],
            "a_kind": p["older"]["kind"],
            "b_kind": p["newer"]["kind"],
        }
        for p in _payload(request)["pairs"]
    ]


def sent_notes(request: Request) -> list[dict[str, str]]:
    """The notes a judge request asks a second opinion on: ``check_id`` and ``text``."""
    return list(_payload(request)["notes"])


def verdicts_by_text(
    table: Mapping[frozenset[str], str],
    default: str = "unrelated",
    *,
    refuse: frozenset[str] = frozenset(),
    fenced: bool = False,
) -> Behaviour:
    """Answer each pair with the verdict the table gives for its two texts, and keep every
    note but those in ``refuse``; ``fenced`` wraps the JSON in a Markdown code fence, as
    local servers without structured output do."""

    def behaviour(request: Request) -> Reply:
        verdicts = [
            {"pair_id": p["pair_id"], "verdict": table.get(frozenset((p["a"], p["b"])), default)}
            for p in sent_pairs(request)
        ]
        notes = [
            {"check_id": n["check_id"], "verdict": "refuse" if n["text"] in refuse else "keep"}
            for n in sent_notes(request)
        ]
        content = json.dumps({"verdicts": verdicts, "notes": notes})
        return completion(f"```json\n{content}\n```" if fenced else content)

    return behaviour


def garbage(request: Request) -> Reply:
    return completion("{ this is not json")


def refusal(request: Request) -> Reply:
    return completion(None, refusal="I can't help with that.")


def server_error(request: Request) -> Reply:
    return Reply(500, b'{"error": {"message": "boom", "type": "server_error"}}')


class FakeLLM:
    """The server, its recorded requests and its current behaviour."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.behaviour: Behaviour = verdicts_by_text({})
        self._stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def slow(self, seconds: float) -> None:
        """Sleep longer than the client's timeout before answering (cut short on stop)."""
        fallback = self.behaviour

        def behaviour(request: Request) -> Reply:
            self._stop.wait(seconds)
            return fallback(request)

        self.behaviour = behaviour

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path != "/v1/chat/completions":
                    self._send(Reply(404, b'{"error": {"message": "not found"}}'))
                    return
                request = json.loads(raw)
                fake.requests.append(request)
                self._send(fake.behaviour(request))

            def _send(self, reply: Reply) -> None:
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout); nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                """Silence the default stderr access log."""

        return Handler


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    server = FakeLLM().start()
    try:
        yield server
    finally:
        server.stop()
