"""Health said of an animal is the animal's (core/privacy/sensitive.py ``_an_animals_health``):
a clause whose subject is an animal, and nothing sensitive left in the other clauses. A
person's health beside an animal, an owner's or a walker's, stays held. The notes are made
up; none is from an evaluation set."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.sensitive import sensitive_categories


@pytest.mark.parametrize(
    "text",
    [
        "The old labrador is on daily insulin for diabetes; owner wants refill reminders.",
        "Le chaton est traité pour une otite ; rappeler le rendez-vous dans deux semaines.",
        "Su gata tiene asma y necesita el inhalador pediátrico cada mes.",
        "Das Kaninchen bekommt Schmerzmittel gegen Arthrose - Futterbestellung alle 4 Wochen.",
        "Il cane anziano soffre di epilessia; ordina il farmaco ogni sei settimane.",
    ],
)
def test_an_animals_health_is_not_the_persons(text: str) -> None:
    assert sensitive_categories(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "The dog's owner has type 1 diabetes and asks for sugar-free treats at the till.",
        "The dog is fine; she has epilepsy and wants the clinic's number saved.",
        "Her cat has asthma and she is allergic to cats herself.",
        "Dog walker with asthma, prefers outdoor meetings.",
        "Has diabetes; her dog is trained to alert her to low blood sugar.",
    ],
)
def test_a_persons_health_beside_an_animal_is_still_held(text: str) -> None:
    assert sensitive_categories(text) != frozenset()


def test_the_guard_with_keywords_agrees() -> None:
    from memory_service.core.privacy.sensitive import check_sensitive

    note = "The old labrador is on daily insulin for diabetes; owner wants refill reminders."
    assert check_sensitive(note, ("diabetes", "insulin")) == []
    assert check_sensitive("Takes insulin for diabetes.", ("diabetes",)) != []
