"""A surname is found by its cue: the name asked for, a reporting verb, a naming verb, a title."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.name_cues import PERSON, cued_name_types


@pytest.mark.parametrize(
    "text",
    [
        "Surname for the booking? Okafor",
        "Family name: Brandt, booked for two.",
        "Asked for her maiden name. It's Kowalczyk.",
        "Der Nachname ist Lindqvist.",
        '"The parcel never came," says Haverkamp.',
        "Not again! shouted Ferreira from the kitchen.",
        "They nicknamed her Bibi at school.",
        "The appointment is with MUDr. Dvořák on Tuesday.",
        "Send the contract to Ing. Szabó before Friday.",
        "dhr. Verhoeven signs for the delivery.",
        "Bogusława, could you resend the invoice?",
        "Thanks for the call. Ilkka, can we move it to Monday?",
        "Wiśniewska flew to Gdańsk on Friday.",
        " Brannigan grew up in Cork.",
        "Met the new tenant. Oyelaran is a 34 year old nurse.",
        "The table is booked under Ngozi Adeyemi.",
        "Chiamaka is a very patient person.",
        "Add Teodora Ilić as a beneficiary, 50 %.",
        "What's your name? Mirela Kovač",
    ],
)
def test_a_capitalised_word_after_a_name_cue_is_a_person(text: str) -> None:
    assert cued_name_types(text) == {PERSON}


@pytest.mark.parametrize(
    "text",
    [
        "Uses her maiden name professionally.",
        "Prefers first name basis with the support team.",
        "Surname first on every form, please.",
        '"Great service," says the review on the app.',
        "Called him yesterday about the boiler.",
        "Keeps the Ing. degree off her signature.",  # a title not followed by a name
        "Sorry, can you repeat the order number?",
        "Team, could we keep the stand-up short?",
        "Never flies Ryanair, will pay more to avoid it.",  # a note's subjectless present
        "Customer graduated last year and wants the student plan ended.",
        "The warranty is under Apple Care until May.",
        "Add Google Drive as a contact source.",
    ],
)
def test_a_cue_without_a_name_after_it_is_not_a_person(text: str) -> None:
    assert cued_name_types(text) == frozenset()
