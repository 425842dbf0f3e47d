"""Personal data by syntax (branch leaks5): an account's page on a host whose paths are user
names, and a platform's user name after whose it is and a colon. Made-up notes only."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.locators import locator_types


@pytest.mark.parametrize(
    "text",
    [
        "Her sketches are all on instagram.com/lina.draws.daily.",
        "Code samples: gitlab.com/pwozniak-lab; he reviews merge requests there.",
        "Wants feedback on https://twitter.com/nora_writes, it's her account.",
        "Stream: twitch.tv/GrumpyOtter, Fridays at nine.",
        "pseudo Steam du cousin : NoirCorbeau88, pour jouer ensemble",
        "twitch della nipote: lucciola_77 (guarda i suoi video)",
    ],
)
def test_pages_and_owned_handles_are_personal(text: str) -> None:
    assert locator_types(text) & {"SOCIAL_HANDLE", "GAMER_TAG"}


@pytest.mark.parametrize(
    "text",
    [
        "Contributes to github.com/python/cpython every month.",
        "Reads github.com/trending each morning.",
        "Follows x.com/explore for news.",
        "Project lives at https://github.com/acme-corp/tools.",
        "Steam of the summer sale: discounts on everything.",
        "Prefers Discord over Slack for the team.",
    ],
)
def test_look_alikes_are_not(text: str) -> None:
    assert not locator_types(text) & {"SOCIAL_HANDLE", "GAMER_TAG"}
