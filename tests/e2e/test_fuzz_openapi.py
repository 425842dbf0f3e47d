"""Fuzz every operation of the OpenAPI document, in-process, with real agent and admin keys.

Schemathesis generates valid and invalid requests from the app's own ``/openapi.json`` and
runs every check on each answer (three narrowed, see ``openapi_checks.py``): no 5xx other
than a 503 with retry advice, every error the documented ``{"error": {"code", "message"}}``
body. Examples are bounded per operation so the whole run stays well under a minute. The
stateful phase is in ``test_fuzz_openapi_stateful.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant, create_tenant, new_subject, open_session
from tests.e2e.openapi_checks import NARROWED, NARROWED_FORMS

EXAMPLES_PER_OPERATION = 20
# Strings Python can hold and JSON can spell but UTF-8 cannot encode.
UNENCODABLE = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff", "x\ud83d"])


@pytest.fixture(scope="module")
def api_schema(container: Container) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(container))


@pytest.fixture(scope="module")
def fuzz_tenant(container: Container) -> Tenant:
    """One tenant for the whole module (the key store is the shared session one)."""
    return create_tenant(container)


def _operations(api_schema: Any) -> list[Any]:
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15, "the OpenAPI document lost operations"
    return operations


def _real_ids(client: TestClient, tenant: Tenant) -> dict[str, str]:
    """Ids that exist for the fuzz tenant, so generated bodies reach the services too."""
    subject = new_subject()
    session_id = open_session(client, tenant, subject)
    saved = client.post(
        f"/v1/sessions/{session_id}/notes",
        json={"text": "Prefers window seats on long flights.", "keywords": ["seat"]},
        headers=tenant.agent,
    )
    assert saved.json()["status"] == "saved", saved.text
    return {"session_id": session_id, "subject_id": subject, "memory_id": saved.json()["memory_id"]}


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("ids", ["generated", "real"])
def test_no_operation_answers_500_or_an_unshaped_error(
    api_schema: Any, client: TestClient, fuzz_tenant: Tenant, mode: GenerationMode, ids: str
) -> None:
    checked: list[int] = []
    for operation in _operations(api_schema):
        names = {p.name for p in operation.path_parameters}
        fixed = (
            {k: v for k, v in _real_ids(client, fuzz_tenant).items() if k in names}
            if ids == "real"
            else None
        )
        strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed or None)

        @given(case=strategy, role=st.sampled_from(["agent", "admin"]))
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def fuzz(case: Any, role: str) -> None:
            # A copy: the transport adds its own headers to the mapping it is given.
            headers = dict(fuzz_tenant.agent if role == "agent" else fuzz_tenant.admin)
            response = case.call(headers=headers)
            case.validate_response(
                response,
                excluded_checks=NARROWED,
                additional_checks=NARROWED_FORMS,
                headers=headers,
            )
            checked.append(response.status_code)

        try:
            fuzz()
        except Unsatisfiable:
            # Negative mode on an operation with nothing to get wrong (no parameters).
            assert mode is GenerationMode.NEGATIVE, operation.label
    assert len(checked) >= len(_operations(api_schema)), "the fuzzer sent almost nothing"


def _spiked(value: Any, spike: str) -> Any:
    """``value`` with ``spike`` appended to every string, keys included."""
    if isinstance(value, str):
        return value + spike
    if isinstance(value, dict):
        return {_spiked(k, spike): _spiked(v, spike) for k, v in value.items()}
    if isinstance(value, list):
        return [_spiked(item, spike) for item in value]
    return value


def test_bodies_carrying_lone_surrogates_are_refused_as_invalid_request(
    api_schema: Any, client: TestClient, fuzz_tenant: Tenant
) -> None:
    """Generated bodies, every string spiked with unencodable text, sent as ASCII-escaped
    JSON (the client library would refuse to encode them): always 422 invalid_request."""
    with_body = [op for op in _operations(api_schema) if op.body]
    assert with_body, "no operation takes a body"
    sent: list[int] = []
    for operation in with_body:
        names = {p.name for p in operation.path_parameters}
        fixed = {k: v for k, v in _real_ids(client, fuzz_tenant).items() if k in names}
        strategy = operation.as_strategy(
            generation_mode=GenerationMode.POSITIVE, path_parameters=fixed or None
        )

        @given(case=strategy, spike=UNENCODABLE)
        @settings(
            max_examples=EXAMPLES_PER_OPERATION // 2,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def fuzz(case: Any, spike: str) -> None:
            spiked = _spiked(case.body, spike)
            if json.dumps(spiked) == json.dumps(case.body):
                return  # a body with no string at all
            response = client.request(
                case.method,
                case.formatted_path,
                params=case.query,
                content=json.dumps(spiked).encode(),
                headers=dict(fuzz_tenant.admin) | {"Content-Type": "application/json"},
            )
            assert response.status_code == 422, (case.operation.label, response.status_code)
            assert response.json()["error"]["code"] == "invalid_request"
            sent.append(response.status_code)

        fuzz()
    assert len(sent) >= len(with_body), "the fuzzer sent almost no spiked body"
