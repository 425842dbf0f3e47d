"""A street-type word, the street's name in any words, and a house number is an address."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.addresses import STREET_ADDRESS, address_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Vive en calle Rosalía de Castro 21, segundo piso.",
        "Consegna in via Giuseppe Verdi 12.",
        "Habite rue Victor Hugo, 8.",
        "Wohnt in der Karl Marx Straße 12.",
        "Abita in via dell'Orso 3.",
        "Deliver to the green door on calle Luis de Góngora nº 7.",
        "Lives at rue Victor Hugo n° 8.",
        "Third house after the bakery on rue Lepic, number 12.",
        "Il ufficio: Corso Vittorio Emanuele II 101",
        "Plaza de la Virgen Blanca 4",
        "avenue Jean Jaurès 8 bis",
        "chemin des Vignes 4, 69007 Lyon",
    ],
)
def test_a_street_type_a_name_and_a_number_is_an_address(text: str) -> None:
    assert STREET_ADDRESS in address_kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Prefers flats around rue Victor Hugo, quiet streets.",  # no number: a neighbourhood
        "Wants to drive Route 66 next summer.",
        "Saw Avenue Q twice, loves musicals.",
        "The meeting is in room 12.",
        "Harry Potter fan: Platform 9 is his favourite photo spot.",
        "Plays Street Fighter 6 on weekends.",
        "Updates via Windows 11.",
        "Sent via Slack 2 times.",
        "Order via Amazon 2x a month.",
        "Auf dem Weg nach Hause 3 Mal angerufen.",
        "Meets at Plaza Mayor 10:30 on Sundays.",
        "Works from place Bellecour 10 minutes away.",
        "Platz 3 im Turnier.",
    ],
)
def test_look_alikes_are_no_address(text: str) -> None:
    assert STREET_ADDRESS not in address_kinds(text)
