"""The privacy guards on the issue's examples: identifiers and secrets refused after
normalisation, durable look-alikes kept, and every stored field guarded or strictly shaped."""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.errors import InvalidRequest
from memory_service.core.guards import validate_note
from memory_service.core.history import validate_items
from memory_service.core.model import ReasonCode
from memory_service.core.privacy.guard import state_refusals
from memory_service.core.privacy.normalise import normalise_text
from memory_service.core.privacy.tool_call import valid_tool_call_id
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()
FULLWIDTH_DIGITS = str.maketrans({str(d): chr(0xFF10 + d) for d in range(10)})


def codes(text: str, keywords: list[str] | None = None) -> set[str]:
    arguments = {"text": text, "keywords": keywords or []}
    validation = validate_note(arguments, pii=NoNer(), identifiers=LIBRARY)
    return {reason.code.value for reason in validation.reasons}


@pytest.mark.parametrize(
    "text",
    [
        "PIN for the debit card is 7351",
        "The office door code is 4821",
        "Password for the office VPN is hunter2",
        "Login is jsmith / hunter2",
        "pw = correcthorsebatterystaple",
        "Das Passwort für das VPN lautet Birke!2022",
        "La contraseña del portal es Gato_Azul7",
        "Seed phrase: apple river stone",
        "Seed phrase: apple river stone table window garden orange lemon",
        "Backup words legal winner thank year wave sausage worth useful legal winner thank yellow",
        "Il codice del cancello è 5521",
        "Le code de la porte est 4821",
    ],
)
def test_a_value_after_a_credential_word_is_a_secret(text: str) -> None:
    assert "secret" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "jane dot doe at gmail dot com is the preferred address",
        "Mail: jane(at)example(dot)org",
        "Contact jane%40example.com",
        "Contact " + "".join(chr(ord(ch) + 0xFEE0) for ch in "jane@example.com"),
        "Phone is four one five, five five five, zero one nine two",
        "Teléfono seis uno dos, tres cuatro cinco, seis siete ocho",
        "Please charge my credit card. Number is 4152488713445952355",
        "Card 4152.4887.1344.5952 for hotel bookings",
        "Card " + "4152 4887 1344 5952".translate(FULLWIDTH_DIGITS) + " for hotel bookings",
        "Refunds go to fr76 3000 6000 0112 3456 7890 189",
        "Driving licence number MORGA753116SM9IJ",
        "DNI 12345678Z on file",
        "Codice fiscale RSSMRA85T10A562S",
        "NINO AB 12 34 56 C",
        "Aadhaar 2345 6789 0123",
        "Car is AB-123-CD",
        "Bonvoy member 123456",
        "Reach him on +44 7700 900418",
        "Follows @jdoe_88 on X",
        "Home server is at 8.8.4.4",
        "Lives at 48.8584, 2.2945",
    ],
)
def test_an_identifier_in_any_surface_form_is_personal_data(text: str) -> None:
    assert "pii" in codes(text)


def test_a_value_split_between_text_and_keywords_is_one_value() -> None:
    assert "pii" in codes("Card for refunds is 4152 4887", ["1344 5952"])


@pytest.mark.parametrize(
    "text",
    [
        "Prefers token-based auth over passwords.",
        "Prefers Python 3.11.4 and Node 20 for new services.",
        "Always books seat 12A on flight AF1234.",
        "Budget is about 1 299 € per trip.",
        "Uses a WH-1000XM5 headset and an RTX 4090.",
        "Worked in Lyon 2019-2023, prefers remote work.",
        "Weekly sync every Monday at 14:30.",
        "Collects Bonvoy points, has 125000 of them.",
        "Prefers the A320neo over the B737 on short hops.",
        "Runs 10km every Sunday morning.",
        "Prefers ISO 8601 dates in reports.",
        "Postal code is not needed on invoices.",
        "Keeps the seed phrase offline, never in the cloud.",
        "Seed phrase: kept in the safe at home.",
    ],
)
def test_durable_look_alikes_pass(text: str) -> None:
    assert codes(text) <= {"ephemeral"}, codes(text)


def test_normalising_folds_confusables_and_invisible_characters() -> None:
    assert normalise_text("j\u0430ne\u200b@ex\u0430mple.com") == "jane@example.com"


def test_state_values_and_keys_are_refused_by_path_and_code_never_by_value() -> None:
    state = {
        "plan": "gold",
        "contact": {"email": "jane@example.com"},
        "wifi": "password: hunter2",
        "jane@example.com": 1,
    }

    refusals = dict(state_refusals(state, pii=NoNer(), identifiers=LIBRARY))

    assert refusals == {
        "contact.email": (ReasonCode.PII,),
        "wifi": (ReasonCode.SECRET,),
        "<key> (key)": (ReasonCode.PII,),
    }


def test_a_plain_state_passes() -> None:
    state = {
        "plan": "gold",
        "home_airport": "CDG",
        "since": "2021-03-04",
        "updated": "2024-12-01T10:00:00+01:00",
        "locale": "fr-FR",
        "seats": [12, "14A"],
    }
    assert state_refusals(state, pii=NoNer(), identifiers=LIBRARY) == []


@pytest.mark.parametrize("role", ["hunter2", "Jane Doe", "", None, 3])
def test_a_turn_item_role_must_be_a_chat_role(role: object) -> None:
    with pytest.raises(InvalidRequest) as raised:
        validate_items([{"role": role, "content": "hi"}])
    assert str(role) not in str(raised.value) or role in ("", None, 3)


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("call_4Xq9bZ2LmN7pQ8rT1vW3yK5d", True),
        ("toolu_01A09q90qw90lq917835lq9", True),
        ("functions.lookup:0", True),
        ("call_4152488713445952", False),
        ("sk-proj-abcdefghijklmnop1234", False),
        ("password:hunter2", False),
        ("jane@example.com", False),
    ],
)
def test_a_tool_call_id_has_a_shape_that_cannot_hold_a_refused_value(
    value: str, valid: bool
) -> None:
    assert valid_tool_call_id(value) is valid


class NameNer:
    """Finds a person wherever the marker name appears."""

    def entity_types(self, text: str) -> frozenset[str]:
        return frozenset({"PERSON"}) if "quokkason" in text.lower() else frozenset()


def test_a_state_key_the_ner_reads_as_a_person_is_never_named_in_a_refusal() -> None:
    state = {"ada_quokkason": {"seat": "aisle"}, "plan": "gold"}

    refusals = state_refusals(state, pii=NameNer(), identifiers=LIBRARY)

    assert refusals == [("<key> (key)", (ReasonCode.PII,))]
    assert "quokkason" not in repr(refusals)


@pytest.mark.parametrize(
    "text",
    [
        "Wallet words, part one — velvet harbor minute copper tunnel escape",
        "Le ultime parole sono oliva brodo lepre adagio agave alce",
    ],
)
def test_six_seed_words_in_a_row_without_a_function_word_are_a_secret(text: str) -> None:
    assert ReasonCode.SECRET in codes(text)


def test_prose_made_of_seed_words_is_not_a_seed_phrase() -> None:
    assert ReasonCode.SECRET not in codes("Photos they share suggest they live near the sea.")
