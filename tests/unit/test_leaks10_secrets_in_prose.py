"""Secrets and a mailbox told in prose (issue 10, round 3): a joined-words password in a
network's sentence, a quoted phrase after "phrase", keys pressed on a door's keypad, a
mailbox's name before its provider."""

from __future__ import annotations

import pytest

from memory_service.core.lexicons import fold
from memory_service.core.privacy.locators import locator_types
from memory_service.core.privacy.normalise import normalise_text
from memory_service.core.privacy.secrets import secret_kinds


def _secrets(text: str) -> frozenset[str]:
    return secret_kinds(fold(normalise_text(text)))


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Wi-Fi 'Hollyhock' uses primrosehill1996 - she spelled it out.", "PASSWORD"),
        ("Pour le technicien, la clé de la box est la phrase lesgirafesdansent7.", "PASSWORD"),
        (
            "Password manager master phrase is 'correct horse purple teapot', spaces included.",
            "PASSWORD",
        ),
        ("Intercom: press 42, then star-nine-nine-one to buzz the door open.", "PASSCODE"),
    ],
)
def test_a_secret_told_in_prose_is_refused(text: str, kind: str) -> None:
    assert kind in _secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "Uses Bitwarden as password manager for all accounts.",
        "Router in the hallway; upgraded to Windows 11 last week.",
        "Press the door button twice; the lift is slow.",
        "Favourite phrase is 'carpe diem'.",
    ],
)
def test_look_alikes_without_a_value_are_not_secrets(text: str) -> None:
    assert _secrets(text) == frozenset()


def test_a_mailbox_named_before_its_provider_is_an_email_address() -> None:
    text = normalise_text("Family newsletters go to the shared inbox thesmithsfour on gmail.")
    assert "EMAIL_ADDRESS" in locator_types(text)
    assert "EMAIL_ADDRESS" not in locator_types(normalise_text("Sets up filters on gmail."))


def test_a_security_keyword_alone_asks_no_security_question() -> None:
    # the guard reads the note with its keywords after it: "security" is a label there
    note = fold(normalise_text("Uses Bitwarden as password manager for all accounts.")) + (
        " security"
    )
    assert secret_kinds(note, plain_words=False) == frozenset()
    told = "Security question: first pet. She answers Rex."
    assert "PASSWORD" in secret_kinds(fold(normalise_text(told)))
