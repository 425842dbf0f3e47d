"""Schemathesis' stateful phase: its state machine over the links the document declares.

The opened session's id and subject, and a saved note's memory id, are followed to the
routes that take them, with every check on every answer (three narrowed, see
``openapi_checks.py``). Bounded so the run stays well under a minute.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.config import SchemathesisConfig

from memory_service.api.app import create_app
from memory_service.bootstrap import Container
from tests.e2e.conftest import Tenant
from tests.e2e.openapi_checks import NARROWED, NARROWED_FORMS

SCENARIOS = 40
STEPS_PER_SCENARIO = 8
# Generated note text is almost always refused (a refusal has no memory id to follow), so
# every other note the machine sends is one the guards accept: its memory id then reaches
# the routes that take one (confirm, correct, delete).
ACCEPTED_NOTE = {"text": "Prefers window seats on long flights.", "keywords": ["seat"]}
ADMIN_PATHS = ("/v1/admin/", "/v1/subjects/{subject_id}/memories")


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


def test_the_stateful_phase_follows_the_links_with_every_check(
    linked_schema: Any, tenant: Tenant
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
            return {"headers": dict(tenant.admin if admin else tenant.agent)}

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
                additional_checks=NARROWED_FORMS,
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
