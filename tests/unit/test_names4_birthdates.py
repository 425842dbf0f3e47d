"""A birthday said the other way round: day and month, the cue, the year in one sentence."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.birthdates import DATE_OF_BIRTH, birthdate_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Ihre Mutter hat am siebten Mai Geburtstag, Jahrgang neunzehnhundertneunundfünfzig.",
        "Le 3 mars c'est son anniversaire, elle est de 1962.",
    ],
)
def test_day_month_cue_and_year_in_one_sentence(text: str) -> None:
    assert birthdate_kinds(text) == {DATE_OF_BIRTH}


@pytest.mark.parametrize(
    "text",
    [
        "Her birthday is on 12 May, wants a reminder.",
        "Birthday party on 12 May at 3pm, 20 guests.",
        "Il 3 marzo compleanno della nonna. Nel 2024 festa grande.",
    ],
)
def test_no_year_in_the_sentence_is_no_birthdate(text: str) -> None:
    assert not birthdate_kinds(text)
