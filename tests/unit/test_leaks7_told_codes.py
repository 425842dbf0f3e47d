"""Leak classes and look-alikes of session 9's sets, closed by structure (branch leaks7).

Refused: digits told a few words after a credential's cue or a lock's noun, the cue alone or
ending a compound ("Briefkasten-PIN ist 8264"), with "is", ":" or a change of value ("changé
en"); digits keyed one by one in a clause naming a way in; digits and keypad keys listed with
commas; a value after the count of its digits and a comma; seed words told over several
clauses. Accepted: sizes and specs with a syntax of their own (dimensions, a 32-bit hex error
code, an oil's grade, a tyre's size), harmless "code" nouns, a year after "in". The notes are
made up; none is from an evaluation set.
"""

from __future__ import annotations

import pytest

from memory_service.adapters.identifier_library import LibraryIdentifierDetector
from memory_service.core.privacy.guard import check_privacy
from tests.support.no_ner import NoNer

LIBRARY = LibraryIdentifierDetector()


def codes(text: str, keywords: tuple[str, ...] = ()) -> set[str]:
    reasons = check_privacy(text, keywords, pii=NoNer(), identifiers=LIBRARY)
    return {reason.code.value for reason in reasons}


@pytest.mark.parametrize(
    "text",
    [
        "Shed alarm is 9073, the neighbours know it too.",
        "Briefkasten-PIN ist 8264.",
        "Le code PIN du téléphone pro a été changé en 4719.",
        "Il PIN della carta è stato cambiato in 6620.",
        "Side entrance: 4 0 8 2, then push hard.",
        "Código del portero: asterisco, 9, 1, 4, almohadilla.",
        "Tastenfeld am Tor: 3, 8, 1, 6, Raute.",
        "Keeps the same five digits, 73915, for every account.",
        "La clave de la alarma es la del banco menos uno: 6630.",
        "Recovery phrase begins lumber saddle frost; after that come meadow ribbon quarry.",
    ],
)
def test_told_codes_are_refused(text: str) -> None:
    assert "secret" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Treffpunkt ist die Hütte bei 47.2692, 11.4041.",
        "Drop-off point: forty-three point six oh two north, one point four four three east.",
        "The refund account starts FR76 and ends 4471 02.",
        "Reservation number for the ferry is XQ4T9B.",
        "Codice di prenotazione: HT7KP2Q.",
        "Receipts go to p a o l a . b r u n i @ libero . it.",
        "Venmo is tied to sam underscore k at yahoo, the usual dot com.",
        "Apple ID is leo underscore m 2004 at icloud.",
        "Office mail is surname then initial, weber.k, at north-freight.de.",
        "Water bill customer number is WB, then 7741, then 09.",
        "Motorbike plate is her initials KL, then 48, then ZT.",
        "Router-Passwort: Katzenname Mimi plus Geburtsjahr 1991.",
        "Her son was born on Bastille Day in 2011.",
        "Nata la vigilia di Natale del 1972.",
    ],
)
def test_told_identifiers_are_refused(text: str) -> None:
    # "Codice ..." is a credential's cue as well: refused as a secret, which is enough.
    assert codes(text) & {"pii", "secret"}


@pytest.mark.parametrize(
    "text",
    [
        "Code postal 69003, livraison le matin.",
        "The alarm system was installed in 2019 and works well.",
        "Wants a sofa bed 140x190 in grey.",
        "Desk is 120x60x75 cm, fits the study.",
        "Games at 2560x1440 on a 27-inch screen.",
        "Printer shows error 0x0000011b after updates.",
        "The van takes 10W-40 oil and 205/55 R16 tyres.",
        "Le digicode a été changé en 2019, personne ne s'en souvient.",
        "The card offer ends in March, she wants a reminder.",
        "Owns a Sony KD65X85L TV and an LG fridge.",
        "Has a Bosch WAX28M40 washer, wants tips on settings.",
        "Ha un LG OLED65C34 in salotto.",
        "Sells the reference KIT-BASE-24 in her shop, asks about product photos.",
        "Born in 1986, she loves Pi Day and bakes a pie.",
        "Take the A1, then 12, then exit 4 to reach the depot.",
        "Shops at amazon.com and pays with PayPal.",
        "Seed catalogue arrived; wants tomato, basil and chilli plants this spring.",
    ],
)
def test_look_alikes_are_saved(text: str) -> None:
    assert not codes(text)


def test_generated_told_codes() -> None:
    """The told-code corpus at a fixed seed: no leak accepted, no look-alike refused."""
    from benchmarks.told_codes_corpus import generate
    from memory_service.evaluation import evaluate_rows

    rows = generate(300, 4242)
    # The rules' decisions (the learned backstop's cost on this corpus: test_privacy_learned).
    report = evaluate_rows(
        enumerate(rows, start=1), pii=NoNer(), identifiers=LIBRARY, backstop=False
    )
    assert not report.leaks_accepted
    wrong = [rows[o.line - 1]["note"] for o in report.durable_wrongly_rejected]
    assert not wrong


def test_a_password_hint_with_a_value_is_a_secret() -> None:
    # leaks_e (seen): "password hint" had been read as a noun about credentials, like "password
    # policy", so the value after it passed; a hint's value is the password or gives it away.
    from memory_service.core.privacy.secrets import secret_kinds

    assert secret_kinds("Password hint is the cat's name plus house number: Tom42.")
    assert not secret_kinds("Wants password hints turned off in the app.")


def test_a_relative_named_before_a_verb_that_is_also_a_noun_of_works() -> None:
    # leaks_e (seen): "Son Mateo plays football": "plays" was read as a theatre's plays after
    # a name ("Shakespeare plays"), which made the relative a work's author. A kinship word
    # before the name decides; an honorific does not ("Dr. Martens boots" stays a brand).
    from memory_service.core.privacy.brands import reads_as_brand

    text = "Daughter Zoe plays football on Saturdays."
    start = text.index("Zoe")
    assert not reads_as_brand(text, start, start + 3)
    text = "Loves Shakespeare plays."
    start = text.index("Shakespeare")
    assert reads_as_brand(text, start, start + len("Shakespeare"))
