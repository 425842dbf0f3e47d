"""A username written without its "@" is still a handle, by its shape (holdout7b, seen)."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.locators import locator_types


@pytest.mark.parametrize(
    "text",
    [
        "tag PSN: ZanzaraNera_it",
        "Xbox gamertag Dark_Knight99, plays on weekends",
        "Discord: xX_Sniper_Xx",
    ],
)
def test_a_mixed_case_name_joined_by_underscores_is_a_handle(text: str) -> None:
    assert "SOCIAL_HANDLE" in locator_types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Codes in snake_case and keeps main_editor settings in dotfiles",
        "Sets MAX_RETRIES to 5 in every config",
        "Wi-Fi key CasaRossa_2024",  # a password: the secret guard decides it
        "Stripe key sk_live_51HxQ2aLkP9vZr7TnY3mW8bC",  # a key format, not a person
        "Prefers the __init__ file empty",
    ],
)
def test_words_settings_constants_and_keys_are_no_handle(text: str) -> None:
    assert "SOCIAL_HANDLE" not in locator_types(text)
