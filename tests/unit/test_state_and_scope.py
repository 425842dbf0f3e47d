"""Pure validation of subject state, subject ids and purposes."""

from __future__ import annotations

import pytest

from memory_service.core.errors import InvalidRequest
from memory_service.core.purpose import validate_purpose
from memory_service.core.scope import validate_subject_id
from memory_service.core.state import validate_state


@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_state_numbers_must_be_finite(number: float) -> None:
    with pytest.raises(InvalidRequest, match="finite"):
        validate_state({"score": number})


def test_state_round_trips_plain_json() -> None:
    state = {"plan": "pro", "seats": 3, "ratio": 0.5, "tags": ["a"], "nested": {"ok": True}}
    assert validate_state(state) == state


@pytest.mark.parametrize(
    "subject_id",
    ["customer-42", "u_123", "acct:7781", "10042", "0b7d9c1e-4a5f-4b8e-9d2c-1f3e5a7b9c0d"],
)
def test_opaque_subject_ids_are_accepted(subject_id: str) -> None:
    assert validate_subject_id(subject_id) == subject_id


@pytest.mark.parametrize(
    "subject_id",
    [
        "jane.doe@example.com",
        "+33612345678",
        "0612345678",
        "06-12-34-56-78",
        "(415)555-0100",
        "Jane Doe",
        "",
        "x" * 129,
    ],
)
def test_subject_ids_that_look_personal_are_refused_without_echo(subject_id: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        validate_subject_id(subject_id)
    if subject_id:
        assert subject_id not in refused.value.message


@pytest.mark.parametrize("purpose", ["Travel", "travel plans", "", "x" * 41, 3])
def test_purposes_are_lower_case_slugs(purpose: object) -> None:
    with pytest.raises(InvalidRequest):
        validate_purpose(purpose)
