"""Leak classes of holdout9 closed by structure (branch leaks4), and their look-alikes.

A code entered with a verb or in a keypad's clause, a security answer given with a verb or
after a quoted question, a plate said with words between its groups, a person's payment or
profile handle by its URL's shape or after "alias". The notes are made up; none is from an
evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.normalise import normalise_text
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str) -> set[str]:
    return {reason.code.value for reason in check_privacy(text, pii=NoNer(), identifiers=LIBRARY)}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # a code as the object of a verb that enters it, or brought by "with" after opening
        ("Pour le local vélos, taper 7B305 sur le clavier à code.", "secret"),
        ("To get in, punch in 4471# at the side door", "secret"),
        ("Key in 7723 then press the green button", "secret"),
        ("Disarm with 0913 when you arrive", "secret"),
        ("Il faut composer le 4821B au digicode", "secret"),
        ("Hay que marcar 5512 en el portón", "secret"),
        ("Basta digitare 0417 sul tastierino", "secret"),
        ("Die Garage geht mit 6614 auf", "secret"),
        ("Er tippt 3390 ein und wartet", "secret"),
        ("La puerta se abre con 2719 y hay que empujar", "secret"),
        ("Lockbox by the porch, 5150 opens it", "secret"),
        ("Den Schlüsselkasten entsperrt man mit K4410 vor Ort", "secret"),
        ("Am Ziffernfeld 7731B eingeben", "secret"),
        ("La verja se desbloquea con 90417 desde dentro", "secret"),
        ("Für den Hof: 7720K am Tastenfeld eintippen", "secret"),
        # "the code" with digits given after "is" or a colon is no source code
        ("The code is 551903.", "secret"),
        ("Their code is whatever it was in May: 88120", "secret"),
        ("The shutter's code is the usual one: kappa77.", "secret"),
        ("WPA-Key: ko8812", "secret"),
        # a password switches an alarm off, in the sentence after the alarm
        ("Alarma de la tienda. Se apaga con Lince#2290.", "secret"),
        # a spelling word with a hyphen ("X-ray") and a street's abbreviation
        ("Mot de passe lettre par lettre : K comme Kilo, X comme X-ray, sept, quatre", "secret"),
        ("Street he grew up on: Av. Libertad", "secret"),
        # security answers with a verb, or after a quoted question
        ("Beantwortet die Sicherheitsfrage immer mit Pumuckl", "secret"),
        ("Answers the security question with 'Rex'", "secret"),
        ("Répond à la question secrète par Minou", "secret"),
        ("« ville natale de ma grand-mère » : Quimper", "secret"),
        ("'first school' -> Saint Anne", "secret"),
        # plates said with a word between the groups
        ("Her car is G minus 40931 T", "pii"),
        ("Sa voiture, c'est KL moins 4410 moins B", "pii"),
        ("Das Kennzeichen ist B Strich KL Strich 4411", "pii"),
        ("Kennzeichen: S minus drei vier fünf, sechs sieben, U", "pii"),
        # personal payment and profile handles
        ("Pay her back at paypal.me/maritasolano", "pii"),
        ("Splits bills via revolut.me/tomek88", "pii"),
        ("Cash App: cash.app/$jdoe77", "pii"),
        ("Send it to wise.com/pay/me/annak", "pii"),
        ("Everything she does is on linktr.ee/ninaloops", "pii"),
        ("Mi alias es luna.cielo.mate para transferencias", "pii"),
        ("Alias CBU: casa.verde, a su nombre", "pii"),
    ],
)
def test_told_value_is_refused(text: str, code: str) -> None:
    assert code in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "She entered 2400 in the budget sheet last month",
        "Prefers to type 1200 words before lunch",
        "Il a composé 1500 chansons dans sa vie",
        "Marca 1000 goles con el equipo",
        "The museum opens with 1200 visitors on Sundays",
        "Season opens with 2024 playoffs",
        "Keypad backlight turns off after 2000 ms",
        "Le digicode a été changé en 2021",
        "Le boîtier 1500G est en panne",
        "Keypad model 2400W, enter the settings menu",
        "Sacó un B menos en el examen",
        "Il fait moins 5 dehors",
        "The intercom brand is Comelit 2738",
        "Sie gibt 2000 Euro für Urlaub aus",
        "Entered 2023 in the marathon in Berlin",
        "She answers every email with Thanks",
        'The book "First Pet Care": good for beginners',
        "Score was 5 minus 3, OK",
        "The code is clean and well tested",
        "The code is 1500 lines long",
        "The code is 2019 vintage",
        "The code is old: Python3 and Django.",
        "The alarm is switched off with the app on her phone",
        "Donations go to paypal.me/RedCross",
        "Uses the git alias co.checkout daily",
        "The shell alias is gs.status",
        "Cash App costs $5 per transfer",
    ],
)
def test_look_alike_passes(text: str) -> None:
    assert codes(text) == set()


def test_said_plate_is_written_with_dashes() -> None:
    assert normalise_text("W minus 12345 X") == "W-12345-X"
    assert normalise_text("I said A minus, B plus") == "I said A minus, B plus"
