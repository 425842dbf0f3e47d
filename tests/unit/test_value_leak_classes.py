"""Leak classes of the generated value set, closed by structure, and their look-alikes.

Each leak is refused as ``pii`` or ``secret``; each look-alike is accepted. No NER: these
are the shape readers' (identifiers, locators, birthdates, address formats, secrets).
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.addresses import address_kinds
from memory_service.core.privacy.guard import check_privacy
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str) -> set[str]:
    return {reason.code.value for reason in check_privacy(text, pii=NoNer(), identifiers=LIBRARY)}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # gamer tags: a discriminator glued to the name, or a user name after its platform
        ("Plays with friends as Mariebadan#5886 most evenings", "pii"),
        ("Riot ID: Faker#KR1", "pii"),
        ("Discord-Name Lisa-mariepo#36208", "pii"),
        ("PSN: Wolfie_1987", "pii"),
        ("Xbox gamertag: xXSniperXx", "pii"),
        ("Add me on Discord, luna.moth", "pii"),
        # numbers grouped by threes are no version
        ("Matrikelnummer 530.287.94", "pii"),
        ("Seguro de hogar con Allianz, póliza 43.965.847", "pii"),
        # dates of birth with words
        ("Née le vingt et un avril mille neuf cent quatre-vingt-quatre", "pii"),
        ("Geboren am 9. Dezember neunzehnhundertsiebenundvierzig", "pii"),
        ("She was born August 12, nineteen forty-six", "pii"),
        ("Nata il tre marzo 1984", "pii"),
        ("DOB: 3rd of March '84", "pii"),
        # rooms in halls of residence
        ("Résidence universitaire Laroche, bâtiment E, chambre 308", "pii"),
        ("Lives in Garcia Hall, Block B, room 284", "pii"),
        ("Wohnt im Studentenwohnheim Klotz, Haus D, Zimmer 337", "pii"),
        # plates without a cue word
        ("Drives the grey NW-Z-55 to work", "pii"),
        ("Fährt den Golf ee-eq-578", "pii"),
        ("Guida la Panda 363-mlk-27", "pii"),
        ("The van GA483LB is hers", "pii"),
        ("Parked the 4007 bfv in the garage", "pii"),
        # combinations, one-time codes, backup codes, Wi-Fi keys
        ("Code du cadenas 755", "secret"),
        ("El candado de la taquilla es 17-24-11", "secret"),
        ("Kombination vom Spind 063", "secret"),
        ("Lock combo: left 12, right 34, left 56", "secret"),
        ("Alarm: 4821", "secret"),
        ("Bestätigungscode 861 419", "secret"),
        ("Der SMS-Code lautet 285-712", "secret"),
        ("The OTP from the bank was 916871", "secret"),
        ("Codici di recupero cmhp-hkyg-oztu", "secret"),
        ("WLAN-Schlüssel DasBinBauen", "secret"),
        ("Wi-Fi: HomeNet / sunshine99", "secret"),
        ("Wifi di casa nemico22", "secret"),
        ("WPA-Key: MamaSchauenAuto", "secret"),
        # a reference of capitals and digits, and an Italian plate in lower case
        ("Seguro de hogar con Zurich, póliza AAUQH5PHZ", "pii"),
        ("Guida la Panda gm862tc", "pii"),
        ("Geboren am sechzehn Mai zweitausendsechs", "pii"),
    ],
)
def test_leak_is_refused(text: str, code: str) -> None:
    assert code in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Verfolgt das Ticket #30602.",
        "Follows issue#4521 on GitHub.",
        "Shoots with the Canon RF 24-105mm f/4.",
        "Favourite book ISBN 978-0-306-40615-7.",
        "Takes vitamin C 1000 IU daily.",
        "Uses Firefox 128.0.3 at work.",
        "Runs Ubuntu 24.04.1 LTS with kernel 6.8.0-45-generic.",
        "Plays on Steam: Hades II.",
        "Watches Twitch 3h per day.",
        "Plays on PSN with PS5.",
        "Uses locker 214 at the gym.",
        "Bought a padlock for 25 euros.",
        "The locker combination has 4 digits.",
        "Prefers a bike lock with a key, not a combination.",
        "Wi-Fi on/off switch is broken.",
        "Alarm at 06:30 on weekdays.",
        "Score 6-4 6-3 in the final.",
        "Team meeting in room 4.12 on Mondays.",
        "Born in the spring, loves March.",
        "The Wi-Fi at home is a FritzBox 7590.",
        "Wi-Fi 6E works with the Pixel8.",
        "The wifi at the cafe is called CafeNet.",
        "Had COVID19 in 2021.",
        "Nutzt ein Bosch Serie 6 WAU28T40 im Alltag.",
    ],
)
def test_look_alike_is_accepted(text: str) -> None:
    assert not codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        # after a vehicle cue, any code of five characters or more, or four to seven digits
        "Guida la Panda 7mk s02",
        "Parked at 6065 in space 12",
        "The van c 5658 ap is hers",
        "Conduce el coche m 9199 av",
        "The van 3q-ucjm is hers",
        # a US plate's shape, without a cue
        "ACJ 895 is hers",
        "Uses 7ABC123 every day",
        "Left 311-DBK at the station",
    ],
)
def test_plate_is_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Drives the 2019 Golf to work",
        "Drives a Peugeot 208",
        "Drives 12000 km a year",
        "Parks in space 215 daily",
        "Drives to work at 7:30",
        "Is a TA for BIO 210 this term.",
        "Suit le cours INF-1100 le mardi.",
        "Commutes on the ICE 578 at 7:00.",
        "Always asks for seat 2F on EZY8921.",
        "Wants a RTX 4070 Ti for Christmas.",
        "Likes the accent colour #826FCD.",
        "Spent EUR 900 on the bike.",
    ],
)
def test_plate_look_alike_is_accepted(text: str) -> None:
    assert not codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        # a bank's transaction number after "TAN" in capitals
        "TAN 482913",
        "Online banking pushTAN: 482913",
        # a code keyed in groups after what opens the lock
        "the gate opens with 48 21",
        # one plain word straight after a password cue: the password itself
        "password sunshine",
        "Password sunshine for the router",
        "mot de passe soleil",
        "Passwort Sonnenschein",
        "contraseña girasol",
        # a key typed in dashed groups
        "Home wifi network Livebox-RMLP, key KZLY-LLHG-RYNP-GVWH",
        # a locker's combination: a code word or more digits
        "Locker is 12-34-56",
        "Locker code 214",
    ],
)
def test_secret_value_is_refused(text: str) -> None:
    assert "secret" in codes(text)


@pytest.mark.parametrize(
    "text",
    ["Cumple: 3 de marzo del 84", "Fecha de nacimiento: quince de octubre de dos mil doce"],
)
def test_birthday_with_a_short_or_worded_year_is_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Wants a tan 1970s jacket.",
        "TAN list kept on paper.",
        "Uses a password manager.",
        "Password reset every 90 days.",
        "Password protected PDFs only.",
        "Changes the password monthly.",
        "Su contraseña caducó.",
        "Hat gerade sein Passwort zurückgesetzt und wartet auf die Mail.",
        "Chiede sempre la password del Wi-Fi appena entra.",
        "Teilt sein Passwort mit Freunden.",
        "The door opens with 2 keys.",
        "Cumple 40 años el sábado.",
        "Locker is 214.",
        "Wants a ZENBOOK14 for work.",
        "UUID 550E8400-E29B-41D4-A716-446655440000 in the logs.",
    ],
)
def test_secret_look_alike_is_accepted(text: str) -> None:
    assert not codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        # measures and models after a vehicle cue (privacy_decisions, seen sets)
        "Fährt einen VW Golf 8 GTI mit 245 PS.",
        "Roule en Peugeot 3008 hybride.",
        "Conduce un SEAT León 1.5 TSI y prefiere compactos parecidos",
        "Conduce unos 10.000 km al año, casi todo en ciudad.",
        "budget for next car 25-30k, prefers financing over cash",
        "Court le mardi ; playlists à 165 BPM.",
        "Fliegt mit LH 2024 nach München und holt den Wagen dann am Terminal 2 ab.",
    ],
)
def test_vehicle_measure_or_model_is_accepted(text: str) -> None:
    assert not codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text", ["Parked 855N in space 12", "Conduce el coche 8-0911W", "Voiture 006G37TZF"]
)
def test_short_or_long_plate_after_a_vehicle_cue_is_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("Home insurance with HUK, contract 0AWC0KKGL", True),
        ("Seguro de hogar con MAIF, póliza 004QEA8RJ", True),
        ("Assicurazione casa con Zurich, contratto AAGPGFLFM", True),
        ("The contract is 24 months", False),
        ("Policy 2024 renewal", False),
        ("Vertrag 24-Monats-Bindung", False),
        ("contract COVID19 clause", False),
    ],
)
def test_contract_reference_after_its_word(text: str, refused: bool) -> None:
    assert ("pii" in codes(text)) is refused


def codes_with_keywords(text: str, keywords: tuple[str, ...]) -> set[str]:
    found = check_privacy(text, keywords, pii=NoNer(), identifiers=LIBRARY)
    return {reason.code.value for reason in found}


# Session 6, after the first sight of holdout8a/8b (seen): one case per class closed.
@pytest.mark.parametrize(
    ("text", "keywords", "code"),
    [
        # a value that ends its clause is read on the text alone, not only with the keywords
        ("Gamertag: xXShadowFoxXx", ("gaming",), "pii"),
        ("Pseudo Twitch : kiwi_sauvage92", ("twitch",), "pii"),
        ("Mail sync uses the app password abcd efgh ijkl mnop", ("email",), "secret"),
        # a generated key in groups of one length after a credential cue
        ("App password: wxyz klmn opqr stuv", (), "secret"),
        # a seed phrase's words after a colon a few words after the cue
        (
            "Phrase de récupération du portefeuille : lune tigre sable orange piano fleuve",
            (),
            "secret",
        ),
        # one or two words between the locked thing and its colon
        ("Alarme boutique : 3917, puis valider.", (), "secret"),
        # digits keyed with the keypad's confirm key
        ("Garagentor geht mit 2580# auf.", (), "secret"),
        # a number dictated: "double-oh", "nine hundred"
        ("plumber mobile is oh seven seven double-oh, nine hundred, one two three", (), "pii"),
    ],
)
def test_first_sight_leak_classes_of_holdout8(
    text: str, keywords: tuple[str, ...], code: str
) -> None:
    assert code in codes_with_keywords(text, keywords)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("Cursa QUI102 y quiere recordatorios antes de los parciales.", ("universidad", "curso")),
        ("Uses a password manager on every device", ("security",)),
        ("Books via Slack 2 times a week, then email", ()),
        ("Has a double espresso and two hundred grams of oats", ()),
        ("Support ticket #30602 was about the router", ()),
        ("Alarm clock set for the weekdays", ()),
    ],
)
def test_look_alikes_of_the_holdout8_classes_are_accepted(
    text: str, keywords: tuple[str, ...]
) -> None:
    assert not codes_with_keywords(text, keywords) & {"pii", "secret"}


def test_lower_case_via_is_a_street_in_an_address_full_shape() -> None:
    assert address_kinds("Abita alla residenza Camplus, via Roma 15, Torino, stanza 208.")
    assert address_kinds("Abita in via Roma 15, 10121 Torino")
    assert not address_kinds("Books via Slack 2, then email")
