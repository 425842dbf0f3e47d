"""A small typed async client for the agent endpoints, over HTTP or in-process.

Agents usually run in their own process and event loop (the Agents SDK and MCP are async), so
the client is async, over ``httpx``. Errors come back as the core's errors
(:mod:`memory_service.core.errors`), mapped from the status code, so code written against the
service layer reads the same over HTTP. Retries, with exponential backoff and jitter:

- GET and PUT (idempotent) on a transport error, a timeout, or a 502/503/504;
- any call on a 503 (the service refused it before doing anything: its transaction rolled
  back) or on a connection that could not be made (nothing was sent).

A POST whose answer was lost is not repeated: it may have been applied.
``MemoryClient.in_process(container, key)`` talks to ``create_app(container)`` through httpx's
ASGI transport: the same HTTP semantics, no socket.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import httpx

from memory_service.core.errors import (
    AuthenticationError,
    Conflict,
    DependencyUnavailable,
    InvalidRequest,
    MemoryServiceError,
    NotFound,
    PermissionDenied,
)

if TYPE_CHECKING:
    from memory_service.bootstrap import Container

DEFAULT_TIMEOUT_SECONDS = 10.0
DEFAULT_RETRIES = 3
_IDEMPOTENT = frozenset({"GET", "PUT"})
_RETRYABLE_STATUS = frozenset({502, 503, 504})
_MAX_BACKOFF_SECONDS = 5.0

_ERRORS: dict[int, type[MemoryServiceError]] = {
    400: InvalidRequest,
    401: AuthenticationError,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: InvalidRequest,
    422: InvalidRequest,
    503: DependencyUnavailable,
}

Item = dict[str, Any]


@dataclass(frozen=True)
class SessionInfo:
    session_id: str
    subject_id: str
    purpose: str
    status: str


@dataclass(frozen=True)
class Context:
    """The text to put before the agent's instructions, and the manifest of the render."""

    text: str
    manifest: dict[str, Any]


@dataclass(frozen=True)
class NoteOutcome:
    """``save_memory_note``'s answer: status, memory id and reasons (codes and details)."""

    status: str
    memory_id: str | None
    reasons: list[dict[str, str]]

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "memory_id": self.memory_id, "reasons": self.reasons}


@dataclass(frozen=True)
class History:
    items: list[Item]
    first_kept_turn: int
    last_turn: int


@dataclass(frozen=True)
class AppendedTurns:
    turns: list[int]
    cut: list[int]
    first_kept_turn: int


