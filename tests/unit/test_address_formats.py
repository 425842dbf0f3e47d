"""Streets with a number in Central and Northern European and Turkish formats are addresses."""

from __future__ import annotations

import pytest

from memory_service.core.privacy.address_formats import STREET_ADDRESS, address_format_kinds


@pytest.mark.parametrize(
    "text",
    [
        "Send the keys to Hársfa utca 14., H-6720 Szeged.",
        "Parcel for Dlouhá 12, 110 00 Praha.",
        "ul. Ogrodowa 7/3, 61-821 Poznań is the new flat.",
        "Moved to Aleksanterinkatu 21.",
        "Delivery address 14 Strandvejen, Hellerup.",
        "The studio is at 8 Kungsgatan.",
        "Office: Slovenska cesta 56, Ljubljana.",
        "Ring at 3 Ilica ulica, second floor.",
        "Lives on Atatürk Caddesi 12.",
        "Invoice to 41 Bağdat Yolu, Kad\u0131köy.",
        "Mailing address: 90 Oak Hollow, Kütahya, OR 97301.",
        "She lives at 27 Brennhaugen, close to the lake.",
        "Keys are with the neighbour at Van Baerlestraat 92, 1071 BB Amsterdam.",
        "Ship to 40 Lipová, Apt. 3 please.",
        "12b Kolodvorska pot, Suite 5.",
    ],
)
def test_a_street_with_its_number_is_an_address(text: str) -> None:
    assert address_format_kinds(text) == {STREET_ADDRESS}


@pytest.mark.parametrize(
    "text",
    [
        "Walks along the Andrássy út every Sunday.",  # a street without a number
        "Taglia 46 nei pantaloni, scarpe 42.",  # a size
        "Tarif mit 24 Monaten Preisgarantie.",  # a German noun after a number
        "Runs Windows 11 Enterprise at work.",
        "Meeting is at 9 sharp on Mondays.",
        "Books 2 nights at the Hotel Adlon, Berlin.",
        "Flies Lufthansa 3 times a year to Oslo.",
        "Bucht immer den Sitzplatz 22C im Zug.",  # a seat, not a street
    ],
)
def test_a_number_beside_a_capitalised_word_is_not_an_address_by_itself(text: str) -> None:
    assert address_format_kinds(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "Pick-up at the corner of Váci utca and Régi posta St.",
        "Drop me at the intersection of Mannerheimintie and Kaivokatu.",
        "She lives on the quiet end of Rosenvænget.",
        "Lives at the top of Harbour Road.",
    ],
)
def test_a_corner_of_two_streets_or_the_street_someone_lives_on_is_an_address(text: str) -> None:
    assert address_format_kinds(text) == {STREET_ADDRESS}


@pytest.mark.parametrize(
    "text",
    ["Lives in Leeds now.", "Lives in the Lyon area and commutes by tram.", "Lives on a boat."],
)
def test_the_city_someone_lives_in_is_not_an_address(text: str) -> None:
    assert address_format_kinds(text) == frozenset()
