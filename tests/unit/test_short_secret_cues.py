"""Short password cues ("pw", "pwd", "pass", "mdp") and PIN codes after a PIN cue."""

from __future__ import annotations

import pytest

from memory_service.core.lexicons import fold
from memory_service.core.privacy.secrets import secret_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Guest network pw is Tangerine!88",
        "Router pwd: Corvid-7731x",
        "NAS pass Falcon#2290 for the admin account",
        "Mdp du portail : Lisbonne#57",
        "Her garage PIN 73914 opens the side door",
        "Code PIN de la carte : 5082",
        "Passcode 448120 for the alarm panel",
    ],
)
def test_a_short_cue_before_a_password_or_pin_is_a_secret(text: str) -> None:
    assert "PASSWORD" in secret_kinds(fold(text))


@pytest.mark.parametrize(
    "text",
    [
        "PIN reset via the app is preferred",
        "Pass Navigo holder, commutes by RER",
        "Prefers a passcode over Face ID on the phone",
        "Likes the pw manager to autofill",
        "Pin 2 tabs in the browser for mail and calendar",
    ],
)
def test_a_short_cue_without_a_value_is_not_a_secret(text: str) -> None:
    assert "PASSWORD" not in secret_kinds(fold(text))
