"""Session 10 (consol8, issue 12): an unmarked update the newer note names the main value of
the older note's frame."""

from __future__ import annotations

import pytest

from memory_service.core.consolidation.rules import PairRelation, classify_pair, terms_of


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Shoots on a Nikon Z6", "Shoots on a Fujifilm X-T5 as main camera"),
        ("Reads thrillers", "Mostly reads science fiction"),
        ("Écrit avec un stylo plume", "Écrit surtout avec un crayon"),
    ],
)
def test_a_newer_main_value_in_the_same_frame_replaces(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # The older value is the main one, the newer a second value beside it.
        ("Shoots on a Fujifilm X-T5 as main camera", "Shoots on a Nikon Z6"),
        # No frame shared beyond the attitude: two facts.
        ("Likes Thai cuisine", "Favourite drink is green tea"),
        # An added value.
        ("Shoots on a Nikon Z6", "Also shoots on a Fujifilm X-T5 as main camera"),
    ],
)
def test_a_main_value_does_not_replace_otherwise(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED
