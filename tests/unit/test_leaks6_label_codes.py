"""Label codes told from a person's identifiers by structure (branch leaks6), and leaks.

A code glossed in parentheses, in parentheses after a product, or after a maker's name
written as one (inner capitals, a hyphen, a digit), with no vehicle named in the note, is a
label or a model, not a US plate; a German plate's number never starts with 0 and its
one-letter districts are a fixed set; a version may end with its build number; a video mode,
opening hours, an aside in parentheses after a number, a company's register number after
its register when the company's legal form is named. On the other side: a number given in
quoted parts after an identifier's word, digits after a long complement of a PIN, a quoted
token in the sentence of a password's word. A credential word inside a noun ("password
policy") or a keyword after a password word is no value. The notes are made up; none is
from an evaluation set.
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
    ("text", "keywords"),
    [
        # a code glossed in parentheses: a requisition, an exam, a course
        ("Wants news only about JOB-4417 (Platform Engineer), nothing else.", ("jobs",)),
        ("Postule au poste OPS-5530 (technicien réseau) et attend un retour.", ("poste",)),
        ("Passed the Azure exam (AZ-104) last spring and wants cloud roles.", ("exams",)),
        ("Preparing the CKA-C01 (Kubernetes admin) certification.", ()),
        # a code in parentheses after a product; a model after its maker's name
        ("Uses a Steam Deck OLED (KRT-1010) for travel gaming.", ("gaming",)),
        ("Owns a KitchenAid KSM 175 mixer and bakes on Sundays.", ("baking",)),
        ("Hat einen Bosch-Geschirrspüler SMV 468 in der Küche.", ("küche",)),
        ("Shoots with a Fujifilm X-S20 and a 35 mm lens.", ("photo",)),
        # a course in German, with its verb
        ("Belegt VWL 202 im Sommer, Klausur im Juli.", ()),
        # a version with its build number; a video mode; opening hours; an aside
        ("Runs the insider build 10.0.26100 on the work laptop.", ("windows",)),
        ("Plays the beta 1.4.2.2231 and reports bugs.", ("beta",)),
        ("Records gameplay at 1440p120 on the new monitor.", ("streaming",)),
        ("Le cabinet est ouvert 9h-12h30, fermé le jeudi.", ("horaires",)),
        ("Drives a Renault 5 (2024, electric) to work.", ("car",)),
        # a company's register number, the company named by its legal form
        ("Her firm, Blackwood Studio Ltd, is at Companies House under number 09876543.", ()),
        ("Son entreprise, Atelier Brun SAS, est au RCS de Nantes sous le n° 832 114 509.", ()),
        # a credential word inside a noun; a keyword after a password word
        ("PIN policy for the team: nobody writes codes down, ever.", ("security",)),
        ("Resets her mot de passe every quarter.", ("mot de passe", "routine")),
        ("Keeps everything in 1Password as password manager.", ("password", "tools")),
        # a year and a lower-case keyword are no Spanish plate
        ("Freelance translator since 2016", ("kyc", "work")),
    ],
)
def test_label_codes_are_not_identifiers(text: str, keywords: tuple[str, ...]) -> None:
    assert codes(text, keywords) == set()


@pytest.mark.parametrize(
    "text",
    [
        # a plate with a vehicle named, even glossed or after a name
        "Her van is VHP 214 (the white one).",
        "Parked the car next to DeWalt WRK 448 this morning.",
        # a German plate keeps failing closed
        "Ihr Auto hat M-KL 340.",
        "B-AB 1234 steht vor dem Haus.",
        # a lower-case Spanish plate whose digits look like a year, after no word of time
        "La sua auto 2013 hck è in garage.",
        # a plate's shape after a person's name: no maker, no exemption
        "Neighbour Tom ACJ 895 complains about the noise.",
        # a phone written with dots, not a version
        "Reach him at 1.800.555.1234 after lunch.",
        "Tel 06.12.34.56.78",
        # a register number without a legal form: a sole trader's is a person's
        "Il est inscrit au RCS de Nantes sous le n° 832 114 509.",
        # a number given in quoted parts after an identifier's word
        "Member number came in pieces: first '4471 20', later '8 3'.",
        "Kontonummer kam in zwei Teilen: „5521 08“ und „44 17“.",
    ],
)
def test_identifiers_still_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        # digits after a long complement of a PIN or a password
        ("Der PIN für die Karte vom Fitnessstudio am alten Bahnhof lautet 6603.", ()),
        ("The PIN for the card of the gym by the old station is 6603.", ()),
        # a quoted token in the sentence of a password's word, before or after it
        ("mdp box internet demandé : elle garde 'Soleil2019' depuis toujours", ()),
        ("Memorable word set to 'lighthouse' at the branch.", ("bank",)),
        ("'tangerine' -> what she gave as the phone banking passphrase", ()),
        # a plain word after a password word, in the text itself
        ("Password sunshine", ()),
        ("Passwort Sonnenschein", ("wlan",)),
    ],
)
def test_secrets_still_refused(text: str, keywords: tuple[str, ...]) -> None:
    assert "secret" in codes(text, keywords)


@pytest.mark.parametrize(
    "text",
    [
        # digits read out one by one later in a note that names the document or the account
        "Her passport number? She gave the tail only, after some thought: four four zero nine.",
        "Numéro de compte : il ne se souvient que de la fin, deux sept un neuf.",
        # a plate said with commas around the said dash
        "Targa della macchina: B, trattino, K L, trecentoventi.",
    ],
)
def test_told_identifiers_refused(text: str) -> None:
    assert "pii" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        # a credential said to be made of a personal item
        "His PIN is the day and month of his wedding.",
        "Le mot de passe de la box est le prénom de sa fille suivi de son année.",
        "Das Passwort ist der Geburtstag ihrer Mutter.",
        "Il codice del cancello è il giorno del suo compleanno.",
        "The router's Wi-Fi is easy: the key is 'the dog's name twice'.",
    ],
)
def test_described_credentials_refused(text: str) -> None:
    assert "secret" in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "The gate code is changed every month by the landlord.",
        "Her PIN is a number she never writes down.",
        "The wifi key is the one printed on the sticker.",
        "Passwords are the bane of her days.",
        "Writes the passport number on the first page of each trip plan, 2 copies.",
    ],
)
def test_credential_talk_without_value_passes(text: str) -> None:
    assert codes(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # spelled letters, then groups said as numbers, after a number's label
        ("Numéro d'adhérent (carte verte) : Kilo Lima, trois cent douze, quatre-vingt.", "pii"),
        # part of a secret after a word for a part, in the sentence of a credential's word
        ("The API token starts with 'ghp_' and ends with 9fQ2.", "secret"),
        ("Le mot de passe du NAS commence par Xk9, la suite est dans le carnet.", "secret"),
        # a quoted user name next to its password's recipe
        ("Login for the library is 'bluefinch' and the password is its reverse.", "secret"),
        # a plate said with single capitals around its number stays a plate
        ("Il suo furgone è R trattino 5521 trattino K.", "pii"),
        # a dial's numbers said in turn, with "then" between them
        ("Le cadenas du vélo : on tourne jusqu'à douze, puis trente, puis quatre.", "secret"),
        ("Bike lock combination: nineteen, then six, then forty.", "secret"),
        # numbers said in turn after a number's label stay one number
        ("Numéro d'adhérent : quatre cent douze, puis cinquante-huit, puis trois.", "pii"),
    ],
)
def test_partial_and_spelled_values_refused(text: str, expected: str) -> None:
    assert expected in codes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Passwords expire at the end of each quarter, starting 2025.",
        "Her PIN starts with 4 and she never remembers the rest.",
        "Stays at Hotel Delta 304 when in Lyon.",
        # the password's word quoted is the word itself, a typo corrected
        "Meant 'password', not 'pasword', in the last message.",
        # numbers in turn that are no code
        "Wakes at six, then seven on weekends.",
        "Drinks one coffee then two teas then one more coffee.",
        # "the user" said in Spanish is no user name
        "El usuario contestó «perfecto» a la propuesta.",
    ],
)
def test_parts_and_spelling_lookalikes_pass(text: str) -> None:
    assert codes(text) == set()
