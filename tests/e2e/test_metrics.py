"""``GET /metrics`` after real requests: the counts are what was done, and no label names anyone.

A container of its own (fresh registry, fresh SQLite store), so the counts are exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlmodel import col, update

from memory_service.adapters.tables import ConsolidationOutboxRow
from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.core.errors import DependencyUnavailable
from tests.e2e.conftest import Tenant, create_tenant, new_subject
from tests.support.containers import migrated_container

NOTES_ROUTE = "/v1/sessions/{session_id}/notes"
KEPT = "Prefers aisle seats on long flights."
REFUSED = "Her social security number is 078-05-1120, keep it handy."

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def own_container(tmp_path: Path) -> Container:
    return migrated_container({"MEMORY_SERVICE_HOME": str(tmp_path)})


@pytest.fixture
def client(own_container: Container) -> Iterator[TestClient]:
    with TestClient(create_app(own_container), raise_server_exceptions=False) as test_client:
        yield test_client


def scrape(client: TestClient, headers: dict[str, str] | None = None) -> tuple[str, Samples]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return response.text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_the_scrape_counts_what_was_done_and_names_no_one(
    client: TestClient, own_container: Container
) -> None:
    tenant = create_tenant(own_container)
    subject = new_subject()
    opened = client.post("/v1/sessions", json={"subject_id": subject}, headers=tenant.agent)
    session_id = opened.json()["session_id"]
    notes = f"/v1/sessions/{session_id}/notes"
    answers = [
        client.post(notes, json={"text": KEPT, "keywords": ["seats"]}, headers=tenant.agent),
        client.post(notes, json={"text": REFUSED}, headers=tenant.agent),
        client.post(
            notes + "?dry_run=true",
            json={"text": "Likes tea.", "keywords": []},
            headers=tenant.agent,
        ),
    ]
    statuses = [answer.json()["status"] for answer in answers]
    assert statuses == ["saved", "rejected", "saved"]
    refused_codes = [reason["code"] for reason in answers[1].json()["reasons"]]
    contexts = [
        client.get(f"/v1/subjects/{subject}/context", headers=tenant.agent).json() for _ in range(2)
    ]
    assert client.post(f"/v1/sessions/{session_id}/end", headers=tenant.agent).status_code == 202
    erased = client.delete(f"/v1/admin/subjects/{subject}", headers=tenant.admin).json()
    client.get(f"/v1/sessions/{session_id}/nowhere/at-all", headers=tenant.agent)

    text, samples = scrape(client)

    assert value(samples, "memory_service_notes_total", status="saved", dry_run="false") == 1
    assert value(samples, "memory_service_notes_total", status="saved", dry_run="true") == 1
    assert value(samples, "memory_service_notes_total", status="rejected", dry_run="false") == 1
    for code in set(refused_codes):
        assert value(
            samples, "memory_service_note_reasons_total", code=code
        ) == refused_codes.count(code)
    assert value(samples, "memory_service_context_render_tokens_count") == 2
    assert value(samples, "memory_service_context_render_tokens_sum") == sum(
        context["manifest"]["total_tokens"] for context in contexts
    )
    assert value(samples, "memory_service_consolidation_runs_total", outcome="consolidated") == 1
    assert (
        value(
            samples, "memory_service_consolidation_decisions_by_decider_total", decided_by="rules"
        )
        >= 1
    )
    assert value(samples, "memory_service_erasures_total") == 1
    assert value(samples, "memory_service_erased_memories_total") == erased["counts"]["memories"]
    assert value(samples, "memory_service_outbox_pending") == 0
    latency = "memory_service_http_request_duration_seconds_count"
    assert value(samples, latency, method="POST", route=NOTES_ROUTE, status="200") == 3
    assert value(samples, latency, method="GET", route="unmatched", status="404") == 1
    # No label carries a tenant, subject, session, key or any text that was sent.
    for private in (tenant.id, subject, session_id, "seats", "078-05-1120", "aisle"):
        assert private not in text


def test_the_outbox_backlog_is_read_at_scrape_time(
    client: TestClient, own_container: Container
) -> None:
    class BrokerDown:
        def enqueue_consolidation(self, tenant_id: str, session_id: str) -> None:
            raise DependencyUnavailable("the broker is down")

    own_container.tasks = BrokerDown()
    tenant: Tenant = create_tenant(own_container)
    ended_ids = []
    for _ in range(2):
        opened = client.post(
            "/v1/sessions", json={"subject_id": new_subject()}, headers=tenant.agent
        )
        ended = client.post(f"/v1/sessions/{opened.json()['session_id']}/end", headers=tenant.agent)
        assert ended.status_code == 202
        ended_ids.append(ended.json()["session_id"])
    # The first entry has waited an hour: the gauge reads the oldest entry's age.
    an_hour_ago = own_container.clock.now() - timedelta(hours=1)
    with own_container.engine.begin() as connection:
        changed = connection.execute(
            update(ConsolidationOutboxRow)
            .where(col(ConsolidationOutboxRow.session_id) == ended_ids[0])
            .values(created_at=an_hour_ago)
        )
        assert changed.rowcount == 1

    _, samples = scrape(client)

    assert value(samples, "memory_service_outbox_pending") == 2
    age = value(samples, "memory_service_outbox_oldest_pending_age_seconds")
    assert 3600 <= age < 3600 + 60, age


def test_a_metrics_token_is_required_when_set(tmp_path: Path) -> None:
    container = migrated_container(
        {"MEMORY_SERVICE_HOME": str(tmp_path), "MEMORY_SERVICE_METRICS_TOKEN": "scrape-secret"}
    )
    with TestClient(create_app(container), raise_server_exceptions=False) as client:
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            refused = client.get("/metrics", headers=headers)
            assert refused.status_code == 401
            assert refused.json()["error"]["code"] == "unauthenticated"
        scrape(client, {"Authorization": "Bearer scrape-secret"})
