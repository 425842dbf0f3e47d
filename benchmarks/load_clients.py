"""Concurrent agent clients: open a session, save notes, read the context, end the session.

Each client is a thread with its own ``httpx.Client`` (one keep-alive connection, as an
agent runtime would hold). Notes come from the guards' evaluation set, mostly ones that
should be kept and some that must be refused, with now and then the same note sent twice
in a conversation. Every attempt is recorded (endpoint, status, latency, Retry-After, body
shape); a 503 or a dropped connection is retried after the advised delay (capped, so a run
stays short) until a per-call deadline, as a well-behaved client would.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

NOTES_FILE = Path(__file__).resolve().parent.parent / "tests" / "eval" / "notes.jsonl"
TOOL_FIELDS = ("text", "keywords", "purpose", "source", "durability", "confirmed")
RETRYABLE = {502, 503, 504}
CONNECTION_ERROR = 0
RETRY_DEADLINE_SECONDS = 60.0
MAX_RETRY_SLEEP = 1.0
ENDPOINTS = ("open", "note", "context", "end")


# Preferences that come back in other words or with another value, as they do across a
# customer's conversations: they share a keyword, so consolidation asks the LLM judge.
RECURRING = [
    {"text": "Prefers aisle seats on flights.", "keywords": ["seat"]},
    {"text": "Likes to sit on the aisle when flying.", "keywords": ["seat"]},
    {"text": "Prefers window seats on flights.", "keywords": ["seat"]},
    {"text": "Uses Vim as code editor.", "keywords": ["editor"]},
    {"text": "Now uses VS Code as code editor.", "keywords": ["editor"]},
    {"text": "Drinks oat milk in coffee.", "keywords": ["coffee"]},
    {"text": "Takes coffee black without sugar.", "keywords": ["coffee"]},
    {"text": "Wants invoices sent as PDF.", "keywords": ["invoice"]},
    {"text": "Wants paper invoices by post.", "keywords": ["invoice"]},
]


@dataclass(frozen=True)
class NoteMix:
    """Tool arguments: the evaluation set's kept and refused notes, and recurring ones."""

    kept: list[dict[str, Any]]
    refused: list[dict[str, Any]]
    refused_share: float = 0.3
    recurring_share: float = 0.25

    @classmethod
    def load(cls, path: Path = NOTES_FILE) -> NoteMix:
        kept: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for line in path.read_text().splitlines():
            row = json.loads(line)
            arguments = {k: row[k] for k in TOOL_FIELDS if k in row}
            (kept if row["expect_status"] == "saved" else refused).append(arguments)
        return cls(kept, refused)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        draw = rng.random()
        if draw < self.refused_share:
            pool = self.refused
        elif draw < self.refused_share + self.recurring_share:
            pool = RECURRING
        else:
            pool = self.kept
        return dict(rng.choice(pool))


@dataclass(frozen=True)
class Attempt:
    endpoint: str
    status: int  # CONNECTION_ERROR when no HTTP answer came back
    seconds: float
    started: float  # seconds since the phase began
    retry_after: bool
    shaped: bool  # an error answer in the {"error": {"code", "message"}} shape


@dataclass
class Conversation:
    tenant: str
    subject: str
    started: float
    session_id: str | None = None
    saved: set[str] = field(default_factory=set)
    duplicates: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)
    unknown_notes: int = 0  # notes given up on: stored or not, nobody knows
    ended: bool = False
    finished: float | None = None
    clean: bool = True  # every call answered 2xx on its first attempt


@dataclass
class Recorder:
    started: float = field(default_factory=time.monotonic)
    attempts: list[Attempt] = field(default_factory=list)
    conversations: list[Conversation] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def now(self) -> float:
        return time.monotonic() - self.started

    def attempt(self, attempt: Attempt) -> None:
        with self.lock:
            self.attempts.append(attempt)

    def conversation(self, conversation: Conversation) -> None:
        with self.lock:
            self.conversations.append(conversation)


def _shaped(response: httpx.Response) -> bool:
    if response.status_code < 400:
        return True
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return False
    return (
        isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
    )


