"""Session 8 (branch pairs4): the slot veto of the pair model and the possessive subject."""

from __future__ import annotations

import pytest

from memory_service.core.consolidation.pairs import (
    SLOT_DIFFER_BAR,
    NoteView,
    slot_scopes_differ,
    slots_differ,
)
from memory_service.core.consolidation.rules import terms_of


@pytest.mark.parametrize(
    ("text", "third_party"),
    [
        ("Their phone is a Pixel.", False),
        ("Their working hours are overnight.", False),
        ("Sa voiture est électrique.", False),
        ("Their daughter lives in Lyon.", True),
        ("Her older sister is a nurse.", True),
        ("Sa fille a déménagé à Nantes.", True),
        ("Son fils joue au foot.", True),
        ("Sister lives in Berlin.", True),
        ("Her son's orthodontist is Dr Lindqvist.", True),
    ],
)
def test_a_possessive_makes_someone_else_the_subject_only_before_a_person(
    text: str, third_party: bool
) -> None:
    assert terms_of(text).third_party is third_party


def test_two_confident_different_slots_differ() -> None:
    hotels = {"none": 0.02, "accommodation_preference": 0.85, "airline_preferred": 0.01}
    train = {"none": 0.01, "accommodation_preference": 0.02, "airline_preferred": 0.89}
    assert slots_differ(hotels, train)


def test_one_slot_or_an_unsure_note_does_not_differ() -> None:
    iphone = {"none": 0.0, "phone_model": 0.99, "smartwatch": 0.0}
    pixel = {"none": 0.0, "phone_model": 0.93, "smartwatch": 0.02}
    assert not slots_differ(iphone, pixel)
    unsure = {"none": 0.3, "phone_model": 0.05, "seat_preference": SLOT_DIFFER_BAR - 0.01}
    assert not slots_differ(iphone, unsure)
    assert not slots_differ(iphone, None)
    assert not slots_differ({}, pixel)


def _view(text: str, slots: dict[str, float], scope: frozenset[str] | None) -> NoteView:
    return NoteView(terms_of(text), slots=slots, scope=scope)


def test_one_slot_in_two_scopes_differs() -> None:
    seats = {"none": 0.0, "seat_preference": 0.99, "airline_preferred": 0.0}
    window = _view("Wants a window seat on overnight flights", seats, frozenset({"fligh"}))
    aisle = _view("Wants an aisle seat on daytime hops", seats, frozenset())
    assert slot_scopes_differ(window, aisle)
    assert not slot_scopes_differ(window, _view("Wants an aisle seat", seats, frozenset({"fligh"})))
    assert not slot_scopes_differ(window, _view("Wants an aisle seat", seats, None))
