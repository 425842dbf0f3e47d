"""Fuzz every operation of the OpenAPI document, in-process, with real agent and admin keys.

Schemathesis generates valid and invalid requests from the app's own ``/openapi.json``;
whatever it sends, the service must never answer 5xx other than a 503 with retry advice,
and every error must be the documented ``{"error": {"code", "message"}}`` body. Examples
are bounded per operation so the whole run stays well under a minute.

The stateful phase runs schemathesis' state machine over the links the document declares
(the opened session's id and subject, a saved note's memory id) with every built-in
check. One is narrowed, not dropped: ``positive_data_acceptance`` lets pass the 422s of
the privacy guards, which no JSON Schema can state: a subject id shaped like personal
data (a phone number, a date, a card or IBAN passing its Luhn or mod-97 check, letters
only), a correction whose text a guard refuses (``correction_refused``), a state whose
keys or values a guard refuses. Every other 4xx to a schema-valid request fails the run.
``negative_data_rejection`` counts the notes route's answer to arguments that break the
tool schema as the rejection it is: a 200 ``rejected`` result with an ``invalid`` reason
(a guard rejection is a result, not an error). ``use_after_free`` lets pass a read after
a DELETE that empties rather than removes: an erased subject's audit history and receipts
are kept as evidence, and its memories, context and export answer empty as any unknown
subject's do (a subject is no resource that 404s); a cleared or popped history reads as
the shorter list it is. A read after a memory's deletion is still checked.
``not_a_server_error`` lets a 503 with
``Retry-After`` pass, as the stateless runs do.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import (
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    use_after_free,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.openapi.checks import UseAfterFree

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from memory_service.core.errors import InvalidRequest
from memory_service.core.scope import validate_subject_id
from tests.e2e.conftest import Tenant, create_tenant, new_subject, open_session

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


def error_body_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error is ``{"error": {"code": str, "message": str}}``; a 503 says when to retry."""
    if response.status_code < 400:
        return None
    body = json.loads(response.content)
    error = body.get("error") if isinstance(body, dict) else None
    assert isinstance(error, dict), f"{response.status_code} without an error object"
    assert isinstance(error.get("code"), str) and error["code"], "error without a code"
    assert isinstance(error.get("message"), str), "error without a message"
    if response.status_code == 503:
        assert response.headers.get("retry-after"), "503 without Retry-After"
    return True


def no_server_error_but_503(ctx: Any, response: Any, case: Any) -> bool | None:
    """A dependency outage (503) is an answer; any other 5xx is a bug."""
    if response.status_code == 503:
        return True
    return not_a_server_error(ctx, response, case)


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
                response, checks=[no_server_error_but_503, error_body_shape], headers=headers
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


# The stateful phase: bounded so the whole scenario run stays well under a minute.
SCENARIOS = 40
STEPS_PER_SCENARIO = 8
# Generated note text is almost always refused (a refusal has no memory id to follow), so
# every other note the machine sends is one the guards accept: its memory id then reaches
# the routes that take one (confirm, correct, delete).
ACCEPTED_NOTE = {"text": "Prefers window seats on long flights.", "keywords": ["seat"]}
ADMIN_PATHS = ("/v1/admin/", "/v1/subjects/{subject_id}/memories")
# Built-in checks run in a narrowed form below (each says what it lets pass, and why).
NARROWED = [positive_data_acceptance, negative_data_rejection, use_after_free, not_a_server_error]


@pytest.fixture(scope="module")
def linked_schema(container: Container) -> Any:
    """The document as a stateful client reads it: the links it declares, nothing inferred.

    Schemathesis' own inference would guess links from names (a session's id into a
    memory's confirm route) and make a client-chosen subject id a resource to create
    first, so no scenario would start at ``POST /v1/sessions``.
    """
    config = SchemathesisConfig.from_dict(
        {"phases": {"stateful": {"inference": {"algorithms": []}}}}
    )
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(container), config=config)


def subject_ids_sent(case: Any) -> list[str]:
    sent = [(case.path_parameters or {}).get("subject_id")]
    if isinstance(case.body, dict):
        sent.append(case.body.get("subject_id"))
    return [value for value in sent if isinstance(value, str)]


