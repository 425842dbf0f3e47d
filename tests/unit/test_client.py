"""The client retries idempotent calls and 503s only, and maps errors to its own, whose codes
are the service's."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from memory_service_client import (
    AuthenticationError,
    Conflict,
    DependencyUnavailable,
    InvalidRequest,
    MemoryClient,
    MemoryServiceError,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
)
from memory_service_client._client import _segment

from memory_service.api import errors as api_errors
from memory_service.core import errors as service_errors

pytestmark = pytest.mark.anyio

Handler = Callable[[httpx.Request], httpx.Response]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def error(status: int, code: str = "x") -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": f"m{status}"}})


class Script:
    """Answers from a list, one per call, and counts the calls."""

    def __init__(self, *answers: httpx.Response | Exception) -> None:
        self.answers = list(answers)
        self.calls: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def client(script: Script, retries: int = 3) -> MemoryClient:
    return MemoryClient(
        "http://service",
        "msk_key",
        retries=retries,
        backoff_seconds=0,
        transport=httpx.MockTransport(script),
    )


TURNS = {"items": [], "first_kept_turn": 1, "last_turn": 0}


async def test_a_get_is_retried_on_503_and_transport_errors() -> None:
    script = Script(
        error(503),
        httpx.ReadTimeout("slow"),
        error(502),
        httpx.Response(200, json=TURNS),
    )
    async with client(script) as memory:
        history = await memory.turns("s-1", limit=5)
    assert history.last_turn == 0 and len(script.calls) == 4
    assert script.calls[0].url.params["limit"] == "5"
    assert script.calls[0].headers["Authorization"] == "Bearer msk_key"


async def test_a_post_is_not_repeated_when_its_answer_was_lost() -> None:
    script = Script(httpx.ReadTimeout("lost"))
    async with client(script) as memory:
        with pytest.raises(DependencyUnavailable):
            await memory.append_turns("s-1", [{"role": "user", "content": "hi"}])
    assert len(script.calls) == 1


async def test_a_post_is_retried_on_503_and_refused_connections() -> None:
    appended = {"turns": [1], "cut": [], "first_kept_turn": 1}
    script = Script(error(503), httpx.ConnectError("down"), httpx.Response(201, json=appended))
    async with client(script) as memory:
        result = await memory.append_turns("s-1", [{"role": "user", "content": "hi"}])
    assert result.turns == [1] and len(script.calls) == 3


async def test_retries_stop_at_the_limit() -> None:
    script = Script(*[error(503)] * 3)
    async with client(script, retries=2) as memory:
        with pytest.raises(DependencyUnavailable, match="m503"):
            await memory.context("subject-1")
    assert len(script.calls) == 3


@pytest.mark.parametrize(
    ("status", "raised"),
    [(401, AuthenticationError), (404, NotFound), (409, Conflict), (422, InvalidRequest)],
)
async def test_errors_map_by_status_without_retry(status: int, raised: type[Exception]) -> None:
    script = Script(error(status))
    async with client(script) as memory:
        with pytest.raises(raised, match=f"m{status}"):
            await memory.context("subject-1", session_id="s-1", max_tokens=100)
    assert len(script.calls) == 1
    assert dict(script.calls[0].url.params) == {"session_id": "s-1", "max_tokens": "100"}


async def test_save_note_sends_arguments_and_provenance() -> None:
    answer = {"status": "saved", "memory_id": "m-1", "reasons": []}
    script = Script(httpx.Response(200, json=answer))
    async with client(script) as memory:
        outcome = await memory.save_note(
            "s-1", {"text": "Likes trains."}, turn=3, tool_call_id="call-1", dry_run=True
        )
    assert outcome.to_json() == answer
    sent = script.calls[0]
    assert sent.url.path == "/v1/sessions/s-1/notes" and sent.url.params["dry_run"] == "true"
    assert sent.content == b'{"text":"Likes trains.","turn":3,"tool_call_id":"call-1"}'


def test_ids_are_escaped_as_one_path_segment() -> None:
    assert _segment("../admin/subjects/x") == "..%2Fadmin%2Fsubjects%2Fx"
    assert _segment("a?b#c") == "a%3Fb%23c"
    assert _segment("customer-42") == "customer-42"


def test_the_clients_error_codes_are_the_services() -> None:
    pairs = [
        (MemoryServiceError, service_errors.MemoryServiceError),
        (AuthenticationError, service_errors.AuthenticationError),
        (PermissionDenied, service_errors.PermissionDenied),
        (NotFound, service_errors.NotFound),
        (Conflict, service_errors.Conflict),
        (InvalidRequest, service_errors.InvalidRequest),
        (DependencyUnavailable, service_errors.DependencyUnavailable),
    ]
    assert [ours.code for ours, _ in pairs] == [theirs.code for _, theirs in pairs]
    assert PayloadTooLarge.code == api_errors.PAYLOAD_TOO_LARGE
    assert RateLimited.code == api_errors.RATE_LIMITED


@pytest.mark.parametrize(
    ("status", "code", "raised"),
    [
        (413, "payload_too_large", PayloadTooLarge),
        (429, "rate_limited", RateLimited),
        (409, "not_found", NotFound),  # the body's code decides, not the status
        (400, "a_code_this_client_lacks", InvalidRequest),  # status decides, code kept
    ],
)
async def test_errors_map_by_the_bodys_code(
    status: int, code: str, raised: type[Exception]
) -> None:
    script = Script(error(status, code))
    async with client(script) as memory:
        with pytest.raises(raised) as caught:
            await memory.context("subject-1")
    assert type(caught.value) is raised
    assert isinstance(caught.value, MemoryServiceError) and caught.value.code == code
