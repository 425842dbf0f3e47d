"""Session 10 (first-sight sets 14a/14b): party membership by its structure, a biometric used
only to log in, and the French ligature in a condition's name (``core/privacy/sensitive.py``).

The notes are written for this test, not taken from an evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.core.privacy.sensitive import SensitiveCategory, check_sensitive


def categories(text: str) -> set[str]:
    reasons = check_sensitive(text)
    return set(reasons[0].detail.split(", ")) if reasons else set()


@pytest.mark.parametrize(
    "text",
    [
        "Membre d'EELV depuis 2015, veut des factures papier.",
        "Adhérente du Parti socialiste.",
        "Afiliada a Podemos; prefiere que la llamen por la tarde.",
        "SPD-Mitglied seit 1998.",
        "Ist Mitglied bei der CDU und bekommt die Post ins Büro.",
        "Iscritto al Partito Democratico da vent'anni.",
        "Tesserata della Lega.",
        "Longtime member of the Liberal Democrats.",
    ],
)
def test_membership_of_a_party_is_political(text: str) -> None:
    assert SensitiveCategory.POLITICAL_OPINION.value in categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Mitglied im Tennisverein, spielt montags.",
        "Member of the local running club.",
        "Socio del Real Madrid.",
        "Membre du club de lecture de la médiathèque.",
    ],
)
def test_membership_of_anything_else_is_not(text: str) -> None:
    assert SensitiveCategory.POLITICAL_OPINION.value not in categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Meldet sich im Kundenportal per Fingerabdruck an.",
        "Unlocks the banking app with Face ID.",
        "Se connecte à l'appli avec Touch ID.",
        "Desbloquea el móvil con la huella.",
    ],
)
def test_a_print_or_a_face_that_only_logs_in_is_not_biometric_data(text: str) -> None:
    assert SensitiveCategory.BIOMETRIC.value not in categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Saved the fingerprint template for the smart lock.",
        "Hat sich per Fingerabdruck angemeldet; der Abdruck ist beim Arbeitgeber gespeichert.",
        "Identical twin: her phone's face unlock opens for her sister too.",
        "Fingerabdrücke für die Zutrittskontrolle im Labor hinterlegt.",
    ],
)
def test_a_stored_print_or_a_fact_about_the_face_stays_biometric(text: str) -> None:
    assert SensitiveCategory.BIOMETRIC.value in categories(text)


def test_the_french_ligature_is_folded() -> None:
    assert SensitiveCategory.HEALTH.value in categories("Est cœliaque depuis l'enfance.")
    assert SensitiveCategory.HEALTH.value in categories("Sa sœur dit qu'il est cœliaque.")
