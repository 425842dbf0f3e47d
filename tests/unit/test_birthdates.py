"""A full date after a birth cue is a date of birth, even when the answer is its own sentence."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.birthdates import DATE_OF_BIRTH, birthdate_kinds
from memory_service.core.privacy.normalise import normalise_text


@pytest.mark.parametrize(
    "text",
    [
        "Asked for the date of birth. It's 04/11/1979.",
        "DOB? 1962-08-30",
        "Born on 7 October 1988 in Leeds.",
        "Her birthday: February 2, 2011.",
        "Date de naissance : le 14 juillet 1975.",
        "Nacida el 3 de mayo de 1990.",
        "Geburtsdatum lautet 21.09.1968.",
        "Nata il 12 giugno 1985 a Bari.",
    ],
)
def test_a_full_date_after_a_birth_cue_is_a_date_of_birth(text: str) -> None:
    assert birthdate_kinds(text) == {DATE_OF_BIRTH}


@pytest.mark.parametrize(
    "text",
    [
        "Her birthday is on 12 May; she likes tulips.",  # no year: a day of the year
        "Born in 1990.",  # a year alone
        "The lease started on 03/04/2019.",  # no birth cue
        "NATO summit planned for 12/07/2024.",  # an acronym, not Italian 'nato'
        "Birthday gifts go through the office. Moved the archive on 01/02/2020 to Lyon. "
        "Renewed the insurance on 05/06/2021.",  # two sentences away
    ],
)
def test_a_date_without_a_close_birth_cue_is_not_a_date_of_birth(text: str) -> None:
    assert birthdate_kinds(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Was born on the day the Berlin Wall fell.",
        "Est né le soir de la finale de la Coupe du monde 1998.",
        "Cumple años el día de Reyes; nació en 1979.",
        "Birthday is Christmas Eve and the user turns 35 in 2025.",
        "Born on Leap Day and turned 32 in 2024.",
        "Née le jour de la prise de la Bastille, en 1979 - elle en plaisantait.",
        "Date of birth, day/month/year: thirty-one, oh-seven, ninety-two.",
    ],
)
def test_a_birth_cue_with_an_event_or_a_holiday_and_a_year_elsewhere_is_a_date_of_birth(
    text: str,
) -> None:
    assert birthdate_kinds(normalise_text(text)) == {DATE_OF_BIRTH}


@pytest.mark.parametrize(
    "text",
    [
        "Birthday is Christmas Eve.",  # a day of the year, no year
        "Il ne travaille pas le jour de Noël depuis 2019.",  # French negation, not 'né'
        "Her birthday is the day after Christmas; she likes tulips.",
    ],
)
def test_a_holiday_without_a_year_or_a_birth_cue_is_not_a_date_of_birth(text: str) -> None:
    assert birthdate_kinds(normalise_text(text)) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Born in 1979, she hosts Christmas every year.",
        "Born in 1986, she loves Pi Day and bakes a pie.",
    ],
)
def test_a_holiday_that_is_not_the_birth_day_is_not_a_date_of_birth(text: str) -> None:
    assert birthdate_kinds(normalise_text(text)) == frozenset()