def refused_as_personal_data(value: str) -> bool:
    try:
        validate_subject_id(value)
    except InvalidRequest:
        return True
    return False


def refused_by_a_privacy_guard(response: Any, case: Any) -> bool:
    """A 422 the schema cannot foretell: the guards read meaning and checksums, not shapes."""
    if response.status_code != 422:
        return False
    error = json.loads(response.content)["error"]
    return (
        any(refused_as_personal_data(value) for value in subject_ids_sent(case))
        or error["code"] == "correction_refused"
        or error["message"].startswith("state refused by the privacy guards")
    )


def accepts_valid_data_but_privacy_refusals(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, except for what only the privacy guards refuse."""
    if refused_by_a_privacy_guard(response, case):
        return None
    return positive_data_acceptance(ctx, response, case)


def refused_as_a_tool_result(response: Any, case: Any) -> bool:
    """The notes route answers arguments that break the tool's schema with a 200 result:
    ``rejected`` with an ``invalid`` reason, as a model expects from its tool (STYLE.md)."""
    if response.status_code != 200 or not case.path.endswith("/notes"):
        return False
    body = json.loads(response.content)
    return body["status"] == "rejected" and any(
        reason["code"] == "invalid" for reason in body["reasons"]
    )


def rejects_invalid_data_or_answers_it_as_a_rejected_note(
    ctx: Any, response: Any, case: Any
) -> bool | None:
    """``negative_data_rejection``, with the notes route's rejection result counted as one."""
    if refused_as_a_tool_result(response, case):
        return None
    return negative_data_rejection(ctx, response, case)


# DELETEs that empty something rather than remove a resource: a later read answers 200.
EMPTYING_DELETES = re.compile(r"^DELETE /v1/(admin/subjects/[^/]+|sessions/[^/]+/turns(/last)?)$")


def no_use_after_free_but_an_emptying_delete(ctx: Any, response: Any, case: Any) -> bool | None:
    """``use_after_free``, except after a DELETE that empties rather than removes."""
    try:
        return use_after_free(ctx, response, case)
    except UseAfterFree as failure:
        if EMPTYING_DELETES.match(failure.free):
            return None
        raise


def test_the_stateful_phase_follows_the_links_with_every_check(
    linked_schema: Any, fuzz_tenant: Tenant
) -> None:
    workflow = linked_schema.as_state_machine()
    answered: Counter[tuple[str, str, int]] = Counter()
    followed: Counter[str] = Counter()

    notes_sent = 0

    class Scenarios(workflow):  # type: ignore[misc,valid-type]
        def before_call(self, case: Any) -> None:
            nonlocal notes_sent
            if case.method == "POST" and case.path.endswith("/notes"):
                notes_sent += 1
                if notes_sent % 2 == 0:
                    case.body = dict(ACCEPTED_NOTE)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            admin = any(part in case.path for part in ADMIN_PATHS)
            return {"headers": dict(fuzz_tenant.admin if admin else fuzz_tenant.agent)}

        def step(self, input: Any) -> Any:
            output = super().step(input)
            if input.transition is not None and input.is_applied:
                followed[input.transition.id] += output.response.status_code < 400
            return output

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            answered[(case.method, case.path, response.status_code)] += 1

        def validate_response(
            self,
            response: Any,
            case: Any,
            additional_checks: list[Any] | None = None,
            **kwargs: Any,
        ) -> None:
            case.validate_response(
                response,
                excluded_checks=NARROWED,
                additional_checks=[
                    accepts_valid_data_but_privacy_refusals,
                    rejects_invalid_data_or_answers_it_as_a_rejected_note,
                    no_use_after_free_but_an_emptying_delete,
                    no_server_error_but_503,
                    error_body_shape,
                ],
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )

    Scenarios.run(
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS_PER_SCENARIO,
            phases=[Phase.generate],
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # The scenarios went through the links to answers, not only into refusals.
    assert sum(count for (_, _, code), count in answered.items() if code < 400) >= SCENARIOS
    assert len([link for link, succeeded in followed.items() if succeeded]) >= 5, followed
