"""A number told by a riddle after a credential's or a padlock's label and a colon is the
credential's value (issue 10, session 14: the red team's riddles, none of these texts)."""

from __future__ import annotations

import pytest

from tests.support.privacy_codes import privacy_codes


@pytest.mark.parametrize(
    "text",
    [
        "Garden shed padlock: left to eight, right to nineteen, left to two.",
        "Bike locker combination: the year the club was founded, reversed.",
        "Cadenas du garage : le numéro du département suivi de l'âge de son chien.",
        "Clave del candado: los últimos cuatro dígitos del teléfono del club.",
        "Vorhängeschloss am Keller: dreimal die Sieben.",
        "Codice del lucchetto: l'anno della finale mondiale, al contrario.",
        "Keypad code, as he sent it in Morse: .---- ..--- ...-- ....-",
        "Safe combination: the number of holes on a golf course, then the par of the first.",
    ],
)
def test_a_riddled_value_after_a_label_is_a_secret(text: str) -> None:
    assert "secret" in privacy_codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dress code: smart casual, two pieces at least on Fridays.",
        "User: prefers the north entrance, ten minutes from the tram.",
        "Door code: sent to her by text every Monday.",
        "Opens the shop at 6:30 on weekdays and wants reminders at 5:45.",
    ],
)
def test_a_label_without_a_told_number_is_no_secret(text: str) -> None:
    assert "secret" not in privacy_codes(text)


def test_a_riddle_with_no_number_in_it_is_not_read_known_limit() -> None:
    # The rule decides from a number told in any form; a riddle of things alone passes.
    assert "secret" not in privacy_codes(
        "Safe combination: the holes on a golf course, then the par of its first hole."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Collects Casio DW5600 watches from the eighties.",
        "Brews with Lallemand BRY 97 for pale ales.",
        "Only buys Ilford HPS 800 film for night shots.",
    ],
)
def test_a_plate_shaped_model_after_a_makers_word_passes(text: str) -> None:
    assert "pii" not in privacy_codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Her brother Daniel KTR 552 borrows it on weekends.",
        "KTR 552 is the one she uses.",
        "Drives a Ford, plate KTR 552.",
    ],
)
def test_a_plate_shape_after_a_given_name_or_alone_is_refused(text: str) -> None:
    assert "pii" in privacy_codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Buys her maps at Stanfords Books, 7 Mercer Walk, London, when she is in town.",
        "Préfère le rendez-vous à l'ambassade du Canada, 130 rue du Faubourg Saint-Honoré.",
        "Holt die Karten immer beim Kino International, Karl-Marx-Allee 33.",
    ],
)
def test_a_venues_own_address_after_visiting_it_passes(text: str) -> None:
    assert "pii" not in privacy_codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Lives above the Corner Shop, 12 Mill Lane.",
        "Send the parcel to the Green Café, 4 Elm Road, where she lives upstairs.",
        "Babysits at the Martins', 14 Oak Road, on Fridays.",
    ],
)
def test_an_address_lived_at_or_delivered_to_stays_refused(text: str) -> None:
    assert "pii" in privacy_codes(text)


def test_a_build_number_shaped_like_an_address_is_a_version() -> None:
    assert "pii" not in privacy_codes("Runs the booking app at build 7.3.0.212 on a Pixel.")
    assert "pii" in privacy_codes("Her home router answers on 84.122.31.7 from outside.")


@pytest.mark.parametrize(
    "text",
    [
        "Uses Harbour77! to log in to the members' area.",
        "Pour se connecter à l'espace client, elle utilise 'Lavande2011'.",
        "Zum Einloggen ins Kundenportal nutzt er Falke#1990.",
    ],
)
def test_a_password_shaped_word_used_to_log_in_is_a_secret(text: str) -> None:
    assert "secret" in privacy_codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Logs in on a Lenovo X1 Carbon at work.",
        "Uses a YubiKey 5C to log in to everything.",
        "Uses the Authy app to sign in.",
    ],
)
def test_a_device_or_an_app_used_to_log_in_is_no_secret(text: str) -> None:
    assert "secret" not in privacy_codes(text)


def test_a_product_shaped_like_a_password_is_refused_known_cost() -> None:
    # Fail closed: "Office365" has the shape of "Bolero1928" (a word, then digits).
    assert "secret" in privacy_codes("Uses Office365 to sign in at work.")
