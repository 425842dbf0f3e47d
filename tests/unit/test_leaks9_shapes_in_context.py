"""Values whose shape the context must not excuse, closed by structure (branch leaks9).

Refused: long digit groups after a word for a year ("in", "seit") and an IBAN with a wrong
check digit; a short code after a lock named by a compound ("Zimmersafe"), after an
anti-theft system, keyed in three digits or as the steps of a procedure, or with the
keypad's keys in words; a composed password joined by "&"; a phone said in number words
with " / " between its groups; coordinates in degrees, minutes and seconds with prime signs
or words; an age reached on a full date, a star sign with a day and a year; a house number
in words after a street's name.
Accepted: a year after those words, a count that describes a password's length, a brand's
"&", a recurring date, an age without a date. The notes are made up; none is from an
evaluation set.
"""

from __future__ import annotations

import os
import re

import pytest
import stdnum

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from memory_service.core.privacy.identifiers import _IBAN_LENGTHS, iban_shaped
from memory_service.core.privacy.normalise import normalise_text
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str, keywords: tuple[str, ...] = ("general",)) -> set[str]:
    reasons = check_privacy(text, keywords, pii=NoNer(), identifiers=LIBRARY)
    return {reason.code.value for reason in reasons}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # digit groups after a year's word
        ("Paid the deposit in 5290 1873 4422 0915 last week.", "pii"),
        ("Seit 4417 2298 0031 7745 zahlt sie mit dieser Karte.", "pii"),
        # an IBAN with a wrong check digit is still an account
        ("Versa la quota in IT60 X054 2811 1010 0000 0123 457 ogni mese.", "pii"),
        ("Virement en FR76 3000 6000 0112 3456 7890 188 chaque mois.", "pii"),
        # a lock named in a compound, an anti-theft system
        ("Zimmersafe: 7731, vergisst sie immer.", "secret"),
        ("Wandtresor: 4 9 1 2, hinter dem Bild.", "secret"),
        ("Antifurto del garage: 5 1 8 2, lo sa solo lei.", "secret"),
        ("El antirrobo del coche se apaga con 4 4 1 9.", "secret"),
        # a procedure of key presses, three keyed digits, keys in words
        ("Intercom: press 2 7 5 then the bell.", "secret"),
        ("El portero se abre marcando 7 1 4 y la llave.", "secret"),
        ("Side door: press the bell symbol, then 7731.", "secret"),
        ("Gate keypad: star-four-one-one-nine-pound.", "secret"),
        # a composed password joined by "&"
        ("Logs into the supplier portal with Maple&River21.", "secret"),
        ("Signs into the bank with Fox&Hound1987 every morning.", "secret"),
        # a phone in number words, groups between " / "
        ("Anruf unter null-sechs-neun / drei-drei / vier-vier-eins-zwei.", "pii"),
        ("Chiamare al tre-tre-otto / uno-due-tre / quattro-cinque-sei-sette.", "pii"),
        # degrees, minutes, seconds
        ("The hut sits at 47°03\u203217\u2033N 10°17\u203252\u2033E.", "pii"),
        ("Anchored at 43 deg 17 min 4 sec N, 5 deg 22 min 11 sec E.", "pii"),
        # an age on a date
        ("Turns 50 on 2 June 2029, wants a party.", "pii"),
        ("Her son will be 18 on 9 October 2030.", "pii"),
        # a star sign, a day of the month and a year of birth
        ("A Virgo born in 1992, on the 14th.", "pii"),
        ("Née en 1985, Scorpion, le 12.", "pii"),
        # a house number in words
        ("Wohnt in der Lindenallee siebzehn, 10115 Berlin.", "pii"),
        ("Vive en la Calle Mayor doce, 28013 Madrid.", "pii"),
    ],
)
def test_values_the_context_does_not_excuse_are_refused(text: str, code: str) -> None:
    assert code in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Car tyres are 225/45 R17 94W.",
        "Prefers 16-character passphrases and rotates them yearly.",
        "Uses a password manager and wants 12-digit PINs everywhere.",
        "Was born in 1979.",
        "Got married in 2012 and moved in 2015.",
        "Seit 2019 wohnt sie in Hamburg.",
        "Collects a 2010 Rioja for every anniversary.",
        "Celebrates Christmas dinner on 25 December every year.",
        "Turns 40 next spring and wants a quiet party.",
        "Born in 1990, a Virgo like her mother.",
        "Leo the cat was born on the 3rd.",
        "Works at AT&T in Dallas.",
        "Loves Procter&Gamble products.",
        "Press the bell and wait, the concierge opens.",
        "Intercom: ring twice, then wait for the buzzer.",
        "Turn 90 degrees at the second junction.",
        "In der Hauptstraße sei es laut.",
        "Paseo Colón tres veces por semana.",
        "Sektor: 2400 Einwohner.",
        "Flight AF1234 in 2019 was delayed.",
    ],
)
def test_look_alikes_are_saved(text: str) -> None:
    assert not codes(text)


def test_the_iban_lengths_are_the_registrys() -> None:
    data = (os.path.join(os.path.dirname(stdnum.__file__), "iban.dat"),)
    with open(data[0], encoding="utf-8") as registry:
        lengths = {
            match[1]: sum(int(n) for n in re.findall(r"(\d+)!", match[2])) + 4
            for match in re.finditer(
                r'^([A-Z]{2}) country=".*?" bban="([^"]*)"', registry.read(), re.M
            )
        }
    assert lengths == _IBAN_LENGTHS


def test_an_iban_shape_needs_its_countrys_length() -> None:
    assert iban_shaped("ES7621000418450200051332")
    assert not iban_shaped("ES762100041845020005133")  # one digit short
    assert not iban_shaped("ZZ7621000418450200051332")  # no such country


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("Schillerstraße dreiundzwanzig, 80336", "Schillerstraße 23, 80336"),
        ("Via Garibaldi diciotto.", "Via Garibaldi 18."),
        ("keypad: star-six-six-zero-one-hash", "keypad: *6601#"),
    ],
)
def test_numbers_said_in_an_address_or_on_a_keypad_are_written(said: str, written: str) -> None:
    assert normalise_text(said) == written
