"""names8: a street address inside a path or a URL, its words joined by "_", "+" or "%20".
Fresh examples (none from an evaluation set)."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.addresses import address_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Keeps the invoice at ~/docs/27_Rue_des_Lilas_Lyon.pdf for reprints.",
        "Delivery pin: https://maps.example.org/?q=41+Harbour+Road+Cork",
        "Route saved as https://maps.example.org/dir/?q=Lindenweg%2012%20Köln",
    ],
)
def test_an_address_joined_in_a_locator(text: str) -> None:
    assert "STREET_ADDRESS" in address_kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Saves the return to ~/notes/2024_tax_return.pdf every April.",
        "Bookmarked https://example.org/?q=best+coffee+in+town for later.",
        "Keeps https://example.org/search?q=12+Angry+Men+film in the watch list.",
    ],
)
def test_a_locator_without_an_address(text: str) -> None:
    assert not address_kinds(text)
