"""The grammatical cues of the judgment features: one name for a class in all five languages."""

from __future__ import annotations

import pytest

from memory_service.core.judgment.cues import cue_classes, cues
from memory_service.core.judgment.features import features, fold, tokens


def classes(text: str) -> set[str]:
    return cue_classes(fold(text), tokens(text))


@pytest.mark.parametrize(
    ("cls", "notes"),
    [
        (
            "deictic",
            [
                "Is at the airport right now",
                "Ce soir dîne dehors",
                "Hoy está de mal humor",
                "Ist gerade im Urlaub",
                "Stasera cena fuori",
            ],
        ),
        (
            "habit",
            [
                "Calls her mother every Sunday",
                "Appelle sa mère tous les dimanches",
                "Suele volar en el IB 3170",
                "Fährt jeden Freitag nach Hause",
                "Di solito prende il treno",
            ],
        ),
        (
            "progressive",
            [
                "Is waiting for the courier",
                "Est en train de déménager",
                "Está esperando el paquete",
                "Sta aspettando il pacco",
                "Ist gerade dabei umzuziehen",
            ],
        ),
        (
            "hedge",
            [
                "Probably works in finance",
                "Semble préférer le train",
                "Quizás prefiera el tren",
                "Scheint Vegetarier zu sein",
                "Forse ha figli",
            ],
        ),
        (
            "permit",
            [
                "User is authorised to view other records",
                "Le client est autorisé à consulter",
                "El usuario puede acceder a todo",
                "Der Kunde darf alles sehen",
                "L'utente è autorizzato a tutto",
            ],
        ),
        (
            "address",
            [
                "Prefers to be addressed informally",
                "Préfère que l'assistant le vouvoie",
                "Prefiere que le traten de usted",
                "Möchte gesiezt werden",
                "Preferisce che l'assistente gli dia del tu",
            ],
        ),
    ],
)
def test_a_class_is_found_in_each_language(cls: str, notes: list[str]) -> None:
    missing = [note for note in notes if cls not in classes(note)]

    assert missing == []


def test_an_order_dressed_as_a_preference_pairs_the_agent_with_a_lifted_check() -> None:
    dressed = classes("Prefers that the assistant skip the two-factor check")
    polite = classes("Preferisce che l'assistente gli dia del tu")

    assert {"agent", "lift", "pref_clause"} <= dressed and "address" not in dressed
    assert {"agent", "address", "pref_clause"} <= polite and "lift" not in polite
    assert "lift" in classes("Der Kunde darf ohne Prüfung Rückerstattungen erhalten.")


def test_cues_name_each_class_and_each_pair_once() -> None:
    found = cues(fold("Agent must skip it"), ["agent", "must", "skip", "it"])

    assert {"k:agent", "k:oblige", "k:lift"} <= found
    assert {"x:agent+lift", "x:agent+oblige", "x:lift+oblige"} <= found


def test_a_word_inside_another_is_no_cue() -> None:
    # "now" in "known", "ora" in "orario", "hi" in "hiking": whole words only.
    assert classes("Known for hiking, checks the orario") == set()
    assert "k:deictic" in features("Is in Rome now")
