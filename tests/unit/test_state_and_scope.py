"""Pure validation of subject state, subject ids and purposes."""

from __future__ import annotations

import random
import uuid

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


def _with_luhn_digit(body: str) -> str:
    for check in "0123456789":
        candidate = body + check
        total = 0
        for index, char in enumerate(reversed(candidate)):
            value = int(char) * (2 if index % 2 else 1)
            total += value - 9 if value > 9 else value
        if total % 10 == 0:
            return candidate
    raise AssertionError("unreachable")


@pytest.mark.parametrize(
    "subject_id",
    [
        "jean-dupont-1985-03-14",  # a name with a birth date
        "cust-14.03.1985",
        "dob-19850314",
        "4111111111111111",  # a test Visa number
        "cust-4111-1111-1111-1111",
        "GB82WEST12345698765432",  # the ISO 13616 example IBANs
        "fr14-2004-1010-0505-0001-3m02-606",
        "jeandupont",  # letters only reads as a name
        "Jean.Dupont",
        "marie_curie",
    ],
)
def test_subject_ids_shaped_like_personal_data_are_refused_without_echo(subject_id: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        validate_subject_id(subject_id)
    assert subject_id not in refused.value.message


def test_generated_card_numbers_are_refused() -> None:
    rng = random.Random(13)
    for length in (13, 15, 16, 19):
        for _ in range(50):
            card = _with_luhn_digit(
                "4" + "".join(rng.choice("0123456789") for _ in range(length - 2))
            )
            with pytest.raises(InvalidRequest, match="card"):
                validate_subject_id(f"c-{card}")


def test_opaque_ids_pass_uuids_and_numbered_ids() -> None:
    """Seeded random UUIDs (exempt by shape: their digit groups can pass Luhn by chance)
    and numbered ids."""
    rng = random.Random(7)
    uuids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(5000)]
    numbered = [f"cust-{rng.randrange(10**9)}" for _ in range(5000)]
    refused = []
    for subject_id in uuids + numbered:
        try:
            validate_subject_id(subject_id)
        except InvalidRequest:
            refused.append(subject_id)
    assert refused == []