class Client:
    def __init__(
        self,
        base_url: str,
        key: str,
        tenant: str,
        subjects: list[str],
        notes: NoteMix,
        recorder: Recorder,
        seed: int,
    ) -> None:
        self.http = httpx.Client(
            base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=30.0
        )
        self.tenant = tenant
        self.subjects = subjects
        self.notes = notes
        self.recorder = recorder
        self.rng = random.Random(seed)

    def call(
        self, endpoint: str, method: str, path: str, conversation: Conversation, **kwargs: Any
    ) -> httpx.Response | None:
        """Send until an answer that is not a retryable failure, or the deadline passes."""
        deadline = time.monotonic() + RETRY_DEADLINE_SECONDS
        first = True
        while True:
            started = self.recorder.now()
            clock = time.perf_counter()
            try:
                response = self.http.request(method, path, **kwargs)
            except httpx.TransportError:
                response = None
            seconds = time.perf_counter() - clock
            status = CONNECTION_ERROR if response is None else response.status_code
            self.recorder.attempt(
                Attempt(
                    endpoint,
                    status,
                    seconds,
                    started,
                    retry_after=response is not None and "retry-after" in response.headers,
                    shaped=response is not None and _shaped(response),
                )
            )
            if response is not None and status not in RETRYABLE:
                if not (first and status < 400):
                    conversation.clean = False
                return response
            conversation.clean = False
            if time.monotonic() > deadline:
                return None
            advised = response.headers.get("retry-after") if response is not None else None
            time.sleep(min(float(advised or 0.5), MAX_RETRY_SLEEP))
            first = False

    def converse(self) -> Conversation:
        subject = self.rng.choice(self.subjects)
        conversation = Conversation(self.tenant, subject, self.recorder.now())
        opened = self.call(
            "open", "POST", "/v1/sessions", conversation, json={"subject_id": subject}
        )
        if opened is None or opened.status_code != 201:
            return self._finish(conversation)
        session_id = opened.json()["session_id"]
        conversation.session_id = session_id
        sent: list[dict[str, Any]] = []
        for _ in range(self.rng.randint(3, 5)):
            repeat = sent and self.rng.random() < 0.15
            arguments = dict(self.rng.choice(sent)) if repeat else self.notes.draw(self.rng)
            sent.append(arguments)
            self._note(conversation, session_id, arguments)
        self.call(
            "context",
            "GET",
            f"/v1/subjects/{subject}/context",
            conversation,
            params={"session_id": session_id},
        )
        ended = self.call("end", "POST", f"/v1/sessions/{session_id}/end", conversation)
        # A 409 after a retry means the first, unanswered attempt went through.
        conversation.ended = ended is not None and ended.status_code in (202, 409)
        return self._finish(conversation)

    def _note(self, conversation: Conversation, session_id: str, arguments: dict[str, Any]) -> None:
        response = self.call(
            "note", "POST", f"/v1/sessions/{session_id}/notes", conversation, json=arguments
        )
        if response is None or response.status_code != 200:
            conversation.unknown_notes += 1
            return
        body = response.json()
        bucket = {
            "saved": conversation.saved,
            "duplicate": conversation.duplicates,
            "needs_confirmation": conversation.held,
        }.get(body["status"])
        if bucket is not None:
            bucket.add(body["memory_id"])

    def _finish(self, conversation: Conversation) -> Conversation:
        conversation.finished = self.recorder.now()
        self.recorder.conversation(conversation)
        return conversation

    def run(self, until: float, max_conversations: int) -> None:
        try:
            for _ in range(max_conversations):
                if self.recorder.now() >= until:
                    return
                self.converse()
        finally:
            self.http.close()


def run_clients(
    base_url: str,
    keys: list[tuple[str, str]],
    subjects: dict[str, list[str]],
    notes: NoteMix,
    *,
    concurrency: int,
    seconds: float,
    max_conversations: int,
    recorder: Recorder,
    seed: int,
) -> None:
    """``concurrency`` clients, spread over the tenants' keys, for at most ``seconds``."""
    threads = []
    for number in range(concurrency):
        tenant, key = keys[number % len(keys)]
        client = Client(
            base_url, key, tenant, subjects[tenant], notes, recorder, seed * 1000 + number
        )
        thread = threading.Thread(target=client.run, args=(seconds, max_conversations), daemon=True)
        threads.append(thread)
        thread.start()
    for thread in threads:
        thread.join()


def percentile(values: list[float], share: float) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summarize(recorder: Recorder, wall_seconds: float) -> dict[str, Any]:
    """Throughput, latency per endpoint, and every non-2xx answer by status."""
    answered = [a for a in recorder.attempts if a.status != CONNECTION_ERROR]
    per_endpoint: dict[str, Any] = {}
    for endpoint in ENDPOINTS:
        times = [a.seconds * 1000 for a in answered if a.endpoint == endpoint]
        per_endpoint[endpoint] = {
            "requests": len(times),
            "p50_ms": _round(percentile(times, 0.50)),
            "p99_ms": _round(percentile(times, 0.99)),
        }
    errors = Counter(
        "connection" if a.status == CONNECTION_ERROR else str(a.status)
        for a in recorder.attempts
        if a.status >= 300 or a.status == CONNECTION_ERROR
    )
    conversations = recorder.conversations
    return {
        "wall_seconds": round(wall_seconds, 2),
        "requests": len(answered),
        "throughput_rps": round(len(answered) / wall_seconds, 1) if wall_seconds else None,
        "conversations": len(conversations),
        "conversations_ended": sum(c.ended for c in conversations),
        "endpoints": per_endpoint,
        "errors_by_status": dict(sorted(errors.items())),
        "server_errors_not_503": sum(1 for a in answered if a.status >= 500 and a.status != 503),
        "503_without_retry_after": sum(
            1 for a in answered if a.status == 503 and not a.retry_after
        ),
        "errors_not_in_error_shape": sum(1 for a in answered if a.status >= 400 and not a.shaped),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def iter_ended(conversations: list[Conversation]) -> Iterator[Conversation]:
    return (c for c in conversations if c.ended and c.session_id)
