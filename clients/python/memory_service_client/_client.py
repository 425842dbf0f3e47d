"""A small typed async client for the agent endpoints, over HTTP or any ASGI app.

Agents usually run in their own process and event loop (the Agents SDK and MCP are async), so
the client is async, over ``httpx``. Answers are the typed models of
:mod:`memory_service_client.models`; errors are those of :mod:`memory_service_client.errors`,
mapped from the status code. Retries, with exponential backoff and jitter:

- GET and PUT (idempotent) on a transport error, a timeout, or a 502/503/504;
- any call on a 503 (the service refused it before doing anything: its transaction rolled
  back) or on a connection that could not be made (nothing was sent).

A POST whose answer was lost is not repeated: it may have been applied.
``MemoryClient.over_asgi(app, key)`` talks to an ASGI app in this process (the server package's
``memory_service.client.in_process(container, key)`` builds one): the same HTTP semantics, no
socket.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from memory_service_client.errors import DependencyUnavailable, error_for
from memory_service_client.models import (
    AppendedTurns,
    ClearedTurns,
    Context,
    History,
    NoteOutcome,
    PoppedItem,
    SessionInfo,
    StateUpdated,
)

DEFAULT_TIMEOUT_SECONDS = 10.0
DEFAULT_RETRIES = 3
_IDEMPOTENT = frozenset({"GET", "PUT"})
_RETRYABLE_STATUS = frozenset({502, 503, 504})
_MAX_BACKOFF_SECONDS = 5.0

Item = dict[str, Any]
Answer = TypeVar("Answer", bound=BaseModel)


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
    def over_asgi(cls, app: Any, api_key: str, **options: Any) -> MemoryClient:
        """A client of an ASGI app in this process (the service's ``create_app``)."""
        transport = httpx.ASGITransport(app=app)
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
        answer: type[Answer],
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> Answer:
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
                    return answer.model_validate(response.json())
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
        return await self._request(SessionInfo, "POST", "/v1/sessions", json=body)

    async def end_session(self, session_id: str) -> SessionInfo:
        return await self._request(SessionInfo, "POST", f"/v1/sessions/{_segment(session_id)}/end")

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
        return await self._request(
            NoteOutcome,
            "POST",
            f"/v1/sessions/{_segment(session_id)}/notes",
            json=body,
            params={"dry_run": "true" if dry_run else None},
        )

    # --- context and state -------------------------------------------------------------------

    async def context(
        self,
        subject_id: str,
        *,
        session_id: str | None = None,
        purpose: str | None = None,
        max_tokens: int | None = None,
    ) -> Context:
        return await self._request(
            Context,
            "GET",
            f"/v1/subjects/{_segment(subject_id)}/context",
            params={"session_id": session_id, "purpose": purpose, "max_tokens": max_tokens},
        )

    async def put_state(self, subject_id: str, state: Mapping[str, Any]) -> datetime:
        updated = await self._request(
            StateUpdated,
            "PUT",
            f"/v1/subjects/{_segment(subject_id)}/state",
            json={"state": dict(state)},
        )
        return updated.updated_at

    # --- history -----------------------------------------------------------------------------

    async def append_turns(self, session_id: str, items: list[Item]) -> AppendedTurns:
        return await self._request(
            AppendedTurns,
            "POST",
            f"/v1/sessions/{_segment(session_id)}/turns",
            json={"items": items},
        )

    async def turns(self, session_id: str, *, limit: int | None = None) -> History:
        return await self._request(
            History, "GET", f"/v1/sessions/{_segment(session_id)}/turns", params={"limit": limit}
        )

    async def pop_item(self, session_id: str) -> Item | None:
        popped = await self._request(
            PoppedItem, "DELETE", f"/v1/sessions/{_segment(session_id)}/turns/last"
        )
        return popped.item

    async def clear_turns(self, session_id: str) -> int:
        cleared = await self._request(
            ClearedTurns, "DELETE", f"/v1/sessions/{_segment(session_id)}/turns"
        )
        return cleared.deleted_turns


def _segment(value: str) -> str:
    """One path segment, escaped: an id holding '/', '?' or '..' cannot reach another route."""
    return quote(value, safe="")
