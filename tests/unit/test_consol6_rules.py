"""Session 9 (consol6, issue 12): quantities with separators or rounding words, and a denial
the newer note states with detail."""

from __future__ import annotations

import pytest

from memory_service.core.consolidation.rules import PairRelation, classify_pair, terms_of


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # A thousands separator splits a number into words: its parts are the quantity.
        ("Budget per trip is about 1,000 euros", "Trip budget: around 2,500 euros"),
        # Rounding words are no part of the frame.
        ("Sleeps about 7 hours a night", "Sleeps around 5 hours a night"),
        ("Dort environ 7 heures par nuit", "Dort 6 heures par nuit"),
        # Decimals stay one quantity.
        ("Uses Python 3.11", "Uses Python 3.12"),
        ("Height 1.80 m", "Height: 1.72 m"),
    ],
)
def test_another_quantity_with_separators_or_rounding_replaces(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # Another scope word beside the quantity: two facts.
        ("Se lève à 6 h", "Se lève à 9 h le dimanche"),
        ("Starts work at 8 am", "Starts work at 9 am on Fridays"),
        # A year is a date.
        ("Budget was 1,000 euros in 2019", "Budget was 2,000 euros in 2023"),
    ],
)
def test_a_quantity_with_other_words_changed_does_not_replace(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("N'a pas de four", "A acheté un four à chaleur tournante"),
        ("Has no dishwasher", "Got a dishwasher installed in the kitchen"),
        ("Doesn't like swimming", "Enjoys swimming and does it twice a week"),
    ],
)
def test_a_denial_restated_positively_with_detail_is_negated(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.NEGATED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # Another value beside the denied one: two facts.
        ("Does not eat pork", "Eats beef"),
        ("Doesn't like early flights", "Likes early trains"),
    ],
)
def test_no_flip_without_the_whole_denial_restated(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.NEGATED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Écoute surtout du jazz en travaillant", "En travaillant, écoute surtout du rock"),
        ("Lit surtout des essais.", "Lit surtout des romans."),
        ("Mostly watches shows on Netflix.", "Mostly watches shows on Disney+."),
    ],
)
def test_the_value_that_prevails_is_single_valued(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


def test_a_prevailing_value_said_on_one_side_only_replaces_nothing() -> None:
    older, newer = terms_of("Mostly reads fantasy"), terms_of("Reads poetry occasionally")
    assert classify_pair(older, newer) is not PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Uses a monthly gardening service", "Cancelled the gardening service"),
        ("Est abonné à Disney+.", "A résilié Disney+."),
    ],
)
def test_a_cancelled_service_is_removed(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.NEGATED


def test_a_cancellation_of_something_else_removes_nothing() -> None:
    older, newer = terms_of("Has a gym membership"), terms_of("Cancelled the newspaper")
    assert classify_pair(older, newer) is not PairRelation.NEGATED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Reads books on a Kindle", "Only reads paper books"),
        ("Prefers email notifications.", "Wants notifications by SMS only."),
        ("Contacter par WhatsApp", "Contact uniquement par mail"),
    ],
)
def test_a_value_said_to_be_the_only_one_replaces_the_older(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # "-only" qualifies a noun, not the value.
        (
            "Has home insurance with a mutual insurer.",
            "Car insurance is with an online-only insurer.",
        ),
        # Another frame.
        ("Reads books on a Kindle", "Only drinks green tea"),
    ],
)
def test_only_outside_the_frame_replaces_nothing(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.REPLACED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Has a gym membership", "Doesn't belong to any gym"),
        ("Owns a car", "Has no car and gets around by bus"),
        ("A des plantes d'intérieur.", "N'a aucune plante chez lui."),
    ],
)
def test_a_noun_denied_as_a_whole_flips_the_note_holding_it(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is PairRelation.NEGATED


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # The holder says more than the noun: another fact about it.
        ("Car insurance is with AXA", "Has no car"),
        # No determiner: a denial of something else in the same words.
        ("Likes early trains", "Doesn't like early flights"),
    ],
)
def test_a_denied_noun_flips_only_a_short_holder(older: str, newer: str) -> None:
    assert classify_pair(terms_of(older), terms_of(newer)) is not PairRelation.NEGATED