def error_for(response: httpx.Response) -> MemoryServiceError:
    """The core error of an error response; its message is the service's (never note text)."""
    try:
        message = str(response.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        message = f"HTTP {response.status_code}"
    return _ERRORS.get(response.status_code, MemoryServiceError)(message)


class MemoryClient:
    """One API key, one tenant. Use as ``async with MemoryClient(url, key) as client``."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        retries: int = DEFAULT_RETRIES,
        backoff_seconds: float = 0.2,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=timeout,
            transport=transport,
        )
        self._retries = retries
        self._backoff = backoff_seconds

    @classmethod
    def in_process(cls, container: Container, api_key: str, **options: Any) -> MemoryClient:
        """A client of ``create_app(container)`` in this process, through the ASGI transport."""
        from memory_service.api.app import create_app

        transport = httpx.ASGITransport(app=create_app(container))
        return cls("http://memory-service.local", api_key, transport=transport, **options)

    async def __aenter__(self) -> MemoryClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        query = {key: value for key, value in (params or {}).items() if value is not None}
        attempt = 0
        while True:
            try:
                response = await self._http.request(method, path, json=json, params=query)
            except httpx.TransportError as exc:
                retryable = method in _IDEMPOTENT or isinstance(exc, httpx.ConnectError)
                if not retryable or attempt >= self._retries:
                    raise DependencyUnavailable("the memory service is unreachable") from exc
            else:
                retryable = response.status_code == 503 or (
                    method in _IDEMPOTENT and response.status_code in _RETRYABLE_STATUS
                )
                if response.is_success:
                    return response.json()
                if not retryable or attempt >= self._retries:
                    raise error_for(response)
            await asyncio.sleep(self._delay(attempt))
            attempt += 1

    def _delay(self, attempt: int) -> float:
        """Exponential backoff with full jitter, capped."""
        return random.uniform(0, min(_MAX_BACKOFF_SECONDS, self._backoff * 2**attempt))

    # --- sessions and notes ------------------------------------------------------------------

    async def open_session(self, subject_id: str, purpose: str | None = None) -> SessionInfo:
        body: dict[str, Any] = {"subject_id": subject_id}
        if purpose is not None:
            body["purpose"] = purpose
        return _session(await self._request("POST", "/v1/sessions", json=body))

    async def end_session(self, session_id: str) -> SessionInfo:
        return _session(await self._request("POST", f"/v1/sessions/{_segment(session_id)}/end"))

    async def save_note(
        self,
        session_id: str,
        arguments: Mapping[str, Any],
        *,
        turn: int | None = None,
        tool_call_id: str | None = None,
        dry_run: bool = False,
    ) -> NoteOutcome:
        """The tool's arguments as the model gave them; turn and tool call id are provenance."""
        body = dict(arguments)
        if turn is not None:
            body["turn"] = turn
        if tool_call_id is not None:
            body["tool_call_id"] = tool_call_id
        data = await self._request(
            "POST",
            f"/v1/sessions/{_segment(session_id)}/notes",
            json=body,
            params={"dry_run": "true" if dry_run else None},
        )
        return NoteOutcome(data["status"], data.get("memory_id"), list(data.get("reasons", [])))

    # --- context and state -------------------------------------------------------------------

    async def context(
        self,
        subject_id: str,
        *,
        session_id: str | None = None,
        purpose: str | None = None,
        max_tokens: int | None = None,
    ) -> Context:
        data = await self._request(
            "GET",
            f"/v1/subjects/{_segment(subject_id)}/context",
            params={"session_id": session_id, "purpose": purpose, "max_tokens": max_tokens},
        )
        return Context(text=data["text"], manifest=data["manifest"])

    async def put_state(self, subject_id: str, state: Mapping[str, Any]) -> datetime:
        data = await self._request(
            "PUT", f"/v1/subjects/{_segment(subject_id)}/state", json={"state": dict(state)}
        )
        return datetime.fromisoformat(data["updated_at"])

    # --- history -----------------------------------------------------------------------------

    async def append_turns(self, session_id: str, items: list[Item]) -> AppendedTurns:
        data = await self._request(
            "POST", f"/v1/sessions/{_segment(session_id)}/turns", json={"items": items}
        )
        return AppendedTurns(data["turns"], data["cut"], data["first_kept_turn"])

    async def turns(self, session_id: str, *, limit: int | None = None) -> History:
        data = await self._request(
            "GET", f"/v1/sessions/{_segment(session_id)}/turns", params={"limit": limit}
        )
        return History(data["items"], data["first_kept_turn"], data["last_turn"])

    async def pop_item(self, session_id: str) -> Item | None:
        data = await self._request("DELETE", f"/v1/sessions/{_segment(session_id)}/turns/last")
        item: Item | None = data["item"]
        return item

    async def clear_turns(self, session_id: str) -> int:
        data = await self._request("DELETE", f"/v1/sessions/{_segment(session_id)}/turns")
        return int(data["deleted_turns"])


def _segment(value: str) -> str:
    """One path segment, escaped: an id holding '/', '?' or '..' cannot reach another route."""
    return quote(value, safe="")


def _session(data: Mapping[str, Any]) -> SessionInfo:
    return SessionInfo(data["session_id"], data["subject_id"], data["purpose"], data["status"])
