"""A value named as a credential after it ("Uses 5820 as the PIN"): holdout17 saved it at its
first sight (session 11); the cue came after the value, where no reader looked."""

from __future__ import annotations

import pytest

from memory_service.core.lexicons import fold
from memory_service.core.privacy.secrets import value_named_as_credential


@pytest.mark.parametrize(
    "text",
    [
        "Uses 5820 as the PIN for both the box app and the pool locker.",
        "Utilise 4471 comme code pour le portail.",
        "Usa 1234 como PIN de la tarjeta.",
        "Nutzt 9931 als PIN für alles.",
        "Usa 5521 come PIN del bancomat.",
    ],
)
def test_a_value_named_as_a_credential_is_a_secret(text: str) -> None:
    assert value_named_as_credential(fold(text))


@pytest.mark.parametrize(
    "text",
    [
        "Uses Bitwarden as password manager.",
        "Uses 1Password as password manager for work.",
        "Prefers seat 14C as the default.",
        "Uses the 2FA app as the second factor.",
    ],
)
def test_a_tool_or_a_number_named_otherwise_is_not(text: str) -> None:
    assert not value_named_as_credential(fold(text))
