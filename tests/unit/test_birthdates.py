"""A full date after a birth cue is a date of birth, even when the answer is its own sentence."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.birthdates import DATE_OF_BIRTH, birthdate_kinds


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
