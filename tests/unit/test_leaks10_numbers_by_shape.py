"""Numbers told in parts, by a count of digits, in comma groups or in lower case (issue 10,
round 3): identifiers by their shape, not by one more word."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.identifiers import identifier_types
from memory_service.core.privacy.normalise import normalise_text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Prefers texts to calls; the number starts 612, then 555, and ends 0198.", "ID_NUMBER"),
        (
            "Electricity supplier wants the seven digits 4410093 whenever the user calls.",
            "ID_NUMBER",
        ),
        ("Pays subscriptions with the Amex 3782, 822463, 10005.", "CREDIT_CARD"),
        ("NI number for the benefits form: qq 12 34 56 c.", "ID_NUMBER"),
        ("carte client AH-FR-20931 -> enchérisseur habituel, salle des ventes", "ID_NUMBER"),
    ],
)
def test_a_number_told_by_its_shape_is_an_identifier(text: str, kind: str) -> None:
    assert kind in identifier_types(normalise_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "Main laptop is a Dell XPS 13 9310.",
        "Prefers Ray-Ban Wayfarer frames, size 50-22.",
        "Scores were 3782, 8224, 1000 across the three rounds.",  # not Luhn-valid
        "Phone: iPhone 15 Pro",
        "Kept the receipts for 2019, 2020, 2021, 2022.",
    ],
)
def test_look_alikes_are_not_identifiers(text: str) -> None:
    assert identifier_types(normalise_text(text)) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "The fridge water filter is part number DA29-00020B.",
        "Préfère la voiture 12 du TGV, côté fenêtre.",
        "Fährt jeden Morgen mit der S8 ab Gleis 2.",
    ],
)
def test_a_part_number_and_a_train_s_numbers_are_not_identifiers(text: str) -> None:
    assert identifier_types(normalise_text(text)) == frozenset()


def test_a_plate_with_its_last_group_written_small_is_still_a_plate() -> None:
    assert "LICENSE_PLATE" in identifier_types(normalise_text("Parked the car, reg KX 19 ab."))
