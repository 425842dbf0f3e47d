"""Session 13: ordinary notes the special-categories model held on function words and routines
("y", "and", "va a", weekdays), and the trainer's options behind the fix."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.sensitive import sensitive_categories
from tests.support.tools import load_tool

train_sensitive = load_tool("train_sensitive")

ORDINARY = (
    "Carries a 56° sand wedge and a 60° lob wedge, no 4-iron.",
    "Has done 14 escape rooms and escaped 11 of them.",
    "Big fan of Karen Pryor's clicker method and only wants trainers who work "
    "positive-reinforcement only.",
    "Tiene cuenta en el Banco Santander y en ING.",
    "Klettert im Vorstieg im 7. UIAA-Grad und bouldert bis Fb 6C.",
)

# The first three are held by the model alone (no structure); the fourth is the religious
# routine the weekday hard negatives must not lose.
SENSITIVE = (
    "Goes to therapy every Thursday for anxiety.",
    "Vota sempre per il Partito Democratico.",
    "Ist Mitglied bei ver.di und möchte bei Streiks informiert werden.",
    "Va à la mosquée tous les vendredis pour la prière.",
)


@pytest.mark.parametrize("text", ORDINARY)
def test_an_ordinary_note_with_conjunctions_and_numbers_is_not_held(text: str) -> None:
    assert sensitive_categories(text) == frozenset()


@pytest.mark.parametrize("text", SENSITIVE)
def test_a_special_category_note_is_still_held(text: str) -> None:
    assert sensitive_categories(text)


def _note(text: str, everyday: bool = False) -> object:
    return train_sensitive.Note(text, "en", frozenset(), "w", text, everyday=everyday)


def test_common_features_are_left_out_above_the_share() -> None:
    notes = [_note("walks and runs"), _note("swims and rides"), _note("reads")]
    featurizer = train_sensitive.Featurizer(notes)

    kept = train_sensitive.without_common(featurizer, notes, 0.5)

    assert "w:and" in train_sensitive.Featurizer(notes).index
    assert "w:and" not in kept.index
    assert sorted(kept.index.values()) == list(range(len(kept.index)))


def test_the_everyday_budget_bounds_the_everyday_notes_held() -> None:
    import numpy as np

    notes = [_note(f"n{i}", everyday=True) for i in range(100)]
    scores = np.linspace(0.0, 0.99, 100)
    nothing = np.zeros(100, dtype=bool)

    loose = train_sensitive.hold_threshold(scores, notes, nothing, 0.05)
    tight = train_sensitive.hold_threshold(scores, notes, nothing, 0.01)

    assert (scores >= loose).sum() <= 5
    assert (scores >= tight).sum() <= 1
    assert tight > loose
