"""Quantities written as words replace like digits do (session 8, blind7 e071)."""

from __future__ import annotations

import pytest

from memory_service.core.consolidation.rules import PairRelation, classify_pair, terms_of


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Has two children", "Has three children"),
        ("A deux enfants", "A trois enfants"),
        ("Has one sister", "Has two sisters"),
        ("Trains once a week", "Trains twice a week"),
        ("Has 2 kids", "Has three kids"),
    ],
)
def test_another_quantity_in_words_replaces(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # Other words besides the quantity: two facts, or words cannot tell.
        ("Has two cats", "Has two dogs"),
        ("Has two children", "Has three grandchildren"),
        # A year is a date, not a quantity.
        ("Visited Japan twice in 2019", "Visited Japan three times in 2023"),
        # The same quantity: no change.
        ("Has two children", "Has two children and a dog"),
    ],
)
def test_no_replacement_without_only_a_quantity_changed(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED
