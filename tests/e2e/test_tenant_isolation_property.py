"""Two tenants' calls in random interleavings: nothing of one ever reaches the other.

A Hypothesis state machine drives tenants A and B through the API (open a session, save
a note, end it, put state, read the context, list memories, export, history), with the
SAME subject ids on both sides and with calls that name the other tenant's session and
memory ids. After every call:

- the response holds none of the other tenant's marker text or ids (zero cross-tenant reads);
- the other tenant's data, as its own admin export shows it, is exactly as before the call.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from tests.e2e.conftest import Tenant
from tests.factories import random_subject_id

NOTE_TEMPLATES = (
    "Prefers {m} seating on long trains.",
    "Always orders the {m} menu when travelling.",
    "Wants {m} style receipts sent by post.",
    "Uses the {m} loyalty programme for hotels.",
)
# Audit events that the export and history reads themselves add: the reader's own doing.
READ_EVENTS = {"subject.exported", "subject.history_read"}


def _marker() -> str:
    """Lower-case letters: distinctive, and not taken for a name or a secret by the guards."""
    return "".join(random.choice(string.ascii_lowercase) for _ in range(10))


@dataclass
class Side:
    tenant: Tenant
    marker: str
    sessions: dict[str, str] = field(default_factory=dict)  # session id -> subject
    open_sessions: set[str] = field(default_factory=set)
    memory_ids: set[str] = field(default_factory=set)

    def secrets(self) -> set[str]:
        return {self.marker, *self.sessions, *self.memory_ids}


def make_machine(
    client: TestClient, make_tenant: Callable[[], Tenant], coverage: Counter[str]
) -> type[RuleBasedStateMachine]:
    class TwoTenants(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.sides = {
                "a": Side(make_tenant(), _marker()),
                "b": Side(make_tenant(), _marker()),
            }
            # Both tenants name their subjects alike: ids are only unique within a tenant.
            self.subjects = [random_subject_id("subject") for _ in range(2)]

        # ---- helpers ----

        def _other(self, actor: str) -> Side:
            return self.sides["b" if actor == "a" else "a"]

        def _export(self, side: Side, subject: str) -> dict[str, Any]:
            response = client.get(f"/v1/admin/subjects/{subject}/export", headers=side.tenant.admin)
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            body["audit_events"] = [e for e in body["audit_events"] if e["kind"] not in READ_EVENTS]
            return body

        def _call(
            self, actor: str, method: str, path: str, *, admin: bool = False, **kwargs: Any
        ) -> httpx.Response:
            """Call as ``actor`` and check both properties around the call."""
            side, other = self.sides[actor], self._other(actor)
            before = {s: self._export(other, s) for s in self.subjects}
            headers = side.tenant.admin if admin else side.tenant.agent
            response = client.request(method, path, headers=headers, **kwargs)
            assert response.status_code < 500, response.text
            leaked = [token for token in other.secrets() if token in response.text]
            assert not leaked, f"{actor}'s {method} {path} showed the other tenant's {leaked}"
            after = {s: self._export(other, s) for s in self.subjects}
            assert after == before, f"{actor}'s {method} {path} changed the other tenant's data"
            if any(token in path for token in other.secrets()):
                coverage["calls naming the other tenant's ids"] += 1
            return response

        def _session_to_name(self, actor: str, data: st.DataObject) -> str | None:
            """Mostly one of the actor's own sessions, sometimes the other tenant's."""
            own = sorted(self.sides[actor].sessions)
            theirs = sorted(self._other(actor).sessions)
            pool = own + theirs if data.draw(st.booleans()) else own
            return data.draw(st.sampled_from(pool)) if pool else None

        # ---- rules ----

        @initialize()
        def both_tenants_open_a_session_per_subject(self) -> None:
            for actor in "ab":
                for which in range(len(self.subjects)):
                    self.open_session(actor, which)

        @rule(actor=st.sampled_from("ab"), which=st.integers(0, 1))
        def open_session(self, actor: str, which: int) -> None:
            subject = self.subjects[which]
            response = self._call(actor, "POST", "/v1/sessions", json={"subject_id": subject})
            assert response.status_code == 201
            session_id = response.json()["session_id"]
            self.sides[actor].sessions[session_id] = subject
            self.sides[actor].open_sessions.add(session_id)

        @rule(actor=st.sampled_from("ab"), template=st.sampled_from(NOTE_TEMPLATES), data=st.data())
        def save_note(self, actor: str, template: str, data: st.DataObject) -> None:
            side = self.sides[actor]
            session_id = self._session_to_name(actor, data)
            if session_id is None:
                return
            text = template.format(m=side.marker)
            response = self._call(
                actor, "POST", f"/v1/sessions/{session_id}/notes", json={"text": text}
            )
            if session_id not in side.sessions:
                assert response.status_code == 404  # the other's session reads as unknown
            elif session_id in side.open_sessions:
                assert response.status_code == 200
                if response.json()["memory_id"]:
                    side.memory_ids.add(response.json()["memory_id"])
                    coverage["notes saved"] += 1
            else:
                assert response.status_code == 409

        @rule(actor=st.sampled_from("ab"), data=st.data())
        def end_session(self, actor: str, data: st.DataObject) -> None:
            side = self.sides[actor]
            session_id = self._session_to_name(actor, data)
            if session_id is None:
                return
            response = self._call(actor, "POST", f"/v1/sessions/{session_id}/end")
            if session_id not in side.sessions:
                assert response.status_code == 404
            elif session_id in side.open_sessions:
                assert response.status_code == 202
                side.open_sessions.discard(session_id)
            else:
                assert response.status_code == 409

        @rule(actor=st.sampled_from("ab"), which=st.integers(0, 1))
        def put_state(self, actor: str, which: int) -> None:
            state = {"plan": f"plan {self.sides[actor].marker}", "seats": ["aisle"]}
            response = self._call(
                actor, "PUT", f"/v1/subjects/{self.subjects[which]}/state", json={"state": state}
            )
            assert response.status_code == 200

        @rule(actor=st.sampled_from("ab"), which=st.integers(0, 1), data=st.data())
        def read_context(self, actor: str, which: int, data: st.DataObject) -> None:
            session_id = self._session_to_name(actor, data) if data.draw(st.booleans()) else None
            params = {"session_id": session_id} if session_id else {}
            response = self._call(
                actor, "GET", f"/v1/subjects/{self.subjects[which]}/context", params=params
            )
            if session_id and session_id not in self.sides[actor].sessions:
                assert response.status_code == 404
            elif not session_id or self.sides[actor].sessions[session_id] == self.subjects[which]:
                assert response.status_code == 200

        @rule(
            actor=st.sampled_from("ab"),
            which=st.integers(0, 1),
            path=st.sampled_from(
                [
                    "/v1/subjects/{s}/memories",
                    "/v1/admin/subjects/{s}/export",
                    "/v1/admin/subjects/{s}/history",
                ]
            ),
        )
        def admin_read(self, actor: str, which: int, path: str) -> None:
            response = self._call(actor, "GET", path.format(s=self.subjects[which]), admin=True)
            assert response.status_code == 200

        @rule(actor=st.sampled_from("ab"), data=st.data())
        def admin_on_a_memory(self, actor: str, data: st.DataObject) -> None:
            """Admin calls by memory id, on the other tenant's ids: unknown, and harmless."""
            theirs = sorted(self._other(actor).memory_ids)
            if not theirs:
                return
            memory_id = data.draw(st.sampled_from(theirs))
            deleted = self._call(actor, "DELETE", f"/v1/admin/memories/{memory_id}", admin=True)
            corrected = self._call(
                actor,
                "POST",
                f"/v1/admin/memories/{memory_id}/correct",
                admin=True,
                json={"text": "Prefers aisle seats.", "reason": "customer_request"},
            )
            assert deleted.status_code == corrected.status_code == 404
            coverage["admin calls on the other tenant's memories"] += 1

        @invariant()
        def own_reads_still_work(self) -> None:
            """A tenant always sees its own saved notes (so the checks above are not vacuous)."""
            for side in self.sides.values():
                if not side.memory_ids:
                    continue
                seen = "".join(
                    client.get(
                        f"/v1/admin/subjects/{subject}/export", headers=side.tenant.admin
                    ).text
                    for subject in self.subjects
                )
                assert side.marker in seen

    return TwoTenants


def test_no_call_of_one_tenant_reads_or_changes_the_others_data(
    client: TestClient, make_tenant: Callable[[], Tenant]
) -> None:
    coverage: Counter[str] = Counter()
    machine = make_machine(client, make_tenant, coverage)
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=15,
            stateful_step_count=20,
            deadline=None,
            database=None,
            derandomize=True,  # the same interleavings every run: no flaky CI
            suppress_health_check=list(HealthCheck),
        ),
    )
    # The properties held over runs that really tried to cross the line.
    assert coverage["notes saved"] >= 5, coverage
    assert coverage["calls naming the other tenant's ids"] >= 10, coverage
    assert coverage["admin calls on the other tenant's memories"] >= 1, coverage
