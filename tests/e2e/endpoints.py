"""Every /v1 endpoint of SPEC.md, as data, so auth, role and tenancy tests cover all of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str  # with {session_id}, {subject_id}, {memory_id} placeholders
    role: str
    body: dict[str, Any] | None = None

    def url(self, **ids: str) -> str:
        return self.path.format(**ids)

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


ENDPOINTS = [
    Endpoint("POST", "/v1/sessions", "agent", {"subject_id": "subject-1"}),
    Endpoint("POST", "/v1/sessions/{session_id}/notes", "agent", {"text": "Prefers aisle seats."}),
    Endpoint("POST", "/v1/sessions/{session_id}/notes/{memory_id}/confirm", "agent"),
    Endpoint("POST", "/v1/sessions/{session_id}/end", "agent"),
    # With a session, so tenancy covers the session check; rendered_at differs per call.
    Endpoint("GET", "/v1/subjects/{subject_id}/context?session_id={session_id}", "agent"),
    Endpoint(
        "POST",
        "/v1/sessions/{session_id}/turns",
        "agent",
        {"items": [{"role": "user", "content": "Book the usual seat."}]},
    ),
    Endpoint("GET", "/v1/sessions/{session_id}/turns", "agent"),
    Endpoint("DELETE", "/v1/sessions/{session_id}/turns/last", "agent"),
    Endpoint("DELETE", "/v1/sessions/{session_id}/turns", "agent"),
    Endpoint("PUT", "/v1/subjects/{subject_id}/state", "agent", {"state": {"plan": "pro"}}),
    Endpoint("GET", "/v1/subjects/{subject_id}/memories", "admin"),
    Endpoint(
        "POST", "/v1/admin/memories/{memory_id}/correct", "admin", {"text": "x", "reason": "y"}
    ),
    Endpoint("DELETE", "/v1/admin/memories/{memory_id}", "admin"),
    Endpoint("DELETE", "/v1/admin/subjects/{subject_id}", "admin"),
    Endpoint("GET", "/v1/admin/subjects/{subject_id}/export", "admin"),
    Endpoint("GET", "/v1/admin/subjects/{subject_id}/history", "admin"),
]

ADMIN_ENDPOINTS = [endpoint for endpoint in ENDPOINTS if endpoint.role == "admin"]
