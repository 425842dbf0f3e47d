"""Secrets told by parts or by description, handles on unlisted platforms, cued numbers led by
"#", and birth dates with a Roman month or a "1°" day (session 11, leaks11)."""

from __future__ import annotations

import pytest

from memory_service.core.lexicons import fold
from memory_service.core.privacy.identifiers import identifier_types
from memory_service.core.privacy.locators import locator_types
from memory_service.core.privacy.normalise import normalise_text
from memory_service.core.privacy.secrets import secret_kinds


def _secret(text: str) -> frozenset[str]:
    return secret_kinds(fold(normalise_text(text)))


@pytest.mark.parametrize(
    "text",
    [
        # the value by its parts, in a keypad's sentence
        "Garage keypad: first two digits 4 and 0, last two are his flat number, 12.",
        "Code du digicode : les deux premiers chiffres sont 7 et 1, puis 3 et 9.",
        # the value as digits taken from something
        "His Abus combination is the first five digits of pi after the decimal point.",
        # what a lock opens with, described
        "Le cadenas de son vélo s'ouvre avec l'année de naissance de sa mère, 1962.",
        "The shed door unlocks with the house number of his parents.",
        # literal parts joined by "+"
        "La contraseña del wifi del piso es llama + cusco + 2020, todo junto.",
        "Router password is tiger + 77.",
        # a quoted first part, then the rest told
        "The wifi at the cabin is on a sticker: 'moosehead' followed by the cabin number, twelve.",
        "Mot de passe de la box : 'soleil' puis 1987.",
        # a letter key, then keyed digits
        "Key safe next to the door: C-4-1-7, then push down.",
    ],
)
def test_a_value_told_by_parts_or_description_is_a_secret(text: str) -> None:
    assert _secret(text)


@pytest.mark.parametrize(
    "text",
    [
        "The shop opens at 9; first two weeks are free.",
        "Wants the last two digits of the year on labels.",
        "Login is email + password.",
        "Gate opens with the first car of the day.",
        "Prefers the first two chapters read aloud.",
        "Wifi is slow; she calls the router 'the brick' and then restarts it.",
        "Listens to 'Blue' followed by 2 other albums.",
        "Grade C-4 concrete for the garden wall.",
    ],
)
def test_look_alikes_of_told_values_are_not_secrets(text: str) -> None:
    assert _secret(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Her Rover profile is nhat.minh.pdx.",
        "Posts his designs on Thingiverse as kayode_makes.",
        "Vende piezas en Wallapop con el usuario ferbici_sevilla.",
        "Verkauft Teile auf Kleinanzeigen als schrauber_kowalski_hh.",
        "Son profil Leboncoin : lea_tricote.",
    ],
)
def test_a_lower_case_user_name_on_any_platform_is_a_handle(text: str) -> None:
    assert "SOCIAL_HANDLE" in locator_types(normalise_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "Her profile is public.",
        "Works on Windows as admin.",
        "Uses the account settings page.",
        "Published on PyPI as v2.1.",
        "Her account is example.com.",
    ],
)
def test_words_after_a_profile_noun_are_not_handles(text: str) -> None:
    assert "SOCIAL_HANDLE" not in locator_types(normalise_text(text))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Vet client number at the clinic is #88213, under her name.", "ID_NUMBER"),
        ("Fecha de nacimiento: 5-VIII-1995.", "DATE_OF_BIRTH"),
        ("Nata il 1° marzo '97.", "DATE_OF_BIRTH"),
    ],
)
def test_cued_numbers_and_birth_dates(text: str, kind: str) -> None:
    assert kind in identifier_types(normalise_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "Room number is #12 on the left.",
        "Il 1° marzo 97 gradi.",
        "Fecha de nacimiento del proyecto: capitulo 5-VIII.",
    ],
)
def test_look_alikes_of_cued_numbers_and_dates(text: str) -> None:
    assert identifier_types(normalise_text(text)) == frozenset()
